-- The partial indexes of lifecycle.namespaces ask the named predicates, and the statements that
-- ask the same predicates are planned on them: PostgreSQL inlines both, the index's when it loads
-- it. namespaces_stateful_idx (the effective state's) asks state_sets_effective, which neither
-- implies nor is implied by state_is_own, so the descendant guard is never planned on it (028).
begin;
select plan(8);

select results_eq(
  $$select i.indexrelid::regclass::text, pg_catalog.pg_get_expr(i.indpred, i.indrelid) collate "default"
      from pg_index i
     where i.indrelid = 'lifecycle.namespaces'::regclass and pg_catalog.pg_get_expr(i.indpred, i.indrelid) like '%state%'
     order by 1$$,
  $$values ('lifecycle.namespaces_deletion_scheduled_idx'::text, 'lifecycle.state_deletion_adjourned(state)'::text),
           ('lifecycle.namespaces_live_path_key', 'lifecycle.state_path_live(state)'),
           ('lifecycle.namespaces_own_state_idx', 'lifecycle.state_is_own(state)'),
           ('lifecycle.namespaces_stateful_idx', 'lifecycle.state_sets_effective(state)')$$,
  'every partial index on state asks a named predicate');

select lifecycle_test.create_mixed_tree();
-- A plain tree beside it, so that an index read is what a plan would choose.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'plain'), 'group', 'g');
insert into lifecycle.namespaces (parent_id, type, path, name)
  select lifecycle_test.id_of('plain/g'), 'project', 'p' || g, 'p' || g from generate_series(1, 2000) g;
analyze lifecycle.namespaces;
set local enable_seqscan to off;
set local enable_bitmapscan to off;

create function pg_temp.plan_of(q text) returns text language plpgsql as $$
declare line text; plan text := '';
begin
  for line in execute 'explain (costs off) ' || q loop plan := plan || line || e'\n'; end loop;
  return plan;
end $$;

select matches(pg_temp.plan_of(format(
  $$select y.id from lifecycle.namespaces y
     where lifecycle.state_is_own(y.state) and y.state = any ('{3,5}'::smallint[])
       and y.traversal_ids > %L and y.traversal_ids < %L$$,
  array[lifecycle_test.id_of('plain')], array[lifecycle_test.id_of('plain') + 1])),
  'Index Scan using namespaces_own_state_idx', 'the descendant guard reads namespaces_own_state_idx');
select matches(pg_temp.plan_of(format('select * from lifecycle.namespace_effective_state(%s)',
                                      lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent'))),
  'Index Only Scan using namespaces_stateful_idx', 'the effective state reads namespaces_stateful_idx, index only');
select diag('DIAG plan default: ' || pg_temp.plan_of(format('select * from lifecycle.namespace_effective_state(%s)', lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent'))));
create function pg_temp.plan_costs(q text) returns text language plpgsql as $f$
declare line text; plan text := '';
begin
  for line in execute 'explain ' || q loop plan := plan || line || e'\n'; end loop;
  return plan;
end $f$;
select diag('DIAG plan costs: ' || pg_temp.plan_costs(format('select * from lifecycle.namespace_effective_state(%s)', lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent'))));
set local enable_indexscan to off;
select diag('DIAG plan noindexscan: ' || pg_temp.plan_of(format('select * from lifecycle.namespace_effective_state(%s)', lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent'))));
set local enable_indexscan to on;
select diag('DIAG stats: ' || (select string_agg(c.relname || ' pages=' || c.relpages || ' tuples=' || c.reltuples || ' allvis=' || c.relallvisible, '; ') from pg_class c where c.relname in ('namespaces', 'namespaces_pkey', 'namespaces_stateful_idx')));
select matches(pg_temp.plan_of(format(
  $$select n.id from lifecycle.namespaces n
     where coalesce(n.parent_id, 0) = %s and n.path = 'p7' and lifecycle.state_path_live(n.state)$$,
  lifecycle_test.id_of('plain/g'))),
  'Index Scan using namespaces_live_path_key', 'a live sibling''s path is read from namespaces_live_path_key');
-- A statement not yet converted (namespace_resolve, the import) says state <> 2 and state <> 4,
-- which implies the predicate's inlined state <> all ('{2,4}').
select matches(pg_temp.plan_of(format(
  $$select n.id from lifecycle.namespaces n
     where coalesce(n.parent_id, 0) = %s and n.path = 'p7' and n.state <> 2 and n.state <> 4$$,
  lifecycle_test.id_of('plain/g'))),
  'Index Scan using namespaces_live_path_key', 'and so is it for the literal form the index replaced');
select matches(pg_temp.plan_of(
  $$select n.id from lifecycle.namespaces n
     where lifecycle.state_deletion_adjourned(n.state) and n.deletion_scheduled_at < now()
     order by n.deletion_scheduled_at limit 10$$),
  'namespaces_deletion_scheduled_idx', 'the sweep''s due deletions are read from namespaces_deletion_scheduled_idx');

-- The guard's statement never takes the effective state's index: on a table with that index
-- alone (namespaces itself is left alone: dropping its index would wait for the other tests),
-- the planner, told to avoid a scan, still has no index for state_is_own.
create temp table shadow as select id, state, traversal_ids from lifecycle.namespaces;
create index on pg_temp.shadow (id) include (state) where lifecycle.state_sets_effective(state);
analyze pg_temp.shadow;
select doesnt_match(pg_temp.plan_of(
  $$select y.id from pg_temp.shadow y where lifecycle.state_is_own(y.state) and y.state = any ('{3,5}'::smallint[])$$),
  'Index', 'the guard''s predicate does not imply the effective state''s index''s');
select matches(pg_temp.plan_of(
  $$select y.id from pg_temp.shadow y where y.id = any ('{1,2,3}') and lifecycle.state_sets_effective(y.state)$$),
  'Index Only Scan', 'while the effective state''s own predicate does');

select * from finish();
rollback;
