begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'group', 'web');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/web'), 'project', 'site');

select is(
  (select traversal_ids from lifecycle.namespaces where id = lifecycle_test.id_of('acme')),
  array[lifecycle_test.id_of('acme')],
  'a root''s traversal_ids is itself'
);
select is(
  (select traversal_ids from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/web/site')),
  array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/eng'),
        lifecycle_test.id_of('acme/eng/web'), lifecycle_test.id_of('acme/eng/web/site')],
  'a project three levels down lists root, group, subgroup, self'
);

-- A value a client passes for traversal_ids on INSERT is ignored: the database computes it.
insert into lifecycle.namespaces (parent_id, type, path, name, traversal_ids)
values (lifecycle_test.id_of('acme/eng'), 'project', 'api', 'api', array[42, 43]);
select is(
  (select traversal_ids from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/api')),
  array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/eng/api')],
  'traversal_ids given on INSERT is replaced by the computed path'
);

select is(
  (select count(*) from lifecycle.namespaces n
    where n.parent_id is not null
      and n.traversal_ids <> (select p.traversal_ids from lifecycle.namespaces p where p.id = n.parent_id) || n.id),
  0::bigint,
  'every child''s traversal_ids is its parent''s plus its own id'
);

select * from finish();
rollback;
