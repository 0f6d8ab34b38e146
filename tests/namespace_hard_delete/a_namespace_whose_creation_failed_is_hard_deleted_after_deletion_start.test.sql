begin;
select plan(4);

-- A fatal creation failure: creation_in_progress → deletion_in_progress (deletion_start), then
-- the hard delete removes it.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_in_state(lifecycle_test.id_of('acme'), 'proto', 'creation_in_progress');
create temp table proto as select id, traversal_ids from lifecycle.namespaces where id = lifecycle_test.id_of('acme/proto');

select results_eq(
  $$select from_state, to_state, changed from lifecycle.namespace_event((select id from pg_temp.proto), 'deletion_start', null)$$,
  $$values ('creation_in_progress'::text, 'deletion_in_progress'::text, true)$$,
  'deletion_start takes the failed creation to deletion_in_progress'
);
select results_eq(
  $$select * from lifecycle.namespace_hard_delete((select id from pg_temp.proto))$$,
  $$values (1::bigint, 0::bigint, true)$$,
  'one call removes it and is done'
);
select is(
  (select count(*)::int from lifecycle.namespaces where id = (select id from pg_temp.proto)),
  0,
  'the row is gone'
);
select results_eq(
  $$select namespace_id, full_path, type, traversal_ids, deletion_scheduled_by, deletion_scheduled_at, descendant_count
      from lifecycle.deleted_namespaces$$,
  $$select id, 'acme/proto'::text, 'project'::text, traversal_ids, null::bigint, null::timestamptz, 0::bigint from pg_temp.proto$$,
  'the snapshot records it, never scheduled, with no descendants'
);

select * from finish();
rollback;
