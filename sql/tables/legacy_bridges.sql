-- The state bridges (docs/design.md §10): while an application moves from its legacy columns to
-- lifecycle states, a bridge keeps a legacy column or table and a state in step, both ways, in the
-- same transaction: a legacy change moves the state through the gate (a refusal refuses it), a
-- state change writes the legacy data. Added and ended by the schema's owner (legacy_bridge_add,
-- legacy_bridge_drop); legacy_bridge_check reports every disagreement.
create table lifecycle.legacy_bridges (
  id bigint generated always as identity,
  -- The bridged table: a regclass, so a renamed table stays bridged; its columns by attribute
  -- number, so renamed columns do too (legacy_bridge_column resolves and checks them).
  source regclass not null,
  state smallint not null,
  -- flag: a boolean column is true; value: a date or time column is not null; exists: a row exists.
  kind text not null,
  namespace_attnum smallint not null,
  -- when_attnum: the condition's column (none for exists); at_attnum and by_attnum: the columns that
  -- carry the time and the actor of the legacy change.
  when_attnum smallint,
  at_attnum smallint,
  by_attnum smallint,
  -- The namespace types the bridge speaks for (null: all).
  namespace_types text[],
  created_at timestamp with time zone default now() not null,
  actor_id bigint,
  insert_missing boolean default false not null,
  constraint legacy_bridges_pkey primary key (id),
  constraint legacy_bridges_source_state_key unique (source, state),
  constraint legacy_bridges_condition check (((kind = 'exists'::text) = (when_attnum is null))),
  constraint legacy_bridges_kind_check check ((kind = any (array['flag'::text, 'value'::text, 'exists'::text]))),
  constraint legacy_bridges_state_fkey foreign key (state) references lifecycle.states(code)
);

comment on table lifecycle.legacy_bridges is
  'Legacy columns and tables kept in step with the states, both ways (lifecycle.legacy_bridge_add).';
comment on column lifecycle.legacy_bridges.actor_id is
  'The user a legacy write is made on behalf of when its row names none (no by column, or null there); null: the system, which only lifecycle_worker members and superusers may act as.';
comment on column lifecycle.legacy_bridges.insert_missing is
  'A flag or column bridge that speaks for every namespace of its types: no row is its condition off, and the write-back inserts the row when the condition turns on.';
