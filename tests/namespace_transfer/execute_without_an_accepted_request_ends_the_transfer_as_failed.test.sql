begin;
select plan(3);

-- A namespace put into transfer_in_progress without a request (raw UPDATE as the system): nothing
-- says where to, so execute ends the transfer (transfer_done) with last_error and reports failed
-- (namespace_transfer_execute's comment and code path "Moving with no accepted request").
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/src/team');

-- The outcome is collected through lives_ok, so an error is reported as a failed test, not an abort.
create temp table outcome (outcome text, old_full_path text, new_full_path text);

select lives_ok(
  $$insert into pg_temp.outcome select * from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'))$$,
  'execute of a transfer with no accepted request does not raise'
);
select results_eq(
  $$select outcome, old_full_path, new_full_path from pg_temp.outcome$$,
  $$values ('failed'::text, 'acme/src/team'::text, null::text)$$,
  'execute reports failed'
);
select results_eq(
  $$select parent_id, state::int, state_metadata ->> 'last_error'
      from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id
     where n.id = lifecycle_test.id_of('acme/src/team')$$,
  $$select lifecycle_test.id_of('acme/src'), 0, 'no accepted transfer request'::text$$,
  'the namespace is back to active where it was, with last_error'
);

select * from finish();
rollback;
