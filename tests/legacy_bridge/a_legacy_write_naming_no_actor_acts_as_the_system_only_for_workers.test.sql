-- Authority is the writing role's, attribution the actor's (docs/design.md §4.1, §10.2): a
-- legacy write whose row and bridge name no actor is the system's, refused to lifecycle_app
-- (NS005) and allowed to lifecycle_worker; a login with no grants on the lifecycle changes no state
-- through a legacy table open to it, whatever actor the bridge names (NS005); with an owner as the
-- bridge's actor, lifecycle_app archives and unarchives through the legacy flag.
begin;
select plan(7);
select lifecycle_test.create_gitlab_legacy();
create role lifecycle_test_nogrants;
grant usage on schema legacy to lifecycle_app, lifecycle_worker, lifecycle_test_nogrants;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app, lifecycle_worker, lifecycle_test_nogrants;

set local role lifecycle_app;
select throws_ok(format($$update legacy.namespace_settings set archived = true where namespace_id = %s$$, lifecycle_test.id_of('acme/eng')),
                 'NS005', 'only the system may move this namespace to archived without an actor',
                 'lifecycle_app: a legacy archive naming no actor is refused (NS005)');
reset role;
set local role lifecycle_worker;
select lives_ok(format($$update legacy.namespace_settings set archived = true where namespace_id = %s$$, lifecycle_test.id_of('acme/eng')),
                'lifecycle_worker: the same write archives, as the system');
reset role;
select results_eq(
  format($$select to_state::int, actor_id, source from lifecycle.namespace_state_updates where namespace_id = %s order by id$$,
         lifecycle_test.id_of('acme/eng')),
  $$values (1, null::bigint, 'bridge'::text)$$, 'recorded as the system''s, through the bridge');

update lifecycle.legacy_bridges set actor_id = 1001;
-- (The role may not even call pgTAP: its outcome is kept in a setting. eng has the highest id.)
set local role lifecycle_test_nogrants;
do $$
begin
  update legacy.namespace_settings set archived = false where namespace_id = (select max(namespace_id) from legacy.namespace_settings);
  perform set_config('lifecycle_test.outcome', 'allowed', true);
exception when others then
  perform set_config('lifecycle_test.outcome', sqlstate, true);
end
$$;
reset role;
select is(current_setting('lifecycle_test.outcome'), 'NS005',
          'a login with no grants: refused (NS005), even with an owner as the bridge''s actor');
set local role lifecycle_app;
select lives_ok(format($$update legacy.namespace_settings set archived = false where namespace_id = %s$$, lifecycle_test.id_of('acme/eng')),
                'lifecycle_app: the bridge''s owner actor unarchives');
select lives_ok($$update legacy.projects set archived = true where id = 501$$, 'and archives');
reset role;
select results_eq(
  format($$select to_state::int, event, actor_id, source from lifecycle.namespace_state_updates where namespace_id in (%s, %s) order by id$$,
         lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/eng/site')),
  $$values (1, null::text, null::bigint, 'bridge'::text), (0, 'unarchive', 1001, 'bridge'), (1, null, 1001, 'bridge')$$,
  'the owner''s changes are attributed to the owner');

select * from finish();
rollback;
