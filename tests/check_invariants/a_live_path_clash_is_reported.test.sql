begin;
-- The unique index stops a clash on every write path, so it is dropped (in this transaction only).
-- First, before any other lock: tests running beside this one wait for it, never the other way.
drop index lifecycle.namespaces_live_path_key;
select plan(2);

select lifecycle_test.create_mixed_tree();
select is_empty('select * from lifecycle.check_invariants()', 'the tree starts consistent');

-- Without the index and with triggers off, a second live acme/ops can exist.
set local session_replication_role = replica;
insert into lifecycle.namespaces (parent_id, type, path, name, traversal_ids)
values (lifecycle_test.id_of('acme'), 'group', 'ops', 'ops 2', '{}');
update lifecycle.namespaces set traversal_ids = array[parent_id, id] where path = 'ops' and name = 'ops 2';
insert into lifecycle.namespace_details (namespace_id) select id from lifecycle.namespaces where name = 'ops 2';
set local session_replication_role = origin;

select results_eq(
  $$select count(*)::int from lifecycle.check_invariants() where invariant = 'live_path_clash'$$,
  $$values (2)$$,
  'both live siblings holding acme/ops are live_path_clash'
);

select * from finish();
rollback;
