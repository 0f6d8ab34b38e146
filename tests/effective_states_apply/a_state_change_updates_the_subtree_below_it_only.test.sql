begin;
select plan(5);

-- The seven-level tree with mixed own states of tests/helpers.sql, the table rebuilt from it.
select lifecycle_test.create_mixed_tree();
select lifecycle.effective_states_refresh();
create temp table before as select * from lifecycle.effective_states;

-- acme/eng is archived: everything below it reads archived (or keeps a nearer own state).
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/eng');
select is(
  (select effective_state from lifecycle.effective_states where namespace_id = lifecycle_test.id_of('acme/eng/tools')),
  'active',
  'before its fact is applied the table shows the old state'
);
select is(
  lifecycle_test.apply(array[lifecycle_test.fact_of('archived', lifecycle_test.id_of('acme/eng'),
                                                                 '{"from_state": "active", "to_state": "archived"}')]),
  2::bigint,
  'applying the fact writes only the rows that changed: acme/eng and acme/eng/tools (acme/eng/platform was archived already)'
);
select is((select count(*) from lifecycle.effective_states_verify()), 0::bigint, 'the table equals its definition');
select is(
  (select count(*) from lifecycle.effective_states e join pg_temp.before b using (namespace_id)
    where (e.*) is distinct from (b.*)
      and not (e.full_path = 'acme/eng' or e.full_path like 'acme/eng/%')),
  0::bigint,
  'no row outside the subtree was written'
);
-- A fact named by a transition but with no to_state (a hand-built one) is still a state change.
update lifecycle.namespaces set state = 0 where id = lifecycle_test.id_of('acme/eng');
select lifecycle_test.apply(array[lifecycle_test.fact_of('unarchived', lifecycle_test.id_of('acme/eng'))]);
select is((select count(*) from lifecycle.effective_states_verify()), 0::bigint,
          'an action a transition names is a state change without its details');

select * from finish();
rollback;
