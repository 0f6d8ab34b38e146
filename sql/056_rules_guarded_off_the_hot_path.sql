-- Four foreign keys and four check constraints off the path of every change (issue 27, point 7:
-- transitions faster than an application-side state machine), each rule kept in one place. On a
-- 100k bench database (callgrind, 400 API transitions archive/unarchive, instructions per
-- transition, main 3,439k and 15 executor starts): the foreign keys cost 164k and 4 executor starts
-- (and under 8 clients each took FOR KEY SHARE on the same few rows of lifecycle.states, making
-- MultiXacts); the check constraints 157k (PostgreSQL 15 reads each back from its stored text and
-- plans it, inlining the type predicates, in every statement that writes lifecycle.namespaces, an
-- UPDATE of state alone too).
--
-- 1. namespaces_state_fkey, namespace_state_updates_from_state_fkey, _to_state_fkey (to
--    lifecycle.states(code)) and namespace_state_updates_event_fkey (to lifecycle.events(name))
--    said two things. (a) A namespace's state and a history row's states and event are known: that
--    is the writers', on every path that writes those columns:
--      - an INSERT of a namespace (a client's, legacy_tree_create's): the gate
--        (namespaces_state_gate -> transition_refusal) refuses a state the matrix does not create
--        (NS001), and the matrix's rows have their own foreign keys to lifecycle.states; no
--        history row;
--      - an UPDATE of state, through namespace_change_state (the one function but the backfill and
--        organization_move_out_finish, below, that writes the column: namespace_transition,
--        namespace_event, the bridges' carried changes, the sweeps and the transfer call it) or raw
--        by the schema's owner: the gate refuses a pair outside the matrix (NS001); the state
--        record (namespaces_state_record) writes the history row from the two states the gate let
--        through and the event namespace_change_state resolved (event_rule: an unknown event is
--        NS010 before anything is written; a raw UPDATE names none);
--      - the import (namespace_import_batch): states and preserved states by name from
--        lifecycle.states (NS010 for an unknown one), its history rows from active to that state,
--        no event;
--      - the legacy backfill (legacy_bridge_backfill): the states of lifecycle.legacy_bridge_states
--        (a foreign key to lifecycle.states), each step judged by transition_refusal; its history
--        rows name no event;
--      - organization_move_out_finish: deletion_in_progress by name (state_code; a null would
--        break the column's NOT NULL), no history row;
--      - organization_move_in: a namespace's state must be a row of lifecycle.states; its staged
--        history rows' states and events were checked by nothing but the foreign keys (a history
--        chain checks only that the rows follow one another and end in the namespace's state): it
--        now refuses a history row naming a state or an event this cluster does not know (NS010,
--        tests/organization_move_in/a_staged_history_row_naming_an_unknown_state_or_event_is_refused_with_ns010).
--    Not judged: the schema's owner writing the history itself (no client role may write it), or
--    making a raw UPDATE of state under a lifecycle.change it wrote itself (only
--    namespace_change_state writes it; the gate trusts it for the owner alone): as with every
--    trigger of these tables, which it could disable, the owner is trusted with them.
--    (b) A state or an event in use is not deleted, its key not changed, its table not truncated:
--    that is now a trigger on each of lifecycle.states and lifecycle.events (states_in_use_guard,
--    events_in_use_guard), 23503 as before, naming what uses it. They run only on those rare
--    statements of the schema's owner, after which the digests' triggers (states_digest,
--    transition_rules_digest) run as before. Each takes SHARE on lifecycle.namespaces before it
--    reads, so a change into the state (or by the event) in flight commits first and is seen, as
--    the keys' row locks made it wait (tests/rules_in_use_race_test.go).
-- 2. namespaces_type_known, namespaces_root_only_type_is_root, namespaces_no_self_parent and
--    namespaces_id_range said again what namespaces_traversal_ids_maintain refuses with NS010 on an
--    INSERT and a move; it now judges the schema's owner's UPDATE of type or id as well (the only
--    other writes of those columns: no client role may UPDATE them) and refuses an id outside 1 to
--    2^63 - 2 and a namespace its own parent, so each rule is there once. The rows written without
--    that trigger are judged set-based by their writers: the import (ids 1 to 2^62 - 1, a known
--    type, a root-only type at the root, a parent that exists, so not itself) and
--    organization_move_in (the staged tree from its root: each row below a staged parent, now of a
--    type that is not root-only, and now an id in range). And namespace_types_digest_write, which
--    refused any change of the two type predicates' answers while the constraints asked them, now
--    refuses (2BP01) the changes that would make a namespace break a rule (its type removed, or made
--    root-only while it has a parent), naming it, and lets a type no namespace has change.
--
-- Locks: dropping a constraint takes ACCESS EXCLUSIVE on its table, and dropping a foreign key on
-- the table it references too (its triggers there go). So the four tables are locked first, in one
-- statement, in the order a change takes them (namespaces, then, through the foreign keys' checks,
-- states, the history, events), and everything that needs no lock on them (two functions) goes
-- before it. Under the lock only the drops and the triggers' definitions: a few ms, no scan. The
-- down part adds the constraints back validated, as they were (NOT VALID and VALIDATE in one
-- transaction would hold the first lock through the scan all the same, and leave namespaces_id_range
-- NOT VALID as 029 made it, as it does here): it reads lifecycle.namespaces four times and the
-- history three times under ACCESS EXCLUSIVE, which holds readers and writers off meanwhile
-- (seconds at 1M namespaces): move back at a quiet time. Under the bench's upgrade scenario at 100k
-- (56 -> 55 -> 56, three rounds, 4 writers, 4 readers, a reader holding a transaction 20 s): up
-- 30-70 ms, no retry; down 27.2 s, waiting out the reader in five retries; calls at most 421 ms,
-- none refused (docs/operations.md, Upgrades).

{{ template "functions/namespace_types_digest_write.sql" . }}
{{ template "snapshots/056/organization_move_in.sql" . }}

lock table lifecycle.namespaces, lifecycle.states, lifecycle.namespace_state_updates, lifecycle.events
  in access exclusive mode;

alter table lifecycle.namespaces
  drop constraint namespaces_state_fkey,
  drop constraint namespaces_type_known,
  drop constraint namespaces_root_only_type_is_root,
  drop constraint namespaces_no_self_parent,
  drop constraint namespaces_id_range;
alter table lifecycle.namespace_state_updates
  drop constraint namespace_state_updates_from_state_fkey,
  drop constraint namespace_state_updates_to_state_fkey,
  drop constraint namespace_state_updates_event_fkey;

{{ template "triggers/namespaces_traversal_ids_maintain.sql" . }}
{{ template "triggers/states_in_use_guard.sql" . }}
revoke all on function lifecycle.states_in_use_guard() from public;
{{ template "triggers/events_in_use_guard.sql" . }}
revoke all on function lifecycle.events_in_use_guard() from public;

---- create above / drop below ----

{{ template "snapshots/050/organization_move_in.sql" . }}
{{ template "snapshots/045/namespace_types_digest_write.sql" . }}

lock table lifecycle.namespaces, lifecycle.states, lifecycle.namespace_state_updates, lifecycle.events
  in access exclusive mode;

drop trigger events_in_use_guard_truncate on lifecycle.events;
drop trigger events_in_use_guard on lifecycle.events;
drop function lifecycle.events_in_use_guard();
drop trigger states_in_use_guard_truncate on lifecycle.states;
drop trigger states_in_use_guard on lifecycle.states;
drop function lifecycle.states_in_use_guard();
{{ template "snapshots/045/namespaces_traversal_ids_maintain.sql" . }}

-- The constraints as 001, 002, 029 and 046 left them, validated but for namespaces_id_range.
-- Accepted (sql/README.md, Migrations without stalls): the way back to 055, whose schema has them
-- validated; the scans run under the ACCESS EXCLUSIVE taken above (the header says what it costs).
alter table lifecycle.namespace_state_updates
  -- squawk-ignore constraint-missing-not-valid, adding-foreign-key-constraint
  add constraint namespace_state_updates_from_state_fkey foreign key (from_state) references lifecycle.states (code),
  -- squawk-ignore constraint-missing-not-valid, adding-foreign-key-constraint
  add constraint namespace_state_updates_to_state_fkey foreign key (to_state) references lifecycle.states (code),
  -- squawk-ignore constraint-missing-not-valid, adding-foreign-key-constraint
  add constraint namespace_state_updates_event_fkey foreign key (event) references lifecycle.events (name);
alter table lifecycle.namespaces
  -- squawk-ignore constraint-missing-not-valid, adding-foreign-key-constraint
  add constraint namespaces_state_fkey foreign key (state) references lifecycle.states (code),
  -- squawk-ignore constraint-missing-not-valid
  add constraint namespaces_no_self_parent check (parent_id <> id),
  -- squawk-ignore constraint-missing-not-valid
  add constraint namespaces_type_known check (lifecycle.namespace_type_known(type)),
  -- squawk-ignore constraint-missing-not-valid
  add constraint namespaces_root_only_type_is_root
    check (parent_id is null or not lifecycle.namespace_type_root_only(type)),
  add constraint namespaces_id_range check (id between 1 and 9223372036854775806) not valid;
comment on constraint namespaces_id_range on lifecycle.namespaces is
  '0 is the "no parent" key of sibling paths (coalesce(parent_id, 0)); the subtree bound of the guards is the last id + 1.';
