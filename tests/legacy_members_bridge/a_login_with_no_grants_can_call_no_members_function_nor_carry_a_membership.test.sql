-- The members bridge's functions are the schema owner's (add, drop, the definition the import
-- reads, the triggers both ways) and the workers' (the check): a login with no grants may call none of them (42501). A
-- membership GitLab's table carries has the writer's authority, no more: a role that may write
-- GitLab's members but not lifecycle.namespace_members is refused NS005, and nothing changes.
begin;
select plan(9);
select lifecycle_test.create_gitlab_tables();
select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
create role lifecycle_test_nogrants;
grant usage on schema legacy to lifecycle_test_nogrants;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_test_nogrants;
grant usage on all sequences in schema legacy to lifecycle_test_nogrants;

-- (The role may not even call pgTAP: each outcome is kept in a setting, read after reset role.)
set local role lifecycle_test_nogrants;
do $$
declare
  stmt text;
  outcomes text := '';
begin
  foreach stmt in array array[
    $s$select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group'])$s$,
    $s$select lifecycle.legacy_members_bridge_drop('legacy.members')$s$,
    $s$select * from lifecycle.legacy_members('legacy.members', 'legacy.projects')$s$,
    $s$select * from lifecycle.legacy_members_check()$s$,
    $s$select * from lifecycle.legacy_bridge_check()$s$,
    $s$select lifecycle.legacy_members_source()$s$,
    $s$select lifecycle.legacy_members_state()$s$,
    $s$insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
       values (30, 900002, 'Namespace', 7, 3, 900002)$s$] loop
    begin
      execute stmt;
      outcomes := outcomes || 'allowed,';
    exception when others then
      outcomes := outcomes || sqlstate || ',';
    end;
  end loop;
  perform set_config('lifecycle_test.outcomes', outcomes, true);
end
$$;
reset role;
select is(split_part(current_setting('lifecycle_test.outcomes'), ',', 1), '42501', 'legacy_members_bridge_add: 42501');
select is(split_part(current_setting('lifecycle_test.outcomes'), ',', 2), '42501', 'legacy_members_bridge_drop: 42501');
select is(split_part(current_setting('lifecycle_test.outcomes'), ',', 3), '42501', 'legacy_members: 42501');
select is(split_part(current_setting('lifecycle_test.outcomes'), ',', 4), '42501', 'legacy_members_check: 42501');
select is(split_part(current_setting('lifecycle_test.outcomes'), ',', 5), '42501', 'legacy_bridge_check: 42501');
select is(split_part(current_setting('lifecycle_test.outcomes'), ',', 6), '42501', 'the trigger function: 42501');
select is(split_part(current_setting('lifecycle_test.outcomes'), ',', 7), '42501', 'the write-back''s trigger function: 42501');
select is(split_part(current_setting('lifecycle_test.outcomes'), ',', 8), 'NS005',
          'a GitLab write that makes a membership, by a role that may not write memberships: NS005');
select is((select count(*) from lifecycle.namespace_members where user_id = 7), 0::bigint, 'and no membership');
select * from finish();
rollback;
