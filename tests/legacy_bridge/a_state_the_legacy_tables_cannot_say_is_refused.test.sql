-- While the bridges are installed (docs/design.md §10.2), a namespace the legacy tables hold cannot
-- take a state no bridge can say of it: GitLab has no archived or scheduled user namespace (its
-- bridges of those states speak for groups and projects), so archiving or scheduling one is
-- refused with NS001 and a hint; a group's archive, said by its settings row, is not.
begin;
select plan(4);
select lifecycle_test.create_gitlab_tables();
-- User 42 may change alice's namespace (a membership of the lifecycle's: no members bridge here),
-- so what refuses is the bridges, not authorization.
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900005, 42, 50);

select throws_ok($$select lifecycle.namespace_event(900005, 'archive', 42)$$, 'NS001', null, 'a user namespace cannot be archived');
select throws_ok($$select lifecycle.namespace_event(900005, 'schedule_deletion', 42)$$, 'NS001', null,
                 'nor scheduled for deletion');
select is((select lifecycle.state_name(state) from lifecycle.namespaces where id = 900005), 'ancestor_inherited', 'it stays as it was');
select lives_ok($$select lifecycle.namespace_event(900002, 'archive', 42)$$, 'a group''s archive is said by its settings row');

select * from finish();
rollback;
