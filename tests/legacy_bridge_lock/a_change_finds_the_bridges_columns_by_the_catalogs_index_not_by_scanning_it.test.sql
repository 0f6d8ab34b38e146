-- While legacy bridges exist every change takes their rows first (step 0.5 of the lock order,
-- legacy_bridge_lock) and, into a state of its own, asks whether a tree bridge's table holds the
-- namespace (legacy_tree_holds). Both find each bridge's column in pg_attribute by its index: the
-- joins they had, planned once for the session, hashed the whole of pg_attribute at every change
-- (migration 062: an API transition with GitLab's bridges cost 14.99 M instructions, 4.45 M
-- since). Counted here as the sequential scans of pg_attribute this transaction started
-- (pg_stat_xact_sys_tables) over twenty changes of a group GitLab's bridges speak for, after
-- eight that let PL/pgSQL settle on its generic plans.
begin;
select plan(2);
select lifecycle_test.create_gitlab_tables();
update legacy.namespace_settings set archived = false where namespace_id = 900002;

create function pg_temp.toggle(n int) returns void language plpgsql as $$
begin
  for i in 1 .. n loop
    perform lifecycle.namespace_event(900002, case when i % 2 = 1 then 'archive' else 'unarchive' end, 42);
  end loop;
end
$$;
select pg_temp.toggle(8);
select seq_scan as before from pg_catalog.pg_stat_xact_sys_tables where relid = 'pg_catalog.pg_attribute'::regclass \gset
select pg_temp.toggle(20);
select is((select seq_scan from pg_catalog.pg_stat_xact_sys_tables where relid = 'pg_catalog.pg_attribute'::regclass) - :before,
          0::bigint, 'twenty changes through the bridges scan pg_attribute not once');
select is((select lifecycle.state_name(state) from lifecycle.namespaces where id = 900002), 'ancestor_inherited',
          'the changes were made (ten archives, ten unarchives)');
select * from finish();
rollback;
