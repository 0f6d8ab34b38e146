-- Memberships in step with GitLab's members table once adopted (issue 26, points 6 and 7). Until
-- now cmd/adopt imported them once, quietly, and a membership GitLab added, changed or removed
-- afterwards reached the lifecycle only by importing again (and a removal never).
--
-- lifecycle.legacy_members is the one definition of what a row of GitLab's members is in the
-- lifecycle (a membership when it names a user and is neither an access request nor an invitation
-- not yet accepted; a Project member on the project's namespace; the higher level of one user's
-- rows on one namespace): the import, the bridge and the check all read it. The members bridge
-- (legacy_members_bridge_add/_drop, one per database) puts a trigger on members that carries each
-- membership its rows make, change or end into lifecycle.namespace_members in the same
-- transaction, with the writer's authority, audited and notified as any membership change (the
-- import stays quiet). legacy_bridge_check reports, beside the states, every membership the two
-- disagree on (legacy_members_check), in its own form.

create table lifecycle.legacy_members_bridges (
  id bigint generated always as identity primary key,
  source regclass not null,
  projects regclass not null,
  created_at timestamptz not null default pg_catalog.now(),
  constraint legacy_members_bridges_source_key unique (source)
);

-- One members table holds every membership: the bridge speaks for all of the lifecycle's.
create unique index legacy_members_bridges_one on lifecycle.legacy_members_bridges ((true));

comment on table lifecycle.legacy_members_bridges is
  'GitLab''s members table, kept in step with lifecycle.namespace_members (lifecycle.legacy_members_bridge_add).';

grant select on lifecycle.legacy_members_bridges to lifecycle_app, lifecycle_worker;

{{ template "snapshots/041/legacy_members.sql" . }}
{{ template "snapshots/041/legacy_members_source.sql" . }}
{{ template "snapshots/041/legacy_members_bridge_add.sql" . }}
{{ template "snapshots/041/legacy_members_bridge_drop.sql" . }}
{{ template "snapshots/041/legacy_members_check.sql" . }}
{{ template "snapshots/041/legacy_bridge_check.sql" . }}

revoke all on function lifecycle.legacy_members(regclass, regclass, bigint, bigint, jsonb), lifecycle.legacy_members_source(),
  lifecycle.legacy_members_bridge_add(regclass, regclass), lifecycle.legacy_members_bridge_drop(regclass),
  lifecycle.legacy_members_check() from public;
grant execute on function lifecycle.legacy_members_check() to lifecycle_worker;

---- create above / drop below ----

-- Bridges still in place lose their triggers.
do $down$
declare
  src regclass;
begin
  for src in select b.source from lifecycle.legacy_members_bridges b loop
    perform lifecycle.legacy_members_bridge_drop(src);
  end loop;
end
$down$;
-- 014's version says create, not create or replace: replaced in place (its grant stays).
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_check.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
drop function lifecycle.legacy_members_check();
drop function lifecycle.legacy_members_bridge_drop(regclass);
drop function lifecycle.legacy_members_bridge_add(regclass, regclass);
drop function lifecycle.legacy_members_source();
drop function lifecycle.legacy_members(regclass, regclass, bigint, bigint, jsonb);
drop table lifecycle.legacy_members_bridges;
