-- A broken bridge breaks only itself (docs/design.md §10.2): after a bridged column's type is
-- changed or the column dropped, a change of a namespace with no row in that table goes through,
-- and one with a row there is refused with NS010 naming the bridge and its repair, never a raw
-- SQLSTATE; restoring the column repairs it.
begin;
select plan(10);
select lifecycle_test.create_gitlab_legacy();
alter table legacy.projects alter column archived drop default, alter column archived type int using archived::int;

set local role lifecycle_app;
select throws_like(format($$select * from lifecycle.namespace_event(%s, 'archive', 1001)$$, lifecycle_test.id_of('acme/eng/site')),
                   'legacy bridge % (legacy.projects, archived) is broken: when column (attribute 3) is now integer',
                   'lifecycle_app: archiving a project with a row in the altered table is refused, naming the bridge');
select throws_ok(format($$select * from lifecycle.namespace_event(%s, 'schedule_deletion', 1001)$$, lifecycle_test.id_of('acme/eng/docs')),
                 'NS010', null, 'so is any change of such a project (NS010)');
select lives_ok(format($$select * from lifecycle.namespace_event(%s, 'archive', 1001)$$, lifecycle_test.id_of('acme/eng')),
                'archiving a group with no row there goes through');
reset role;
-- The hint names the repair (read as the schema's owner: the refusal is the same for every role).
do $$
begin
  perform lifecycle.namespace_event(lifecycle_test.id_of('acme/eng/docs'), 'schedule_deletion', 1001);
exception when others then
  declare h text;
  begin
    get stacked diagnostics h = pg_exception_hint;
    perform set_config('lifecycle_test.hint', h, true);
  end;
end
$$;
select matches(current_setting('lifecycle_test.hint'), 'Restore the column .* lifecycle\.legacy_bridge_drop\(\d+::regclass\)',
               'the hint: restore the column, or legacy_bridge_drop(<oid>::regclass)');

alter table legacy.projects alter column archived type boolean using archived::boolean, alter column archived set default false;
set local role lifecycle_app;
select lives_ok(format($$select * from lifecycle.namespace_event(%s, 'schedule_deletion', 1001)$$, lifecycle_test.id_of('acme/eng/site')),
                'with the column restored, the project changes again');
reset role;

alter table legacy.projects drop column pending_delete;
set local role lifecycle_app;
select throws_like(format($$select * from lifecycle.namespace_event(%s, 'restore', 1001)$$, lifecycle_test.id_of('acme/eng/site')),
                   'legacy bridge % (legacy.projects, deletion_in_progress) is broken: when column (attribute 6) was dropped',
                   'a dropped column: the project''s change is refused, naming that bridge');
select lives_ok(format($$select * from lifecycle.namespace_event(%s, 'unarchive', 1001)$$, lifecycle_test.id_of('acme/eng')),
                'the group''s goes through');
reset role;
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
set local role lifecycle_app;
select lives_ok($$update legacy.projects set marked_for_deletion_by_user_id = 1001 where id = 502$$,
                'lifecycle_app: an UPDATE of the table that leaves the broken bridge''s columns alone goes on');
select throws_ok($$insert into legacy.projects (id, project_namespace_id) values (503, 999999)$$, 'NS010', null,
                 'an INSERT into it is refused (NS010): the broken bridge cannot tell what the row says');
reset role;
select results_eq($$select path, state::int from lifecycle.namespaces where path in ('eng', 'site', 'docs') order by path$$,
                  $$values ('docs'::text, 0), ('eng', 0), ('site', 2)$$, 'only what went through changed');

select * from finish();
rollback;
