-- The application's old code paths obey the rules too (docs/design.md §10): a legacy change the
-- gate refuses fails the legacy statement with the gate's code, and nothing of it remains.
begin;
select plan(4);
select lifecycle_test.create_gitlab_legacy();
grant usage on schema tap, lifecycle_test, legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
-- The legacy tables name no actor: the bridges write for owner 1001, so the rules, not the
-- actor's rights, refuse what follows.
update lifecycle.legacy_bridges set actor_id = 1001;

update legacy.namespace_settings set archived = true where namespace_id = lifecycle_test.id_of('acme/eng');
set local role lifecycle_app;
select throws_ok($$update legacy.projects set archived = true where id = 501$$, 'NS002', null,
                 'lifecycle_app: archiving a project below an archived group through the legacy flag is refused (NS002)');
reset role;
insert into legacy.group_deletion_schedules (group_id, marked_for_deletion_on, user_id) values (lifecycle_test.id_of('acme/eng'), current_date, 1001);
set local role lifecycle_app;
select throws_ok($$update legacy.projects set marked_for_deletion_at = now(), marked_for_deletion_by_user_id = 1001 where id = 502$$,
                 'NS002', null, 'lifecycle_app: marking a project for deletion below a group scheduled for deletion is refused (NS002)');
reset role;
select results_eq($$select archived, marked_for_deletion_at from legacy.projects order by id$$,
                  $$values (false, null::timestamptz), (false, null)$$, 'the legacy rows are unchanged');
select is((select count(*)::int from lifecycle.namespace_state_updates where namespace_id in
            (lifecycle_test.id_of('acme/eng/site'), lifecycle_test.id_of('acme/eng/docs'))), 0, 'and no state changed');

select * from finish();
rollback;
