-- legacy_bridge_check reports a group the lifecycle holds archived while GitLab sees nothing: its
-- namespace_settings row is gone (deleted behind the bridges' back, triggers off, as a superuser
-- could). With the docs' bridge (insert_missing: no row is "not archived") the settings table
-- says so; with a bridge that speaks only for the rows it has, no bridge speaks for the group,
-- and the table holding the group (legacy.namespaces) says "not archived".
begin;
select plan(3);
select lifecycle_test.create_gitlab_tables();
select lifecycle.namespace_event(900002, 'archive', 42);
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'in step after the API archived it (its row says archived)');

set local session_replication_role = replica;
delete from legacy.namespace_settings where namespace_id = 900002;
set local session_replication_role = origin;
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900002::bigint, 'legacy.namespace_settings'::regclass, 'not archived'::text, 'archived'::text)$$,
                  'the docs'' bridge, which inserts missing rows, reads no row as not archived');

-- The same bridge without insert_missing speaks for no group without a row.
select lifecycle.legacy_bridge_drop('legacy.namespace_settings');
select lifecycle.legacy_bridge_add('legacy.namespace_settings', 'namespace_id', 'archived', 'archived',
                                   namespace_types => array['organization', 'group'], actor_id => 42);
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900002::bigint, 'legacy.namespaces'::regclass, 'not archived'::text, 'archived'::text)$$,
                  'a bridge that speaks only for its rows: the table holding the group says it is not archived');

select * from finish();
rollback;
