-- The sweeper's claims work when the schema's owner is no superuser (issue 25, a managed service):
-- sweep_claim names the claiming session by pid and role (pg_stat_activity's usesysid) instead of
-- pid and backend_start. It reads pg_stat_activity as the owner (SECURITY DEFINER), and
-- PostgreSQL shows a session's backend_start only to members of the session's role and of
-- pg_read_all_stats: an owner that is neither read null for every sweeper session, its own
-- included, and every claim failed (23502), so the sweeper did nothing at all
-- (TestEverythingRunsWithRolesANonSuperuserOwnerMade). pid and usesysid are shown to every role.

-- The claims of sweepers running now are kept, named by their role; those of sessions gone are
-- dropped (sweep_claim took them over anyway). The default only fills the column in this
-- transaction, under its ACCESS EXCLUSIVE lock, before the update.
alter table lifecycle.sweep_claims add column role_id oid not null default 0;
delete from lifecycle.sweep_claims c
 where not exists (select from pg_catalog.pg_stat_activity a where a.pid = c.pid);
update lifecycle.sweep_claims c set role_id = a.usesysid
  from pg_catalog.pg_stat_activity a where a.pid = c.pid;
alter table lifecycle.sweep_claims alter column role_id drop default;
-- sweep_claims is an unlogged table of a few rows while a sweep runs, read and written only by
-- sweep_claim and sweep_release, which stop reading backend_start below, in this transaction.
-- squawk-ignore ban-drop-column
alter table lifecycle.sweep_claims drop column backend_start;
comment on table lifecycle.sweep_claims is
  'The sweeper''s claims of namespaces (sweep_claim), held across the transactions of their work by a session named by pid and role (pg_stat_activity shows both to every role); taken over when that session is gone. Unlogged: no session outlives a crash.';

{{ template "functions/sweep_claim.sql" . }}
{{ template "functions/sweep_release.sql" . }}

---- create above / drop below ----

-- 031's table, made again as 031 made it (its columns in their order): the claims held at that
-- moment are not kept, so move back between sweeps.
drop table lifecycle.sweep_claims;
create unlogged table lifecycle.sweep_claims (
  namespace_id bigint primary key,
  pid int not null,
  backend_start timestamptz not null,
  claimed_at timestamptz not null default pg_catalog.now()
);
comment on table lifecycle.sweep_claims is
  'The sweeper''s claims of namespaces (sweep_claim), held across the transactions of their work by a session named by pid and start time; taken over when that session is gone. Unlogged: no session outlives a crash.';
{{ template "snapshots/031/sweep_claim.sql" . }}
{{ template "snapshots/031/sweep_release.sql" . }}
