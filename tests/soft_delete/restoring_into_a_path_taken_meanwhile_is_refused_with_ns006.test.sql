begin;
select plan(6);

-- docs/design.md §5: a namespace scheduled for deletion frees its path, and a restore fails with NS006 if a
-- live sibling took it meanwhile. The namespace stays scheduled, with its stamp, and can be
-- restored under its id once the path is free again.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);
create table pg_temp.ids as select lifecycle_test.id_of('acme/site') as old_site, null::bigint as new_site;

select lifecycle.namespace_event((select old_site from pg_temp.ids), 'schedule_deletion', 1001);
update pg_temp.ids set new_site = lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');

select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'restore', 1001)$$, (select old_site from pg_temp.ids)),
  'NS006', 'path acme/site was taken while the namespace was scheduled for deletion',
  'restoring acme/site after a new acme/site was created is refused'
);
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', 1001)$$, (select old_site from pg_temp.ids)),
  'NS006', null,
  'so is taking it to archived, which makes the path live again as well'
);
select results_eq(
  format($$select state, deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         (select old_site from pg_temp.ids)),
  $$values (2::smallint, now(), 1001::bigint)$$,
  'the namespace stays deletion_scheduled with its stamp'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates where namespace_id = (select old_site from pg_temp.ids)),
  1::bigint,
  'the refused restores wrote no history'
);

-- Free the path: the new project moves aside.
select lifecycle.namespace_rename((select new_site from pg_temp.ids), 'site-new', 1001);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'restore', 1001)$$,
         (select old_site from pg_temp.ids)),
  $$values ('deletion_scheduled'::text, 'ancestor_inherited'::text, true)$$,
  'with the path free again, the restore by id goes through'
);
select is(
  lifecycle.namespace_full_path((select old_site from pg_temp.ids)),
  'acme/site',
  'the restored namespace is back at acme/site'
);

select * from finish();
rollback;
