-- legacy_bridge_check reports a user namespace in a state GitLab's tables cannot say (no archived
-- flag, no deletion schedule for users): what legacy_bridge_sync refuses live (NS001), made here
-- behind its back (triggers off, as a superuser could), is listed against legacy.namespaces, the
-- table that holds the user.
begin;
select plan(3);
select lifecycle_test.create_gitlab_tables();
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'in step');

set local session_replication_role = replica;
update lifecycle.namespaces set state = (select code from lifecycle.states where name = 'archived') where id = 900005;
set local session_replication_role = origin;
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900005::bigint, 'legacy.namespaces'::regclass, 'not archived'::text, 'archived'::text)$$,
                  'an archived user namespace');

set local session_replication_role = replica;
update lifecycle.namespaces set state = (select code from lifecycle.states where name = 'deletion_scheduled'),
                                deletion_scheduled_at = now(), deletion_scheduled_by = 42
 where id = 900005;
set local session_replication_role = origin;
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900005::bigint, 'legacy.namespaces'::regclass, 'not deletion_scheduled'::text, 'deletion_scheduled'::text)$$,
                  'a user namespace scheduled for deletion');

select * from finish();
rollback;
