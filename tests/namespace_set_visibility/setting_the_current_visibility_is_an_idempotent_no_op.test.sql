begin;
select plan(4);

-- namespace_set_visibility returns (namespace_id, visibility, changed): changed = true when the
-- value changed, false when the namespace already had it (and then nothing is written).
select lifecycle_test.create_namespace(null, 'organization', 'acme');
update lifecycle.namespaces set updated_at = now() - interval '1 day' where id = lifecycle_test.id_of('acme');

select results_eq(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'private', null)$$, lifecycle_test.id_of('acme')),
  format($$values (%s::bigint, 'private'::text, false)$$, lifecycle_test.id_of('acme')),
  'setting private on a private namespace returns changed = false'
);
select is(
  (select updated_at from lifecycle.namespaces where id = lifecycle_test.id_of('acme')),
  now() - interval '1 day',
  'the no-op did not touch the row'
);
select results_eq(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'public', null)$$, lifecycle_test.id_of('acme')),
  format($$values (%s::bigint, 'public'::text, true)$$, lifecycle_test.id_of('acme')),
  'setting public returns changed = true'
);
select results_eq(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'public', null)$$, lifecycle_test.id_of('acme')),
  format($$values (%s::bigint, 'public'::text, false)$$, lifecycle_test.id_of('acme')),
  'setting public again returns changed = false'
);

select * from finish();
rollback;
