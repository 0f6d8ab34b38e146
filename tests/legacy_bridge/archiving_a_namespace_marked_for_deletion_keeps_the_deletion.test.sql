-- Archived beside a deletion is what the legacy data says of a namespace scheduled for deletion
-- that will return to archived: the archived flag turned on then changes what a restore returns
-- to, not the state; turned off, the restore returns to active.
begin;
select plan(6);
select lifecycle_test.create_gitlab_legacy();

update legacy.projects set marked_for_deletion_at = now(), marked_for_deletion_by_user_id = 1001 where id = 501;
update legacy.projects set archived = true where id = 501;
select results_eq(
  format($$select state::int, state_metadata ->> 'preserved_state'
             from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id where n.id = %s$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values (2, 'archived'::text)$$,
  'archiving a project marked for deletion keeps it scheduled, returning to archived');
select results_eq($$select archived, marked_for_deletion_at is not null from legacy.projects where id = 501$$,
                  $$values (true, true)$$, 'the legacy row keeps both');
select is((select count(*)::int from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/eng/site')), 1,
          'no change of state was recorded for the archive');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the legacy data and the states agree');

update legacy.projects set archived = false where id = 501;
select is((select state_metadata ->> 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/eng/site')),
          'ancestor_inherited', 'unarchiving it then makes the restore return to active');
update legacy.projects set archived = true where id = 501;
update legacy.projects set marked_for_deletion_at = null, marked_for_deletion_by_user_id = null where id = 501;
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/site')), 1,
          'archived again, then unmarked: restored to archived');

select * from finish();
rollback;
