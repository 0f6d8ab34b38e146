-- Several bridges for one state combine (docs/design.md §10): the legacy data says a namespace is
-- in the state when any of its bridges says so. Projects are scheduled for deletion through
-- projects.marked_for_deletion_at, groups through group_deletion_schedules (an existence bridge
-- of groups and organizations): a project without a schedule row is not "not scheduled", and a
-- group has no projects row to say anything.
begin;
select plan(4);
select lifecycle_test.create_gitlab_legacy();

update legacy.projects set marked_for_deletion_at = now(), marked_for_deletion_by_user_id = 1001 where id = 501;
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/site')), 2,
          'the project is scheduled through its column');
select is_empty($$select * from legacy.group_deletion_schedules$$,
                'the existence bridge of groups writes no row for the project');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'and the check finds them in agreement');
insert into legacy.group_deletion_schedules values (lifecycle_test.id_of('acme/eng'), current_date, 1001);
select results_eq(
  $$select id, state::int from lifecycle.namespaces where path in ('eng', 'site', 'docs') order by id$$,
  format($$values (%s::bigint, 2), (%s, 2), (%s, 0)$$, lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/eng/site'),
         lifecycle_test.id_of('acme/eng/docs')),
  'the group is scheduled through its row');

select * from finish();
rollback;
