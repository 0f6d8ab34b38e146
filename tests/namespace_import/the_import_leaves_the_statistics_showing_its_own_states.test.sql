-- The import's last step analyzes lifecycle.namespaces: with statistics from before the import,
-- the planner takes the partial indexes of own states for empty, and a transition's descendant
-- guard read every namespace with a state on every call (namespace_import_finish).
begin;
-- One import test at a time (see the other import tests).
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(2);

-- Statistics as they were before an import: no own state anywhere.
update pg_catalog.pg_class set reltuples = 0
 where oid in ('lifecycle.namespaces_own_state_idx'::regclass, 'lifecycle.namespaces_stateful_idx'::regclass);
insert into lifecycle.namespace_imports (id, parent_id, type, path, name, state)
select 9100, null, 'organization', 'stats', 'Stats', 'active'
union all
select 9100 + g, 9100, 'project', 'p' || g, 'P' || g, 'archived' from generate_series(1, 40) g;
grant usage on schema tap to lifecycle_worker;

set local role lifecycle_worker;
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (41::bigint, 0::bigint)$$, 'imported');
reset role;
select cmp_ok((select c.reltuples from pg_catalog.pg_class c where c.oid = 'lifecycle.namespaces_own_state_idx'::regclass),
              '>=', 40::real, 'the statistics count the 40 archived projects it imported');

select * from finish();
rollback;
