begin;
select plan(2);

-- Only renames inside rename_window count: once the earlier renames are older than 30 days, the
-- namespace may be renamed again. (Time passing is simulated by dating the redirect rows back.)
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'p0');
select lifecycle.namespace_rename(p.id, 'p' || i, null)
  from (select lifecycle_test.id_of('acme/p0') as id) p, generate_series(1, 5) i;

select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'p6', null)$$, lifecycle_test.id_of('acme/p5')),
  'NS008', null,
  'five renames just now: the sixth is refused'
);
update lifecycle.namespace_redirects set created_at = now() - interval '31 days';
select lives_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'p6', null)$$, lifecycle_test.id_of('acme/p5')),
  'with the five renames 31 days old, the next one goes through'
);

select * from finish();
rollback;
