-- A legacy write has the writer's authority, no more (docs/design.md §10.2): lifecycle_app clearing
-- marked_for_deletion_at is judged as its API call on behalf of the user the row names, so the
-- restore is refused with NS007 once the grace period is over, as the API refuses it, and goes
-- through within it; the history rows name the bridge as their source.
begin;
select plan(5);
select lifecycle_test.create_gitlab_legacy();
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;

set local role lifecycle_app;
update legacy.projects set marked_for_deletion_at = now() - interval '30 days', marked_for_deletion_by_user_id = 1001 where id = 501;
update legacy.projects set marked_for_deletion_at = now() - interval '1 day', marked_for_deletion_by_user_id = 1001 where id = 502;
select throws_ok($$update legacy.projects set marked_for_deletion_at = null where id = 501$$, 'NS007',
                 'the grace period for restoring this namespace is over',
                 'lifecycle_app: clearing a 30-day-old marked_for_deletion_at is refused past the grace period (NS007)');
select lives_ok($$update legacy.projects set marked_for_deletion_at = null where id = 502$$,
                'lifecycle_app: within the grace period the owner the row names restores it');
reset role;

select results_eq($$select path, state::int from lifecycle.namespaces where path in ('site', 'docs') order by path$$,
                  $$values ('docs'::text, 0), ('site', 2)$$, 'site stays scheduled, docs is restored');
select results_eq(
  format($$select from_state::int, to_state::int, event, actor_id, source from lifecycle.namespace_state_updates
            where namespace_id = %s order by id$$, lifecycle_test.id_of('acme/eng/docs')),
  $$values (0, 2, null::text, 1001::bigint, 'bridge'::text), (2, 0, 'restore', 1001, 'bridge')$$,
  'both changes are attributed to the user the row names, with source bridge');
select is((select marked_for_deletion_at is not null from legacy.projects where id = 501), true,
          'the refused legacy statement left the legacy row as it was');

select * from finish();
rollback;
