begin;
select plan(4);

-- The seven-level tree with mixed own states of tests/helpers.sql.
select lifecycle_test.create_mixed_tree();

select lifecycle.effective_states_refresh();

select is(
  (select count(*) from lifecycle.effective_states),
  (select count(*) from lifecycle.namespaces),
  'after a rebuild the table has one row per namespace'
);
-- One set-based comparison: every column of every row, both directions (a row missing on either
-- side is a mismatch too).
select is(
  (with fn as (
     select e.* from lifecycle.namespaces n cross join lateral lifecycle.namespace_effective_state(n.id) e
   )
   select count(*)
     from fn
     full join lifecycle.effective_states v on v.namespace_id = fn.namespace_id
    where (fn.namespace_id, fn.state, fn.effective_state, fn.inherited_from_namespace_id,
           fn.self_or_ancestor_archived, fn.self_or_ancestor_deletion_scheduled, fn.read_only)
          is distinct from
          (v.namespace_id, v.state, v.effective_state, v.inherited_from_namespace_id,
           v.self_or_ancestor_archived, v.self_or_ancestor_deletion_scheduled, v.read_only)),
  0::bigint,
  'the table agrees with namespace_effective_state() on every column of every row'
);
select is(
  (select count(*) from lifecycle.effective_states v
    where v.full_path is distinct from lifecycle.namespace_full_path(v.namespace_id)),
  0::bigint,
  'the table''s full_path matches namespace_full_path() on every row'
);
select results_eq(
  format($$select effective_state, self_or_ancestor_archived, self_or_ancestor_deletion_scheduled, read_only,
                  full_path, inherited_from_namespace_id
             from lifecycle.effective_states where namespace_id = %s$$,
         lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent')),
  format($$values ('deletion_scheduled'::text, true, true, true, 'acme/eng/platform/infra/storage/backup/agent'::text, %s::bigint)$$,
         lifecycle_test.id_of('acme/eng/platform/infra/storage')),
  'the deepest project reads as expected from the table'
);

select * from finish();
rollback;
