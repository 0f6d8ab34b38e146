-- legacy_bridge_check reports a namespace whose legacy path is not what its lifecycle path became
-- (written behind the tree bridge's back, triggers off, as a superuser could); a legacy path the
-- import would have normalised to the lifecycle's (GitLab's `Acme` for `acme`) agrees.
begin;
select plan(2);
select lifecycle_test.create_gitlab_tables();

set local session_replication_role = replica;
update legacy.namespaces set path = 'Acme' where id = 900001;
update legacy.projects set path = 'handbook' where id = 9100;
set local session_replication_role = origin;
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900010::bigint, 'legacy.projects'::regclass, 'path handbook'::text, 'path docs'::text)$$,
                  'the project''s path disagrees; the group''s differs only as the import normalises it');
select is((select count(*)::int from lifecycle.namespace_state_updates), 0, 'checking changes nothing');

select * from finish();
rollback;
