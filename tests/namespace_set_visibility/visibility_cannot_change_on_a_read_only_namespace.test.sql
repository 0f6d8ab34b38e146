begin;
select plan(4);

-- Changing visibility needs the namespace writable: its own read-only state (archived) is NS001,
-- an archived ancestor's is NS002.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle.namespace_set_visibility(lifecycle_test.id_of('acme'), 'public', null);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/eng'), 'archived', null);

select throws_ok(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'internal', null)$$, lifecycle_test.id_of('acme/eng')),
  'NS001', 'cannot change the visibility of a namespace that is archived',
  'an archived group cannot change its visibility'
);
select throws_ok(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'internal', null)$$, lifecycle_test.id_of('acme/eng/site')),
  'NS002', 'cannot change the visibility of a namespace below acme/eng, which is archived',
  'a project below an archived group cannot change its visibility'
);
select results_eq(
  $$select path, visibility from lifecycle.namespaces where path in ('eng', 'site') order by path$$,
  $$values ('eng'::text, 'private'::text), ('site'::text, 'private'::text)$$,
  'the refused calls changed nothing'
);
select results_eq(
  format($$select visibility, changed from lifecycle.namespace_set_visibility(%s, 'private', null)$$,
         lifecycle_test.id_of('acme/eng')),
  $$values ('private'::text, false)$$,
  'setting the visibility an archived group already has is still a no-op'
);

select * from finish();
rollback;
