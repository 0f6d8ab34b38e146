-- A flag or column bridge speaks for a namespace through its row; with the row gone (a legacy
-- hard delete deletes it) the bridge says nothing, and the state stays: a legacy delete neither
-- unarchives nor is refused. An existence bridge's row gone is its condition turned off.
begin;
select plan(4);
select lifecycle_test.create_gitlab_legacy();

update legacy.projects set archived = true where id = 501;
delete from legacy.projects where id = 501;
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/site')), 1,
          'deleting the archived project''s legacy row leaves it archived');

update legacy.projects set marked_for_deletion_at = now(), marked_for_deletion_by_user_id = 1001 where id = 502;
update legacy.projects set pending_delete = true where id = 502;
select lives_ok($$delete from legacy.projects where id = 502$$,
                'the legacy row of a project being deleted can be deleted (the legacy hard delete)');
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/docs')), 4,
          'and its deletion stays in progress');

insert into legacy.group_deletion_schedules (group_id, marked_for_deletion_on, user_id) values (lifecycle_test.id_of('acme/eng'), current_date, 1001);
delete from legacy.group_deletion_schedules where group_id = lifecycle_test.id_of('acme/eng');
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng')), 0,
          'deleting an existence bridge''s row restores the group');

select * from finish();
rollback;
