begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'ops');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'group', 'web');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/web'), 'group', 'frontend');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/web/frontend'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'api');

-- Moves happen only while transfer_in_progress (a transfer's move does exactly this UPDATE).
update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/eng/web');
update lifecycle.namespaces set parent_id = lifecycle_test.id_of('acme/ops')
 where id = lifecycle_test.id_of('acme/eng/web');

select is(
  (select traversal_ids from lifecycle.namespaces where id = lifecycle_test.id_of('acme/ops/web/frontend/site')),
  array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/ops'), lifecycle_test.id_of('acme/ops/web'),
        lifecycle_test.id_of('acme/ops/web/frontend'), lifecycle_test.id_of('acme/ops/web/frontend/site')],
  'a great-grandchild of the moved group takes the new prefix'
);
select is(
  (select traversal_ids from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/api')),
  array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/eng/api')],
  'a sibling of the moved group keeps its path'
);
select is(
  (select count(*) from lifecycle.namespaces n
    where n.parent_id is not null
      and n.traversal_ids <> (select p.traversal_ids from lifecycle.namespaces p where p.id = n.parent_id) || n.id),
  0::bigint,
  'after the move every child''s traversal_ids is its parent''s plus its own id'
);

select * from finish();
rollback;
