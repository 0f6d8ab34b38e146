begin;
select plan(5);

-- Delete now = deletion_scheduled → deletion_in_progress before the grace period ends. An owner
-- may, while lifecycle.settings.delete_now_allowed is true (the default); with it false a user is
-- refused with NS005, and the system (the sweeper, after the grace period) still may.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'shop');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);
select lifecycle.namespace_event(lifecycle_test.id_of(p), 'schedule_deletion', 1001)
  from unnest(array['acme/site', 'acme/shop']) p;

select is((select delete_now_allowed from lifecycle.settings), true, 'delete now is allowed by default');
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'deletion_start', 1001)$$,
         lifecycle_test.id_of('acme/site')),
  $$values ('deletion_scheduled'::text, 'deletion_in_progress'::text, true)$$,
  'an owner may delete a scheduled namespace now'
);

update lifecycle.settings set delete_now_allowed = false;
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'deletion_start', 1001)$$, lifecycle_test.id_of('acme/shop')),
  'NS005', 'deleting before the grace period ends is disabled',
  'with delete_now_allowed false, the owner is refused'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/shop')),
  2::smallint,
  'the namespace stays deletion_scheduled'
);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_transition(%s, 'deletion_in_progress', null)$$,
         lifecycle_test.id_of('acme/shop')),
  $$values ('deletion_scheduled'::text, 'deletion_in_progress'::text, true)$$,
  'the system may still start the deletion'
);

select * from finish();
rollback;
