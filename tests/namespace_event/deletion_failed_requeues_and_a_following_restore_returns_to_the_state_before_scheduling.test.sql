begin;
select plan(6);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'old');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'plain');

-- From archived.
select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'archive', null);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'schedule_deletion', null);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'deletion_start', null);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'deletion_failed', null)$$,
         lifecycle_test.id_of('acme/old')),
  $$values ('deletion_in_progress'::text, 'deletion_scheduled'::text, true)$$,
  'deletion_failed after deletion_start returns an archived-then-scheduled project to deletion_scheduled'
);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'restore', null)$$,
         lifecycle_test.id_of('acme/old')),
  $$values ('deletion_scheduled'::text, 'archived'::text, true)$$,
  'a following restore returns it to archived, the state before scheduling'
);

-- From active.
select lifecycle.namespace_event(lifecycle_test.id_of('acme/plain'), 'schedule_deletion', null);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/plain'), 'deletion_start', null);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'deletion_failed', null)$$,
         lifecycle_test.id_of('acme/plain')),
  $$values ('deletion_in_progress'::text, 'deletion_scheduled'::text, true)$$,
  'deletion_failed after deletion_start returns an active-then-scheduled project to deletion_scheduled'
);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'restore', null)$$,
         lifecycle_test.id_of('acme/plain')),
  $$values ('deletion_scheduled'::text, 'ancestor_inherited'::text, true)$$,
  'a following restore returns it to active'
);

-- A second failed run: the retry loop goes through deletion_scheduled again, preserved_state survives it.
select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'schedule_deletion', null);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'deletion_start', null);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'deletion_failed', null);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'deletion_start', null);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'deletion_failed', null);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/old')),
  2::smallint,
  'after two failed runs the project is deletion_scheduled'
);
select is(
  (select to_state from lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'restore', null)),
  'archived',
  'and restore still returns it to archived'
);

select * from finish();
rollback;
