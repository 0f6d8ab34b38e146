begin;
select plan(4);

-- The seven-level tree with mixed own states of tests/helpers.sql.
select lifecycle_test.create_mixed_tree();
grant usage on schema tap, lifecycle_test to lifecycle_app;

-- As the application calls it: a plain SQL function, its caller's SELECT on the tables.
set local role lifecycle_app;
select is(
  (select count(*)
     from lifecycle.namespaces r
    cross join lateral lifecycle.namespace_effective_states_below(r.id) b
     left join lateral lifecycle.namespace_effective_state(b.namespace_id) f on true
    where (b.namespace_id, b.state, b.effective_state, b.inherited_from_namespace_id, b.self_or_ancestor_archived,
           b.self_or_ancestor_deletion_scheduled, b.read_only, b.full_path)
          is distinct from
          (f.namespace_id, f.state, f.effective_state, f.inherited_from_namespace_id, f.self_or_ancestor_archived,
           f.self_or_ancestor_deletion_scheduled, f.read_only, lifecycle.namespace_full_path(f.namespace_id))),
  0::bigint,
  'from every namespace, every row below agrees with namespace_effective_state and namespace_full_path'
);
select is(
  (select count(*) from lifecycle.namespace_effective_states_below(lifecycle_test.id_of('acme'))),
  (select count(*) from lifecycle.namespaces where traversal_ids[1] = lifecycle_test.id_of('acme')),
  'the subtree of acme: every namespace below it and itself, once'
);
select results_eq(
  $$select full_path, effective_state, inherited_from_namespace_id, read_only
      from lifecycle.namespace_effective_states_below(lifecycle_test.id_of('acme/eng/platform/infra/storage/backup'))
     order by full_path$$,
  format($$values ('acme/eng/platform/infra/storage/backup'::text, 'deletion_scheduled'::text, %1$s::bigint, true),
                  ('acme/eng/platform/infra/storage/backup/agent', 'deletion_scheduled', %1$s, true)$$,
         lifecycle_test.id_of('acme/eng/platform/infra/storage')),
  'a subtree deep down takes its context from its ancestors'
);
select is((select count(*) from lifecycle.namespace_effective_states_below(-1)), 0::bigint, 'no namespace: no rows');
reset role;

select * from finish();
rollback;
