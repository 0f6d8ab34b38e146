-- The state core (docs/design.md §2–§4): states, the transition matrix and its guards as rows the PL/pgSQL
-- reads, state metadata validated against a JSON schema, history, memberships and the policy that
-- authorizes transitions, the one gate (triggers on lifecycle.namespaces), the API and effective
-- state. Nothing here is repeated in Go: clients read these tables.

-- ---------------------------------------------------------------------------------------------
-- Reference data
-- ---------------------------------------------------------------------------------------------

create table lifecycle.states (
  code smallint primary key,
  name text not null unique,
  -- Another name clients may use: "active" for code 0 (ADR 003 calls it so).
  alias text unique,
  description text not null,
  -- ADR 001: "permanent state until human action"; every other state is temporary, and events
  -- that end it return to the permanent state the namespace had before (preserved_state).
  permanent boolean not null,
  -- On a namespace or any ancestor, this state makes the namespace read-only (docs/design.md §2).
  read_only boolean not null,
  -- On a namespace or any ancestor, this state means the namespace is pending deletion.
  pending_deletion boolean not null
);

comment on table lifecycle.states is
  'ADR 001 state codes. Clients speak names; "active" is accepted everywhere as the name of code 0.';

insert into lifecycle.states (code, name, alias, description, permanent, read_only, pending_deletion) values
  (0, 'ancestor_inherited', 'active', 'No own state: the effective state comes from the nearest ancestor with one, else active.', true, false, false),
  (1, 'archived', null, 'Read-only, recoverable.', true, true, false),
  (2, 'deletion_scheduled', null, 'Soft-deleted, restorable until the grace period ends.', false, true, true),
  (3, 'creation_in_progress', null, 'Being created (only as an initial state).', false, false, false),
  (4, 'deletion_in_progress', null, 'Being hard-deleted.', false, true, true),
  (5, 'transfer_in_progress', null, 'Subtree being moved to a new parent.', false, true, false),
  (6, 'maintenance', null, 'Temporary read-only; reverts to the state it came from.', false, true, false);

-- The allowed transitions. from_state null is creation ([*] in ADR 001): a new row may start only
-- in a state that has a creation row here. Every pair not listed is refused with NS001.
create table lifecycle.state_transitions (
  from_state smallint references lifecycle.states (code),
  to_state smallint not null references lifecycle.states (code),
  reason text not null,
  constraint state_transitions_pair_key unique nulls not distinct (from_state, to_state),
  constraint state_transitions_change check (from_state <> to_state)
);

comment on table lifecycle.state_transitions is
  'docs/design.md §3 transition matrix (ADR 003), one row per allowed pair; from_state null = creation.';

insert into lifecycle.state_transitions (from_state, to_state, reason) values
  (null, 0, 'Create a namespace.'),
  (null, 3, 'Create a namespace whose creation runs asynchronously.'),
  (1, 0, 'Unarchive.'),
  (3, 0, 'Creation complete.'),
  (4, 0, 'Deletion failure. Skip deletion_scheduled to avoid infinite retry loop.'),
  (2, 0, 'Restore from delete.'),
  (5, 0, 'Transfer complete.'),
  (6, 0, 'Maintenance over.'),
  (0, 1, 'Archive.'),
  (4, 1, 'Deletion triggered from archived namespace failed. Skip deletion_scheduled to prevent retry loop.'),
  (2, 1, 'Deletion triggered from archived namespace (restore to archived).'),
  (5, 1, 'Allow transfer to complete for archived item.'),
  (3, 4, 'Fatal creation failure.'),
  (2, 4, 'Start deletion of the namespace.'),
  (0, 2, 'Schedule deletion.'),
  (1, 2, 'Schedule deletion of archived namespace.'),
  (4, 2, 'Deletion failure. Requeue for retry.'),
  (0, 5, 'Transfer a namespace.'),
  (1, 5, 'Transfer archived namespace.'),
  (0, 6, 'Enter maintenance.');

