-- Every lock a lifecycle operation waits on is one that no session outside the schema's functions
-- can take (issue: a login with no grants held the advisory key of all namespaces, a constant in
-- the source and shown in pg_locks, and every state change failed 55P03 while plain INSERTs waited
-- for ever). The global lock order is written once, in namespace_lock_path:
--   steps 1 and 2, a namespace's lock: its namespace_details row, FOR KEY SHARE (a change below
--     it) or FOR UPDATE (its own change), instead of advisory keys; no role may lock those rows,
--     and row locks fill no shared lock table, so the key of all namespaces (taken past 500 keys)
--     and namespace_lock_path_rows (an INSERT's row locks on namespaces) are gone;
--   step 3, a path below a parent: a claim row in lifecycle.path_claims (unlogged, inserted and
--     deleted in the claiming transaction), instead of an advisory key per path and the key of all
--     sibling paths past 1,000;
--   step 6, the one writer of lifecycle.effective_states: its row in lifecycle.lock_rows, instead
--     of SHARE ROW EXCLUSIVE on the table, which any reader could hold up with a PREPAREd INSERT;
--   the sweeper's claim of a namespace across transactions: a row of lifecycle.sweep_claims naming
--     its session instead of a session advisory lock (a session holding the key made the sweeper
--     skip the namespace for as long as it lived);
--   the import: its row in lifecycle.lock_rows instead of an advisory key (one import at a time),
--     its parents' paths shared instead of their rows FOR SHARE, and a claim of each path it makes
--     live instead of the key of all sibling paths.
-- The transaction-local counters lifecycle.namespace_keys and lifecycle.sibling_path_locks are no
-- longer read: a session that sets them changes nothing.

create unlogged table lifecycle.path_claims (
  parent_id bigint,
  path text not null,
  constraint path_claims_key unique nulls not distinct (parent_id, path)
);

comment on table lifecycle.path_claims is
  'Claims of "path below parent" (step 3 of the global lock order, namespace_lock_sibling_path): a row inserted and deleted by the claiming transaction, which holds the key until it ends. Always empty between transactions.';

create table lifecycle.lock_rows (
  name text primary key,
  why text not null
);

comment on table lifecycle.lock_rows is
  'Rows the schema''s functions lock to serialise work that no client may hold up (no role may lock them: FOR SHARE/UPDATE need UPDATE privilege, granted to none).';

insert into lifecycle.lock_rows (name, why) values
  ('effective_states', 'one writer of lifecycle.effective_states at a time (step 6 of the global lock order): FOR UPDATE by effective_states_apply and effective_states_refresh, FOR KEY SHARE by a DELETE of namespaces'),
  ('namespace import', 'one import batch at a time: FOR UPDATE by namespace_import_batch and namespace_import_finish');

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
{{ template "snapshots/031/namespace_lock_path.sql" . }}
{{ template "functions/namespace_lock_sibling_path.sql" . }}
{{ template "snapshots/031/namespace_lock.sql" . }}
{{ template "snapshots/031/namespaces_traversal_ids_maintain.sql" . }}
{{ template "functions/effective_states_refresh.sql" . }}
{{ template "snapshots/031/effective_states_apply.sql" . }}
{{ template "triggers/namespaces_effective_states.sql" . }}
{{ template "snapshots/031/namespace_import_batch.sql" . }}
{{ template "functions/namespace_import_finish.sql" . }}

drop function lifecycle.namespace_lock_path_rows(bigint[]);
drop function lifecycle.namespace_lock_key(bigint);
revoke all on function lifecycle.namespace_lock_path(bigint[], boolean),
  lifecycle.namespace_lock_sibling_path(bigint, text) from public;

---- create above / drop below ----

-- 005's claims, session advisory locks.
create or replace function lifecycle.sweep_claim(namespace_id bigint)
returns boolean
language sql
set search_path to ''
as $$
  select pg_catalog.pg_try_advisory_lock(pg_catalog.hashtextextended('lifecycle sweep ' || namespace_id, 0))
$$;
create or replace function lifecycle.sweep_release(namespace_id bigint)
returns boolean
language sql
set search_path to ''
as $$
  select pg_catalog.pg_advisory_unlock(pg_catalog.hashtextextended('lifecycle sweep ' || namespace_id, 0))
$$;
drop table lifecycle.sweep_claims;

drop function lifecycle.namespace_import_finish();
{{ template "snapshots/029/namespace_import_finish.sql" . }}
drop function lifecycle.namespace_import_batch(int);
{{ template "snapshots/029/namespace_import_batch.sql" . }}
revoke all on function lifecycle.namespace_import_batch(int), lifecycle.namespace_import_finish() from public;
grant execute on function lifecycle.namespace_import_batch(int), lifecycle.namespace_import_finish() to lifecycle_worker;

-- (The two earlier versions say create, not create or replace.)
drop trigger namespaces_effective_states on lifecycle.namespaces;
drop function lifecycle.namespaces_effective_states();
{{ template "snapshots/015/namespaces_effective_states.sql" . }}
revoke all on function lifecycle.namespaces_effective_states() from public;
drop function lifecycle.effective_states_apply(jsonb[], bigint[]);
{{ template "snapshots/018/effective_states_apply.sql" . }}
revoke all on function lifecycle.effective_states_apply(jsonb[], bigint[]) from public;
grant execute on function lifecycle.effective_states_apply(jsonb[], bigint[]) to lifecycle_worker;
{{ template "snapshots/015/effective_states_refresh.sql" . }}
{{ template "snapshots/017/namespace_lock_key.sql" . }}
{{ template "snapshots/017/namespace_lock_path_rows.sql" . }}
{{ template "snapshots/017/namespaces_traversal_ids_maintain.sql" . }}
{{ template "snapshots/017/namespace_lock.sql" . }}
{{ template "snapshots/011/namespace_lock_sibling_path.sql" . }}
drop function lifecycle.namespace_lock_path(bigint[], boolean);
{{ template "snapshots/017/namespace_lock_path.sql" . }}
revoke all on function lifecycle.namespace_lock_key(bigint), lifecycle.namespace_lock_path(bigint[], boolean),
  lifecycle.namespace_lock_path_rows(bigint[]), lifecycle.namespace_lock_sibling_path(bigint, text) from public;
drop table lifecycle.lock_rows;
drop table lifecycle.path_claims;
