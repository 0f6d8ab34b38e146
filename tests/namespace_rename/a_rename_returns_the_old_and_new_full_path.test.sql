begin;
select plan(4);

-- namespace_rename changes the path and returns (namespace_id, old_full_path, new_full_path,
-- changed = true); the namespace keeps its id and its descendants follow the new path.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
create table pg_temp.ids as
select lifecycle_test.id_of('acme/eng') as eng, lifecycle_test.id_of('acme/eng/site') as site;

select results_eq(
  format($$select * from lifecycle.namespace_rename(%s, 'engineering', null)$$, (select eng from pg_temp.ids)),
  format($$values (%s::bigint, 'acme/eng'::text, 'acme/engineering'::text, true)$$, (select eng from pg_temp.ids)),
  'renaming acme/eng to engineering returns its id, the old and the new full path, and changed'
);
select is(
  (select path from lifecycle.namespaces where id = (select eng from pg_temp.ids)),
  'engineering',
  'the stored path is the new one'
);
select is(
  lifecycle.namespace_full_path((select site from pg_temp.ids)),
  'acme/engineering/site',
  'a descendant''s full path follows the rename'
);
select is(
  lifecycle_test.id_of('acme/eng'),
  null,
  'nothing is at the old full path any more'
);

select * from finish();
rollback;
