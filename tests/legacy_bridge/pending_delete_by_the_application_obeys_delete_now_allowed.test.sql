-- pending_delete = true through the bridge starts a deletion only as the API would
-- (docs/design.md §10.2): with delete_now_allowed false a user actor is refused with NS005, and a
-- write naming no actor is the system's, which lifecycle_app may not act as (NS005) and
-- lifecycle_worker may; the history row names the bridge as its source.
begin;
select plan(5);
select lifecycle_test.create_gitlab_legacy();
grant usage on schema legacy to lifecycle_app, lifecycle_worker;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app, lifecycle_worker;
update lifecycle.settings set delete_now_allowed = false;

set local role lifecycle_app;
update legacy.projects set marked_for_deletion_at = now(), marked_for_deletion_by_user_id = 1001 where id = 502;
select throws_ok($$update legacy.projects set pending_delete = true where id = 502$$, 'NS005',
                 'only the system may move this namespace to deletion_in_progress without an actor',
                 'lifecycle_app: pending_delete naming no actor is the system''s, refused (NS005)');
reset role;
update lifecycle.legacy_bridges set actor_id = 1001 where state = 4;
set local role lifecycle_app;
select throws_ok($$update legacy.projects set pending_delete = true where id = 502$$, 'NS005',
                 'deleting before the grace period ends is disabled',
                 'lifecycle_app: pending_delete for the owner while delete_now_allowed is false (NS005)');
reset role;
update lifecycle.legacy_bridges set actor_id = null where state = 4;
set local role lifecycle_worker;
select lives_ok($$update legacy.projects set pending_delete = true where id = 502$$,
                'lifecycle_worker: the system may start the deletion');
reset role;
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/docs')), 4,
          'the deletion is in progress');
select results_eq(
  format($$select to_state::int, actor_id, source from lifecycle.namespace_state_updates where namespace_id = %s order by id$$,
         lifecycle_test.id_of('acme/eng/docs')),
  $$values (2, 1001::bigint, 'bridge'::text), (4, null, 'bridge')$$,
  'history: scheduled by the owner, started by the system, both through the bridge');

select * from finish();
rollback;
