begin;
select plan(4);

select lifecycle_test.create_mixed_tree();
select lifecycle.effective_states_refresh();
-- Rows the facts cannot account for: a namespace written with the fact triggers off, a row for
-- no namespace.
insert into lifecycle.effective_states values (-1, 'active', 'active', null, false, false, false, 'nowhere');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('beta');

select is(lifecycle_test.apply(array['{"action": "visibility_changed", "namespace_id": 1}'::jsonb]), 0::bigint,
          'a fact that changes no effective state writes nothing');
select is((select count(*) from lifecycle.effective_states_verify()), 3::bigint,
          'verify reports what the facts left: the extra row and beta''s two');
select is(
  lifecycle_test.apply(array['{"action": "table_truncated", "details": {"tables": ["lifecycle.namespaces"]}}'::jsonb]),
  -1::bigint,
  'a TRUNCATE of the tree rebuilds the table whole (-1)'
);
delete from lifecycle.effective_states where namespace_id = lifecycle_test.id_of('alice');
select lifecycle_test.apply(array['{"action": "namespaces_imported", "details": {"backfill": true, "imported": 2}}'::jsonb]);
select is((select count(*) from lifecycle.effective_states_verify()), 0::bigint, 'so does a backfill');

select * from finish();
rollback;