-- The guards (ADR 003 "State Transition Overview", docs/design.md §3): for a transition, the own states
-- no ancestor (at any depth) and no descendant (at any depth) may have.
create table lifecycle.transition_guards (
  from_state smallint,
  to_state smallint not null,
  scope text not null check (scope in ('ancestor', 'descendant')),
  forbidden_state smallint not null references lifecycle.states (code),
  constraint transition_guards_transition_fkey foreign key (from_state, to_state)
    references lifecycle.state_transitions (from_state, to_state),
  constraint transition_guards_key unique nulls not distinct (from_state, to_state, scope, forbidden_state)
);

comment on table lifecycle.transition_guards is
  'States forbidden on any ancestor / any descendant for a transition (NS002 / NS003).';

insert into lifecycle.transition_guards (from_state, to_state, scope, forbidden_state)
select g.from_state, g.to_state, g.scope, f.state
  from (values
    -- archived → active: parent NOT deletion_in_progress, NOT deletion_scheduled
    (1, 0, 'ancestor', array[4, 2]),
    -- active → archived
    (0, 1, 'ancestor', array[1, 4, 2, 5]),
    (0, 1, 'descendant', array[3, 5]),
    -- deletion_in_progress → archived, deletion_scheduled → archived: parent NOT archived
    (4, 1, 'ancestor', array[1]),
    (2, 1, 'ancestor', array[1]),
    -- active → deletion_scheduled, archived → deletion_scheduled
    (0, 2, 'ancestor', array[4, 2, 5]),
    (0, 2, 'descendant', array[3, 5]),
    (1, 2, 'ancestor', array[4, 2, 5]),
    (1, 2, 'descendant', array[3, 5]),
    -- active → transfer_in_progress, archived → transfer_in_progress: all must be active or archived
    (0, 5, 'ancestor', array[2, 3, 4, 5, 6]),
    (0, 5, 'descendant', array[2, 3, 4, 5, 6]),
    (1, 5, 'ancestor', array[2, 3, 4, 5, 6]),
    (1, 5, 'descendant', array[2, 3, 4, 5, 6]),
    -- active → maintenance
    (0, 6, 'ancestor', array[4, 2, 5]),
    (0, 6, 'descendant', array[3, 5]),
    -- creation: nothing is created below a namespace that has (or has an ancestor with) any own state
    (null, 0, 'ancestor', array[1, 2, 3, 4, 5, 6]),
    (null, 3, 'ancestor', array[1, 2, 3, 4, 5, 6])
  ) as g(from_state, to_state, scope, states)
 cross join lateral unnest(g.states) as f(state);

-- ADR 001's events. An event applies to the namespaces whose own state is one of its sources, and
-- leads to target_state, or, when target_key is set, to the state named by that key of the
-- namespace's state_metadata ("back to where it was") when the matrix allows it from there, else
-- to target_state.
create table lifecycle.events (
  name text primary key,
  target_state smallint not null references lifecycle.states (code),
  target_key text check (target_key in ('preserved_state', 'previous_state')),
  description text not null
);

create table lifecycle.event_sources (
  event text not null references lifecycle.events (name),
  from_state smallint not null references lifecycle.states (code),
  primary key (event, from_state)
);

insert into lifecycle.events (name, target_state, target_key, description) values
  ('creation_done', 0, null, 'Creation finished.'),
  ('archive', 1, null, 'Archive.'),
  ('unarchive', 0, null, 'Unarchive.'),
  ('schedule_deletion', 2, null, 'Soft-delete; restorable during the grace period.'),
  ('restore', 0, 'preserved_state', 'Undo a scheduled deletion: back to the state it had before.'),
  ('deletion_start', 4, null, 'Begin the hard delete (after the grace period, delete now, or a fatal creation failure).'),
  ('deletion_failed', 2, 'previous_state', 'The hard delete failed: back to where it was (requeued as deletion_scheduled).'),
  ('transfer_start', 5, null, 'Begin moving the subtree.'),
  ('transfer_done', 0, 'preserved_state', 'The move finished: back to the state it had before.'),
  ('maintain', 6, null, 'Enter maintenance.'),
  ('unmaintain', 0, 'preserved_state', 'Leave maintenance: back to the state it had before.');

