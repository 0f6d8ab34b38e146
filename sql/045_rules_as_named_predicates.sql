-- A rule that is a row is no longer also a literal (issue 27, point 1): every property of a state
-- or a namespace type that a statement, a check or an index asks is a named predicate written from
-- the rows (lifecycle.state_path_live(code), state_is_own, state_sets_effective,
-- state_deletion_adjourned, state_being_created, state_operation; namespace_type_known,
-- _root_only, _transferable, _can_be_parent), and no live function compares a state with a code
-- but those sql/literals_test.go lists as pending, each with its reason.
-- The predicates are IMMUTABLE SQL functions whose bodies the statement triggers of
-- lifecycle.states and lifecycle.namespace_types rewrite (states_digest_write,
-- namespace_types_digest_write), as state_names() is: every caller inlines them, so a transition
-- runs the same expressions as before, and the indexes (046) ask the same predicates as the
-- queries, which is how the planner matches them.
--
-- The properties that were only literals become columns: states.inherited (ancestor_inherited,
-- code 0: no state of its own), deletion_adjourned (deletion_scheduled: the grace period, the
-- sweeper's deletion after it, delete now), being_created (creation_in_progress: the sweeper
-- deletes it after the creation timeout); the four types, listed in four places, become the table
-- lifecycle.namespace_types with what each may do.
--
-- Until 046 rebuilds the indexes on the predicates, the queries still meet 003's and 002's index
-- predicates (the predicates inline to the same expressions: state <> 2 and state <> 4, state <>
-- 0, state = 2), except namespace_effective_state's probe, whose index 046 builds anew: in between
-- it reads the path's rows by primary key.

