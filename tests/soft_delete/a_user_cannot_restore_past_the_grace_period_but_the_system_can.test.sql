begin;
select plan(6);

-- docs/design.md §5: restore fails with NS007 past the grace period (deletion_adjourned_period_days, 7 by
-- default) for a user; the system (actor null: the sweeper restoring a namespace whose scheduler
-- lost the right to delete it) may still restore. Time passing is simulated by dating
-- deletion_scheduled_at back.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'shop');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);
select lifecycle.namespace_event(lifecycle_test.id_of(p), 'schedule_deletion', 1001)
  from unnest(array['acme/site', 'acme/shop']) p;
update lifecycle.namespaces set deletion_scheduled_at = now() - interval '8 days'
 where id = lifecycle_test.id_of('acme/site');
update lifecycle.namespaces set deletion_scheduled_at = now() - interval '6 days'
 where id = lifecycle_test.id_of('acme/shop');

select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'restore', 1001)$$, lifecycle_test.id_of('acme/site')),
  'NS007', 'the grace period for restoring this namespace is over',
  'an owner may not restore a namespace scheduled 8 days ago'
);
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', 1001)$$, lifecycle_test.id_of('acme/site')),
  'NS007', 'the grace period for restoring this namespace is over',
  'nor take it to archived'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/site')),
  2::smallint,
  'it stays deletion_scheduled'
);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'restore', null)$$,
         lifecycle_test.id_of('acme/site')),
  $$values ('deletion_scheduled'::text, 'ancestor_inherited'::text, true)$$,
  'the system may restore it past the grace period'
);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'restore', 1001)$$,
         lifecycle_test.id_of('acme/shop')),
  $$values ('deletion_scheduled'::text, 'ancestor_inherited'::text, true)$$,
  'an owner may restore a namespace scheduled 6 days ago, within the grace period'
);
select lives_ok(
  format($$select * from lifecycle.namespace_event(%s, 'schedule_deletion', 1001)$$, lifecycle_test.id_of('acme/site')),
  'the namespace restored by the system can be scheduled again'
);

select * from finish();
rollback;
