-- The history: one row per change of state, in the same transaction, written by the gate's state
-- record (namespaces_state_gate), the import, the legacy backfill and organization_move_in; no
-- client role writes it. No foreign keys: history outlives the namespace (a hard delete removes the
-- row, not what happened to it), and each writer judges the states and event it writes, where a key
-- would be checked by every change (sql/README.md; states_in_use_guard, events_in_use_guard).
create table lifecycle.namespace_state_updates (
  id bigint generated always as identity,
  namespace_id bigint not null,
  from_state smallint not null,
  to_state smallint not null,
  event text,
  actor_id bigint,
  -- api (namespace_change_state's callers), bridge (a legacy write a bridge carries), sql (a raw
  -- UPDATE by the schema's owner), import (the import and the legacy backfill): its writers write
  -- only these, with no check constraint to say it again (sql/README.md, Performance idioms).
  source text not null,
  -- A JSON object: the call's metadata (namespace_change_state refuses any other) or '{}'.
  metadata jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  constraint namespace_state_updates_pkey primary key (id)
);

create index namespace_state_updates_namespace_id_idx on lifecycle.namespace_state_updates (namespace_id, id);