-- The two tables changed below, locked first, in the order the writers take them (a change holds
-- its namespace's row, then the gate reads lifecycle.states): ALTER TABLE of states first, then
-- the triggers on namespaces, took states' lock and then waited for writers that held namespaces
-- and queued behind it, and under a steady write load every attempt timed out (the bench's
-- upgrade scenario, 44 -> 45, 10 of 10).
lock table lifecycle.namespaces in share row exclusive mode;
lock table lifecycle.states in access exclusive mode;
alter table lifecycle.states
  add column inherited boolean not null default false,
  add column deletion_adjourned boolean not null default false,
  add column being_created boolean not null default false;
comment on column lifecycle.states.inherited is
  'No state of its own: a namespace in it takes its effective state from the path (lifecycle.state_is_own is false).';
comment on column lifecycle.states.deletion_adjourned is
  'A soft deletion: restorable by a user until the grace period (settings.deletion_adjourned_period_days) ends, then hard-deleted by the sweeper; entering it from a permanent state records deletion_scheduled_at/_by.';
comment on column lifecycle.states.being_created is
  'The application is still creating the namespace; the sweeper deletes it after the creation timeout.';

{{ template "snapshots/045/states_digest_write.sql" . }}
-- The seed rows: the one place these codes are written.
update lifecycle.states set inherited = (code = 0), deletion_adjourned = (code = 2), being_created = (code = 3);

create table lifecycle.namespace_types (
  name text primary key,
  description text not null,
  root_only boolean not null default false,
  transferable boolean not null default true,
  can_be_parent boolean not null default true
);
comment on table lifecycle.namespace_types is
  'The namespace types (lifecycle.namespaces.type) and what a namespace of each may do; read through the predicates its trigger namespace_types_digest writes.';
comment on column lifecycle.namespace_types.root_only is 'Only ever a root: never below a parent.';
comment on column lifecycle.namespace_types.transferable is 'May move to another parent (a transfer).';
comment on column lifecycle.namespace_types.can_be_parent is 'May have children.';
grant select on lifecycle.namespace_types to lifecycle_app, lifecycle_worker;

{{ template "snapshots/045/namespace_types_digest_write.sql" . }}
revoke all on function lifecycle.namespace_types_digest_write() from public;
{{ template "triggers/namespace_types_digest.sql" . }}
revoke all on function lifecycle.namespace_types_digest() from public;
insert into lifecycle.namespace_types (name, description, root_only, transferable, can_be_parent) values
  ('organization', 'The root of a tree: an organization.', true, false, true),
  ('group', 'A group or subgroup.', false, true, true),
  ('project', 'A project: a leaf.', false, true, false),
  ('user', 'A user''s personal namespace.', false, false, true);

{{ template "snapshots/045/transition_refusal.sql" . }}
{{ template "snapshots/045/namespaces_state_gate.sql" . }}
{{ template "snapshots/045/namespace_lock.sql" . }}
{{ template "triggers/namespaces_paths.sql" . }}
{{ template "snapshots/045/namespaces_traversal_ids_maintain.sql" . }}
{{ template "functions/transfer_target_refusal.sql" . }}
{{ template "functions/namespace_effective_state.sql" . }}
{{ template "functions/namespace_effective_states_below_any.sql" . }}
{{ template "functions/check_invariants.sql" . }}
{{ template "functions/sweep_deletion_candidates.sql" . }}
{{ template "functions/sweep_stuck_operations.sql" . }}
{{ template "functions/legacy_path_redirect.sql" . }}
{{ template "functions/legacy_tree_final_path.sql" . }}
{{ template "functions/legacy_tree_delete.sql" . }}
{{ template "functions/legacy_tree_bridge_add.sql" . }}
{{ template "functions/legacy_bridge_sync.sql" . }}
{{ template "functions/organization_move_out_start.sql" . }}
{{ template "snapshots/045/organization_move_in.sql" . }}
{{ template "functions/namespace_resolve.sql" . }}
{{ template "snapshots/045/legacy_bridge_add.sql" . }}

---- create above / drop below ----

-- As in the up part: the writers' order.
lock table lifecycle.namespaces in share row exclusive mode;
lock table lifecycle.states in access exclusive mode;
{{ template "snapshots/042/transition_refusal.sql" . }}
{{ template "snapshots/032/namespaces_state_gate.sql" . }}
{{ template "snapshots/037/namespace_lock.sql" . }}
{{ template "snapshots/013/namespaces_paths.sql" . }}
{{ template "snapshots/031/namespaces_traversal_ids_maintain.sql" . }}
{{ template "snapshots/011/transfer_target_refusal.sql" . }}
{{ template "snapshots/028/namespace_effective_state.sql" . }}
{{ template "snapshots/011/check_invariants.sql" . }}
{{ template "snapshots/037/legacy_bridge_sync.sql" . }}
{{ template "snapshots/039/organization_move_out_start.sql" . }}
{{ template "snapshots/039/organization_move_in.sql" . }}
{{ template "snapshots/037/namespace_resolve.sql" . }}
{{ template "snapshots/044/legacy_bridge_add.sql" . }}
-- Their earlier versions say create, not create or replace, and grants depend on them: replaced
-- in place.
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/034/namespace_effective_states_below_any.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/005/sweep_deletion_candidates.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/005/sweep_stuck_operations.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/037/legacy_path_redirect.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/037/legacy_tree_final_path.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/037/legacy_tree_delete.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/037/legacy_tree_bridge_add.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;

drop table lifecycle.namespace_types;
drop function lifecycle.namespace_types_digest();
drop function lifecycle.namespace_types_digest_write();
drop function lifecycle.namespace_type_names();
drop function lifecycle.namespace_type_known(text);
drop function lifecycle.namespace_type_root_only(text);
drop function lifecycle.namespace_type_transferable(text);
drop function lifecycle.namespace_type_can_be_parent(text);

{{ template "snapshots/021/states_digest_write.sql" . }}
drop function lifecycle.state_is_own(smallint);
drop function lifecycle.state_sets_effective(smallint);
drop function lifecycle.state_path_live(smallint);
drop function lifecycle.state_deletion_adjourned(smallint);
drop function lifecycle.state_being_created(smallint);
drop function lifecycle.state_operation(smallint);
alter table lifecycle.states drop column inherited, drop column deletion_adjourned, drop column being_created;
