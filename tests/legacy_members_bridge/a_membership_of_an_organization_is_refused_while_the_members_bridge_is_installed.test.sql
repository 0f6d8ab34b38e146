-- GitLab has no namespace for an organization (organizations are apart from namespaces), so no
-- members row can say a membership of one, and memberships are inherited down the tree: one would
-- give its user the lifecycle's authority over every group of the organization, which GitLab never
-- gives. While the members bridge is installed, the API's membership of an organization is refused
-- (NS010, with a hint) and nothing is written to GitLab's members; a level change of one made
-- before the bridge is refused too, its removal is not. A members row naming the organization
-- (one the write-back wrote before this rule) is no membership: not carried, and the check
-- reports the organization's memberships the lifecycle has. Without a members bridge, memberships
-- of organizations are as before.
begin;
select plan(11);
select lifecycle_test.create_gitlab_tables();
select lifecycle_test.create_namespace(null, 'organization', 'orgco') as org \gset
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (:org, 43, 40);
select lifecycle_test.bridge_gitlab_members();
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
grant usage on all sequences in schema legacy to lifecycle_app;

select throws_ok(format($$set local role lifecycle_app;
                          insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (%s, 7, 30)$$, :org),
                 'NS010', 'orgco is a namespace of type organization: GitLab''s members cannot name it, so no membership of it while legacy.members is bridged',
                 'the API''s membership of an organization is refused while the members bridge is installed');
reset role;
select is((select count(*) from lifecycle.namespace_members where user_id = 7), 0::bigint, 'no membership');
select is((select count(*) from legacy.members where user_id = 7), 0::bigint, 'and no members row naming a namespace GitLab has not');
select throws_ok(format($$set local role lifecycle_app;
                          update lifecycle.namespace_members set access_level = 50 where namespace_id = %s and user_id = 43$$, :org),
                 'NS010', null, 'a level change of one made before the bridge is refused too');
reset role;
select is(
  (select array[legacy_says, state] from lifecycle.legacy_bridge_check() where namespace_id = :org),
  array['not member 43', 'member 43 at level 40'],
  'the check reports the organization''s membership the lifecycle has: GitLab has none');

-- A members row naming the organization, as the write-back wrote one before: no membership.
set local role lifecycle_app;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, type, member_namespace_id)
values (50, :org, 'Namespace', 44, 3, 'GroupMember', :org);
reset role;
select is((select count(*) from lifecycle.namespace_members where user_id = 44), 0::bigint,
          'GitLab''s row naming an organization is not carried');
select is((select held from lifecycle.legacy_members('legacy.members', 'legacy.projects', 44, :org)), false,
          'lifecycle.legacy_members says the lifecycle cannot hold it (the import skips it)');
select is((select count(*) from lifecycle.legacy_bridge_check() where namespace_id = :org), 1::bigint,
          'the check still reports only the lifecycle''s membership of the organization');

set local role lifecycle_app;
select lifecycle.namespace_member_remove(:org, 43);
reset role;
select is((select count(*) from lifecycle.namespace_members where namespace_id = :org), 0::bigint, 'its removal is not refused');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'and the check is empty');

select lifecycle.legacy_members_bridge_drop('legacy.members');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (:org, 7, 30);
select is((select count(*) from lifecycle.namespace_members where namespace_id = :org), 1::bigint,
          'without a members bridge a membership of an organization is as before');

select * from finish();
rollback;
