-- The schema, the two roles the product grants to, and pgcrypto.
--
-- Everything lives in schema `lifecycle`, so the product installs into an existing application
-- database. The roles are cluster-wide: created only when absent and never dropped (other
-- databases in the cluster may hold grants to them). What each may do is sql/grants.sql.
create schema if not exists lifecycle;

do $roles$
begin
  -- lifecycle_app: the host application's role; calls the API and reads, never writes state directly.
  if not exists (select from pg_catalog.pg_roles where rolname = 'lifecycle_app') then
    create role lifecycle_app nologin;
  end if;
  -- lifecycle_worker: the sweeper and the syncer; may act as the system (actor_id null).
  if not exists (select from pg_catalog.pg_roles where rolname = 'lifecycle_worker') then
    create role lifecycle_worker nologin;
  end if;
end
$roles$;

-- Facts are signed with pgcrypto's hmac() (functions/hmac_sha256.sql). pgcrypto is used where the
-- database has it, in whatever schema; when it has none, it is installed in a schema of its own,
-- lifecycle_pgcrypto (a trusted extension: the installing role needs CREATE on the database, not
-- superuser), which the baseline's down part removes again.
do $pgcrypto$
begin
  if not exists (select from pg_catalog.pg_extension e where e.extname = 'pgcrypto') then
    create schema lifecycle_pgcrypto;
    comment on schema lifecycle_pgcrypto is 'pgcrypto, installed by nslifecycle for the facts'' HMAC.';
    create extension pgcrypto with schema lifecycle_pgcrypto;
  end if;
end
$pgcrypto$;