insert into lifecycle.event_sources (event, from_state) values
  ('creation_done', 3),
  ('archive', 0),
  ('unarchive', 1),
  ('schedule_deletion', 0), ('schedule_deletion', 1),
  ('restore', 2),
  ('deletion_start', 2), ('deletion_start', 3),
  ('deletion_failed', 4),
  ('transfer_start', 0), ('transfer_start', 1),
  ('transfer_done', 5),
  ('maintain', 0),
  ('unmaintain', 6);

-- JSON schemas the database validates documents against (a subset of JSON Schema: type, enum,
-- properties, required, additionalProperties, minimum, maxLength, format date-time, and the
-- product's format "lifecycle-state", a name in lifecycle.states).
create table lifecycle.json_schemas (
  name text primary key,
  schema jsonb not null check (pg_catalog.jsonb_typeof(schema) = 'object'),
  -- Documents larger than this (bytes of their text form) are refused.
  max_bytes int not null check (max_bytes > 0)
);

insert into lifecycle.json_schemas (name, max_bytes, schema) values ('state_metadata', 16384, $json$
{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "last_updated_at": {"type": "string", "format": "date-time"},
    "last_changed_by_user_id": {"type": ["integer", "null"]},
    "inherited_from_namespace_id": {"type": ["integer", "null"]},
    "last_error": {"type": ["string", "null"], "maxLength": 2000},
    "preserved_state": {"type": "string", "format": "lifecycle-state",
      "description": "The permanent state before the current run of temporary states; restore, transfer_done and unmaintain return to it."},
    "previous_state": {"type": "string", "format": "lifecycle-state",
      "description": "The state before the current one; deletion_failed returns to it."},
    "progress": {"type": "object", "additionalProperties": false, "required": ["done", "total"],
      "properties": {"done": {"type": "integer", "minimum": 0}, "total": {"type": "integer", "minimum": 0}}},
    "attempt_count": {"type": "integer", "minimum": 0},
    "correlation_id": {"type": "string", "maxLength": 200},
    "reason": {"type": "string", "maxLength": 1000}
  }
}
$json$);

-- Minimum effective access level (GitLab: 10 guest, 20 reporter, 30 developer, 40 maintainer,
-- 50 owner) an actor needs to move a namespace into a state.
create table lifecycle.transition_policies (
  to_state smallint primary key references lifecycle.states (code),
  min_access_level smallint not null default 50 check (min_access_level in (10, 20, 30, 40, 50))
);

insert into lifecycle.transition_policies (to_state, min_access_level)
select code, 50 from lifecycle.states;

-- ---------------------------------------------------------------------------------------------
-- Per-namespace data
-- ---------------------------------------------------------------------------------------------

-- Accepted (sql/README.md, Migrations without stalls): 001's table gets its gate in this
-- transaction; the check reads it under SHARE ROW EXCLUSIVE (writes wait, reads go on).
alter table lifecycle.namespaces
  -- squawk-ignore constraint-missing-not-valid, adding-foreign-key-constraint
  add constraint namespaces_state_fkey foreign key (state) references lifecycle.states (code);

-- Guards look for descendants in given states: an index on (state, traversal_ids) of the rows
-- that have an own state serves "descendants of X in states S" by visiting only those rows, so a
-- group with 100k plain projects is checked as fast as a leaf.
-- Accepted (sql/README.md, Migrations without stalls): built in the transaction that gives 001's
-- table its gate (writes wait, reads go on).
-- squawk-ignore require-concurrent-index-creation
create index namespaces_own_state_idx on lifecycle.namespaces (state, traversal_ids) where state <> 0;

