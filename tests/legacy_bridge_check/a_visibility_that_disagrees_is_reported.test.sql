-- legacy_bridge_check reports a namespace whose legacy visibility level is not its lifecycle
-- visibility (lowered behind the tree bridge's back, triggers off, as a superuser could), by the
-- levels' names.
begin;
select plan(1);
select lifecycle_test.create_gitlab_tables();

set local session_replication_role = replica;
update legacy.namespaces set visibility_level = 0 where id = 900005;
set local session_replication_role = origin;
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900005::bigint, 'legacy.namespaces'::regclass, 'visibility private'::text, 'visibility public'::text)$$,
                  'the user namespace''s visibility, legacy and lifecycle');

select * from finish();
rollback;
