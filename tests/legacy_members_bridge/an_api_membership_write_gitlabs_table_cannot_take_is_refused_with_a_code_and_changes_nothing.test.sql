-- A membership written through the API while the members bridge is installed is GitLab's too, or
-- nothing: a role that may write lifecycle.namespace_members but not GitLab's members is refused
-- NS005 (add, change, remove), a project namespace GitLab has no projects row of is NS010 naming
-- the bridge, a write the rules refuse keeps their code (NS004 an unknown namespace, NS010 a level
-- GitLab has not); never a raw SQLSTATE, and neither table changes.
begin;
select plan(10);
select lifecycle_test.create_gitlab_tables();
select lifecycle_test.bridge_gitlab_members();
grant usage on schema legacy to lifecycle_app;
grant select on all tables in schema legacy to lifecycle_app;

select throws_ok($$set local role lifecycle_app; insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 7, 30)$$,
                 'NS005', null, 'adding, by a role that may not insert into GitLab''s members: NS005');
reset role;
select throws_ok($$set local role lifecycle_app; update lifecycle.namespace_members set access_level = 40 where namespace_id = 900001 and user_id = 42$$,
                 'NS005', null, 'changing, by a role that may not update them: NS005');
reset role;
select throws_ok($$set local role lifecycle_app; select lifecycle.namespace_member_remove(900001, 42)$$,
                 'NS005', null, 'removing, by a role that may not delete them: NS005');
reset role;
select results_eq($$select namespace_id, user_id, access_level::int from lifecycle.namespace_members order by 1, 2$$,
                  $$values (900001::bigint, 42::bigint, 50)$$, 'the lifecycle unchanged');

grant insert, update, delete on all tables in schema legacy to lifecycle_app;
grant usage on all sequences in schema legacy to lifecycle_app;
select throws_ok($$set local role lifecycle_app; insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (123456789, 7, 30)$$,
                 'NS004', null, 'a namespace the lifecycle has not: the rules'' NS004');
reset role;
select throws_ok($$set local role lifecycle_app; insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 7, 35)$$,
                 'NS010', 'invalid access level 35', 'a level GitLab has not: the rules'' NS010');
reset role;
-- A project namespace whose projects row is gone (behind the bridges' backs).
set local session_replication_role = replica;
delete from legacy.projects where id = 9100;
set local session_replication_role = origin;
select throws_ok($$set local role lifecycle_app; insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900010, 7, 30)$$,
                 'NS010', null, 'no projects row: NS010');
reset role;
select throws_like($$set local role lifecycle_app; insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900010, 7, 30)$$,
                   'legacy members bridge % cannot add a member to project namespace 900010%', 'naming the bridge');
reset role;
select is((select count(*) from legacy.members), 1::bigint, 'GitLab''s table unchanged');
select is((select count(*) from lifecycle.namespace_members), 1::bigint, 'the lifecycle''s unchanged');
select * from finish();
rollback;