create table lifecycle.namespace_details (
  namespace_id bigint primary key references lifecycle.namespaces (id) on delete cascade,
  state_metadata jsonb not null default '{}' check (pg_catalog.jsonb_typeof(state_metadata) = 'object')
);

create table lifecycle.namespace_members (
  namespace_id bigint not null references lifecycle.namespaces (id) on delete cascade,
  user_id bigint not null,
  access_level smallint not null check (access_level in (10, 20, 30, 40, 50)),
  created_at timestamptz not null default pg_catalog.now(),
  updated_at timestamptz not null default pg_catalog.now(),
  primary key (namespace_id, user_id)
);

comment on table lifecycle.namespace_members is
  'Memberships, inherited down the tree: the effective level is the highest on the path root … self.';

create index namespace_members_user_id_idx on lifecycle.namespace_members (user_id);

-- History: one row per state change, in the same transaction. No foreign key: history outlives the
-- namespace (a hard delete removes the row, not what happened to it).
create table lifecycle.namespace_state_updates (
  id bigint generated always as identity primary key,
  namespace_id bigint not null,
  from_state smallint not null references lifecycle.states (code),
  to_state smallint not null references lifecycle.states (code),
  event text references lifecycle.events (name),
  actor_id bigint,
  -- 'api' through namespace_transition / namespace_event, 'sql' for a raw UPDATE.
  source text not null check (source in ('api', 'sql')),
  metadata jsonb not null default '{}' check (pg_catalog.jsonb_typeof(metadata) = 'object'),
  created_at timestamptz not null default pg_catalog.now()
);

create index namespace_state_updates_namespace_id_idx on lifecycle.namespace_state_updates (namespace_id, id);

-- ---------------------------------------------------------------------------------------------
-- Functions, the gate, the API
-- ---------------------------------------------------------------------------------------------

{{ template "snapshots/002/state_code.sql" . }}
{{ template "snapshots/002/state_name.sql" . }}
{{ template "snapshots/002/jsonb_schema_violation.sql" . }}
{{ template "snapshots/002/state_metadata_refusal.sql" . }}
{{ template "snapshots/002/caller_may_act_as_system.sql" . }}
{{ template "snapshots/002/namespace_access_level.sql" . }}
{{ template "snapshots/002/transition_refusal.sql" . }}
{{ template "snapshots/002/namespace_lock.sql" . }}
{{ template "snapshots/002/namespace_change_state.sql" . }}
{{ template "snapshots/002/namespace_transition.sql" . }}
{{ template "snapshots/002/namespace_event.sql" . }}
{{ template "snapshots/002/namespace_effective_state.sql" . }}
{{ template "functions/namespace_available_transitions.sql" . }}
{{ template "snapshots/002/namespaces_state_gate.sql" . }}
{{ template "snapshots/002/namespaces_state_record.sql" . }}
{{ template "snapshots/002/namespace_details_validate.sql" . }}

-- Namespaces created before this migration get their details row.
insert into lifecycle.namespace_details (namespace_id)
select id from lifecycle.namespaces
on conflict do nothing;

-- ---------------------------------------------------------------------------------------------
-- Effective states for bulk reads: one row per namespace, refreshed concurrently by the syncer.
-- lifecycle.namespace_effective_state() is the always-fresh single lookup.
-- ---------------------------------------------------------------------------------------------

create materialized view lifecycle.effective_states as
{{ template "snapshots/002/effective_states_query.sql" . }};

-- Unique, so the view can be refreshed CONCURRENTLY (readers are never blocked). The view is made
-- just above, in this transaction: no one reads it yet.
-- squawk-ignore require-concurrent-index-creation
create unique index effective_states_namespace_id_idx on lifecycle.effective_states (namespace_id);

{{ template "snapshots/002/effective_states_refresh.sql" . }}

