-- Where GitLab has two membership rows for one namespace and user, the higher level wins (as the
-- import: lifecycle.legacy_members): removing or lowering the lower one changes nothing, removing
-- the higher one leaves the lower one's level, removing both removes the membership.
begin;
select plan(4);
select lifecycle_test.create_gitlab_tables();
select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
insert into legacy.members (id, access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
values (1, 30, 900002, 'Namespace', 7, 3, 900002), (2, 40, 900002, 'Namespace', 7, 3, 900002);
select is((select access_level::int from lifecycle.namespace_members where namespace_id = 900002 and user_id = 7), 40, 'the higher level');
update legacy.members set access_level = 20 where id = 1;
select is((select access_level::int from lifecycle.namespace_members where namespace_id = 900002 and user_id = 7), 40,
          'the lower row changed: still the higher level');
delete from legacy.members where id = 2;
select is((select access_level::int from lifecycle.namespace_members where namespace_id = 900002 and user_id = 7), 20,
          'the higher row removed: the other row''s level');
delete from legacy.members where id = 1;
select is((select count(*) from lifecycle.namespace_members where namespace_id = 900002 and user_id = 7), 0::bigint,
          'both removed: no membership');
select * from finish();
rollback;
