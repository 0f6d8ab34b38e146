-- namespace_resolve is granted to both documented roles and needs nothing else they lack.
begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 1001, 50);
select * from lifecycle.namespace_rename(lifecycle_test.id_of('acme/eng'), 'platform', 1001);
grant usage on schema tap, lifecycle_test to lifecycle_app, lifecycle_worker;

set local role lifecycle_app;
select results_eq($$select canonical_path, redirected from lifecycle.namespace_resolve('acme/platform')$$,
                  $$values ('acme/platform'::text, false)$$, 'lifecycle_app: a live path resolves');
select results_eq($$select canonical_path, redirected from lifecycle.namespace_resolve('ACME/eng/')$$,
                  $$values ('acme/platform'::text, true)$$, 'lifecycle_app: an old path resolves through its redirect');
reset role;
set local role lifecycle_worker;
select results_eq($$select canonical_path, redirected from lifecycle.namespace_resolve('acme/eng')$$,
                  $$values ('acme/platform'::text, true)$$, 'lifecycle_worker: an old path resolves');
select is_empty($$select * from lifecycle.namespace_resolve('acme/nowhere')$$, 'lifecycle_worker: an unknown path has no row');
reset role;

select * from finish();
rollback;