-- ---------------------------------------------------------------------------------------------
-- Privileges. lifecycle_app (the host application) reads everything, creates namespaces with a
-- plain INSERT, renames them, manages memberships and calls the API; it cannot write state,
-- parent_id or traversal_ids, metadata or history. lifecycle_worker (sweeper, syncer) likewise,
-- and may act as the system (actor_id null).
-- ---------------------------------------------------------------------------------------------

revoke all on all functions in schema lifecycle from public;

grant select on lifecycle.states, lifecycle.state_transitions, lifecycle.transition_guards,
  lifecycle.events, lifecycle.event_sources, lifecycle.json_schemas, lifecycle.transition_policies,
  lifecycle.namespace_details, lifecycle.namespace_members, lifecycle.namespace_state_updates,
  lifecycle.effective_states
  to lifecycle_app, lifecycle_worker;
grant insert (parent_id, type, path, name, visibility, state) on lifecycle.namespaces to lifecycle_app, lifecycle_worker;
grant update (name) on lifecycle.namespaces to lifecycle_app, lifecycle_worker;
grant insert, update (access_level, updated_at), delete on lifecycle.namespace_members to lifecycle_app, lifecycle_worker;
grant execute on function
  lifecycle.namespace_full_path(bigint),
  lifecycle.state_code(text),
  lifecycle.state_name(smallint),
  lifecycle.namespace_transition(bigint, text, bigint, jsonb),
  lifecycle.namespace_event(bigint, text, bigint, jsonb),
  lifecycle.namespace_effective_state(bigint),
  lifecycle.namespace_available_transitions(bigint, bigint)
  to lifecycle_app, lifecycle_worker;
grant execute on function lifecycle.effective_states_refresh() to lifecycle_worker;

---- create above / drop below ----

revoke all on all tables in schema lifecycle from lifecycle_app, lifecycle_worker;
revoke all on all functions in schema lifecycle from lifecycle_app, lifecycle_worker;
-- 001's privileges, which the revokes above took too.
grant select on lifecycle.namespaces to lifecycle_app, lifecycle_worker;
grant execute on function lifecycle.namespace_full_path(bigint) to lifecycle_app, lifecycle_worker;

drop function lifecycle.effective_states_refresh();
drop materialized view lifecycle.effective_states;

drop trigger namespace_details_validate on lifecycle.namespace_details;
drop trigger namespaces_3_state_record on lifecycle.namespaces;
drop trigger namespaces_2_state_gate on lifecycle.namespaces;
drop function lifecycle.namespace_details_validate();
drop function lifecycle.namespaces_state_record();
drop function lifecycle.namespaces_state_gate();
drop function lifecycle.namespace_available_transitions(bigint, bigint);
drop function lifecycle.namespace_effective_state(bigint);
drop function lifecycle.namespace_event(bigint, text, bigint, jsonb);
drop function lifecycle.namespace_transition(bigint, text, bigint, jsonb);
drop function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb);
drop function lifecycle.namespace_lock(bigint);
drop function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint);
drop function lifecycle.namespace_access_level(bigint[], bigint);
drop function lifecycle.caller_may_act_as_system();
drop function lifecycle.state_metadata_refusal(jsonb);
drop function lifecycle.jsonb_schema_violation(jsonb, jsonb, text);
drop function lifecycle.state_name(smallint);
drop function lifecycle.state_code(text);

drop table lifecycle.namespace_state_updates;
drop table lifecycle.namespace_members;
drop table lifecycle.namespace_details;
-- Accepted (sql/README.md, Migrations without stalls): down to 001, in the transaction that takes
-- the table's gate away (its DROP TRIGGERs above hold ACCESS EXCLUSIVE on it already).
-- squawk-ignore require-concurrent-index-deletion
drop index lifecycle.namespaces_own_state_idx;
alter table lifecycle.namespaces drop constraint namespaces_state_fkey;
drop table lifecycle.transition_policies;
drop table lifecycle.json_schemas;
drop table lifecycle.event_sources;
drop table lifecycle.events;
drop table lifecycle.transition_guards;
drop table lifecycle.state_transitions;
drop table lifecycle.states;
