-- The backfill is judged by every rule a change is (docs/design.md §10.2): a group whose legacy
-- data schedules its deletion while a project below it is creation_in_progress is refused with
-- NS003, as the API refuses it, keeps its state, and is returned in the refusals and still reported
-- by legacy_bridge_check; the rest is applied (an archived project beside it). Run by
-- lifecycle_worker, whose right to act as the system the backfill needs; not lifecycle_app's.
begin;
select plan(5);
select lifecycle_test.create_gitlab_legacy();
insert into lifecycle.namespaces (parent_id, type, path, name, state) values (lifecycle_test.id_of('acme/eng'), 'project', 'wip', 'wip', 3);

-- Legacy data written before the bridge existed (triggers off, as it was).
set local session_replication_role = replica;
insert into legacy.group_deletion_schedules (group_id, marked_for_deletion_on, user_id) values (lifecycle_test.id_of('acme/eng'), current_date, 1001);
update legacy.projects set archived = true where id = 502;
set local session_replication_role = origin;

set local role lifecycle_worker;
select results_eq(
  $$select backfilled, refused, refusals -> 0 ->> 'namespace_id', refusals -> 0 ->> 'state', refusals -> 0 ->> 'code'
      from lifecycle.legacy_bridge_backfill()$$,
  format($$values (1::bigint, 1::bigint, %L::text, 'deletion_scheduled'::text, 'NS003'::text)$$, lifecycle_test.id_of('acme/eng')),
  'lifecycle_worker: one backfilled, the group refused with NS003 and returned');
reset role;
select results_eq($$select path, state::int from lifecycle.namespaces where path in ('acme', 'eng', 'docs') order by path$$,
                  $$values ('acme'::text, 0), ('docs', 1), ('eng', 0)$$,
                  'the project is archived; the group keeps its state');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');
select results_eq($$select namespace_id, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  format($$values (%s::bigint, 'deletion_scheduled'::text, 'ancestor_inherited'::text)$$, lifecycle_test.id_of('acme/eng')),
                  'legacy_bridge_check still reports the refused namespace');
set local role lifecycle_app;
select throws_ok($$select * from lifecycle.legacy_bridge_backfill()$$, '42501', null, 'lifecycle_app may not backfill');
reset role;

select * from finish();
rollback;
