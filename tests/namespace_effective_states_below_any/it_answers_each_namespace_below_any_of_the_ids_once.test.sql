begin;
select plan(4);

-- The seven-level tree with mixed own states of tests/helpers.sql.
select lifecycle_test.create_mixed_tree();
grant usage on schema tap, lifecycle_test to lifecycle_app;

-- As the application calls it: a plain SQL function, its caller's SELECT on the tables.
set local role lifecycle_app;
-- Every namespace twice, in reverse order, with ids of no namespace and a null: each namespace of
-- the tree once, as namespace_effective_state and namespace_full_path answer for it.
select is(
  (select count(*)
     from lifecycle.namespace_effective_states_below_any(
            array(select n.id from lifecycle.namespaces n, generate_series(1, 2) order by n.id desc) || array[-1, null]::bigint[]) b
     full join lifecycle.namespaces n on n.id = b.namespace_id
     left join lateral lifecycle.namespace_effective_state(n.id) f on true
    where (b.namespace_id, b.state, b.effective_state, b.inherited_from_namespace_id, b.self_or_ancestor_archived,
           b.self_or_ancestor_deletion_scheduled, b.read_only, b.full_path)
          is distinct from
          (f.namespace_id, f.state, f.effective_state, f.inherited_from_namespace_id, f.self_or_ancestor_archived,
           f.self_or_ancestor_deletion_scheduled, f.read_only, lifecycle.namespace_full_path(f.namespace_id))),
  0::bigint,
  'from every namespace at once, each namespace once and as namespace_effective_state answers'
);
-- Ids one below another, and apart: the union of their subtrees, each namespace once.
select results_eq(
  $$select full_path from lifecycle.namespace_effective_states_below_any(array[
      lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent'),
      lifecycle_test.id_of('acme/eng/platform/infra/storage'),
      lifecycle_test.id_of('acme/eng/platform/infra/storage/backup')]) order by 1$$,
  $$select lifecycle.namespace_full_path(n.id) from lifecycle.namespaces n
     where n.traversal_ids @> array[lifecycle_test.id_of('acme/eng/platform/infra/storage')] order by 1$$,
  'ids below another id add nothing: the subtree of the highest, once'
);
select results_eq(
  $$select b.full_path, b.effective_state, b.read_only
      from lifecycle.namespace_effective_states_below_any(array[
             lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent'), lifecycle_test.id_of('acme')]) b
     where b.full_path = 'acme/eng/platform/infra/storage/backup/agent'$$,
  $$select full_path, effective_state, read_only
      from lifecycle.namespace_effective_states_below(lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent'))$$,
  'a namespace below another id answers as from its own walk'
);
select is((select count(*) from lifecycle.namespace_effective_states_below_any(array[-1, null]::bigint[])), 0::bigint,
          'no namespace: no rows');
reset role;

select * from finish();
rollback;
