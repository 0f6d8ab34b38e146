-- The schema, the roles the product grants to, and pgcrypto.
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
  -- lifecycle_bridge: no login; owns the bridges' writers (legacy_bridge_write, legacy_tree_write,
  -- legacy_members_write, legacy_rows_delete) and holds only what they write, granted table by
  -- table when a bridge is added. The application's role may put triggers on its own tables (and
  -- defaults, policies, operators): those run as the writer's owner, so that owner is this role,
  -- never the schema's owner. The migrating role becomes a member, to hand it the writers.
  if not exists (select from pg_catalog.pg_roles where rolname = 'lifecycle_bridge') then
    create role lifecycle_bridge nologin noinherit;
  end if;
  if not (select r.rolsuper from pg_catalog.pg_roles r where r.rolname = current_user)
     and not pg_catalog.pg_has_role(current_user, 'lifecycle_bridge', 'USAGE') then
    grant lifecycle_bridge to current_user;
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
