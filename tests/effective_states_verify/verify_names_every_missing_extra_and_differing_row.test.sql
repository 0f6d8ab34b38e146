begin;
select plan(2);

select lifecycle_test.create_mixed_tree();
select lifecycle.effective_states_refresh();
select is((select count(*) from lifecycle.effective_states_verify()), 0::bigint, 'after a rebuild verify is empty');
delete from lifecycle.effective_states where namespace_id = lifecycle_test.id_of('alice');
insert into lifecycle.effective_states values (-1, 'active', 'active', null, false, false, false, 'nowhere');
update lifecycle.effective_states set read_only = not read_only where namespace_id = lifecycle_test.id_of('beta/site');
select set_eq(
  $$select namespace_id, split_part(problem, ' ', 1) from lifecycle.effective_states_verify()$$,
  format($$values (-1::bigint, 'extra:'::text), (%s, 'missing'), (%s, 'kept')$$,
         lifecycle_test.id_of('alice'), lifecycle_test.id_of('beta/site')),
  'a missing, an extra and a differing row are each named, by namespace id'
);

select * from finish();
rollback;
