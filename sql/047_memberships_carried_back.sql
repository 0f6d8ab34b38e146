-- Memberships in step both ways (issue 26, points 3 and 6). Until now the members bridge carried
-- GitLab's members into lifecycle.namespace_members only: a membership the application added,
-- changed or removed through the product left GitLab's table as it was, and legacy_bridge_check
-- reported the pair from then on. A members bridge now also puts a trigger on namespace_members
-- (legacy_members_state) that writes each such change to GitLab's members in the same
-- transaction, with the writer's authority on GitLab's table; the two directions keep apart by
-- transaction flags no client can raise (legacy_members_writing, legacy_members_carrying). A
-- bridge in place gets the trigger here (CREATE TRIGGER: a short SHARE ROW EXCLUSIVE lock on
-- namespace_members).

{{ template "snapshots/047/legacy_members_state.sql" . }}
{{ template "triggers/legacy_members_source.sql" . }}
{{ template "snapshots/047/legacy_members_bridge_add.sql" . }}
{{ template "snapshots/047/legacy_members_bridge_drop.sql" . }}
revoke all on function lifecycle.legacy_members_state() from public;

do $up$
begin
  if exists (select from lifecycle.legacy_members_bridges) then
    create trigger namespace_members_legacy
      after insert or delete or update of namespace_id, user_id, access_level on lifecycle.namespace_members
      for each row execute function lifecycle.legacy_members_state();
  end if;
end
$up$;

---- create above / drop below ----

drop trigger if exists namespace_members_legacy on lifecycle.namespace_members;
-- 041's versions say create, not create or replace: replaced in place.
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/041/legacy_members_source.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/041/legacy_members_bridge_add.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/041/legacy_members_bridge_drop.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
drop function lifecycle.legacy_members_state();
