-- Operations enter the states they alone can finish, and no setting a client can make skips a
-- bridge (docs/design.md §3.2, §3.6):
--   * lifecycle.states.operation_enters: a state its operation also enters itself. transfer_in_progress
--     is entered only by the transfer's accept, which writes beside it the accepted request that
--     ends it; before this, lifecycle_app with an owner as actor put a namespace there through
--     namespace_transition or namespace_event('transfer_start') with no request, and
--     check_invariants reported in_progress_without_operation. transition_refusal refuses it
--     (NS005) to every caller but the operation's own code path (transfer_accept_locked says
--     'transfer', and so does namespace_transfer_request's early check) and superusers, workers
--     included (GitLab's one role is a worker: it could start a transfer with no request); the
--     digest carries the entered state's operation (transition_rule.to_operation).
--     deletion_in_progress stays open to owners (delete now, a failed creation, the legacy
--     pending_delete): the hard delete needs nothing beside the state to run.
--   * settings_confirmed also refuses a DELETE of a namespace while lifecycle.importing is set
--     without the import's flag: a worker's namespace_hard_delete run with it set skipped the tree
--     bridges' write-back (namespaces_6_legacy_tree), leaving the deleted namespaces' legacy rows.
--   * The rule tables' digest triggers (states_digest, transition_rules_digest) were executable by
--     PUBLIC like every function made after 004's revoke: revoked, as for every other trigger.

-- The two tables whose definitions change, locked first, in the order the writers take them (a
-- change of a namespace holds its row, then its gate reads lifecycle.states); SHARE ROW EXCLUSIVE
-- is what the trigger's replacement takes on namespaces: reads go on.
lock table lifecycle.namespaces in share row exclusive mode;
lock table lifecycle.states in access exclusive mode;

alter type lifecycle.transition_rule add attribute to_operation text;
comment on type lifecycle.transition_rule is
  'What the rule tables say of a change between two states: in the matrix or not, the access level it needs, the states its guards forbid an ancestor and a descendant, the two states'' names and flags, the operation that owns the state left and the one that alone enters the state entered.';
-- A rules table of a few rows: the column and its default are written at once.
alter table lifecycle.states add column operation_enters boolean not null default false;
comment on column lifecycle.states.operation_enters is
  'The operation (states.operation) also enters this state itself: only its own code path, or a superuser, moves a namespace into it (the transfer writes the accepted request that finishes it).';

{{ template "snapshots/042/transition_rules_write.sql" . }}
{{ template "snapshots/042/transition_refusal.sql" . }}
{{ template "functions/transfer_accept_locked.sql" . }}
{{ template "snapshots/042/namespace_transfer_request.sql" . }}
{{ template "snapshots/042/settings_confirmed.sql" . }}

-- The rule, as a row; its statement triggers rewrite the digests (transition_rules_write).
update lifecycle.states set operation_enters = true where name = 'transfer_in_progress';

revoke all on function lifecycle.states_digest(), lifecycle.transition_rules_digest() from public;

---- create above / drop below ----

lock table lifecycle.namespaces in share row exclusive mode;
lock table lifecycle.states, lifecycle.state_transitions, lifecycle.transition_guards, lifecycle.transition_policies,
  lifecycle.events, lifecycle.event_sources in access exclusive mode;

-- The digest trigger functions as 021 and 024 made them, executable by PUBLIC by default (no ACL
-- at all: a GRANT back to PUBLIC would leave an explicit one): made again, with their triggers.
drop function lifecycle.states_digest() cascade;
drop function lifecycle.transition_rules_digest() cascade;
{{ template "triggers/states_digest.sql" . }}
{{ template "triggers/transition_rules_digest.sql" . }}
{{ template "snapshots/032/settings_confirmed.sql" . }}
-- 004's versions say create, not create or replace: replaced in place (their grants stay).
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/004/namespace_transfer_request.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/004/transfer_accept_locked.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
{{ template "snapshots/033/transition_refusal.sql" . }}
{{ template "snapshots/024/transition_rules_write.sql" . }}
alter table lifecycle.states drop column operation_enters;
alter type lifecycle.transition_rule drop attribute to_operation;
comment on type lifecycle.transition_rule is
  'What the rule tables say of a change between two states: in the matrix or not, the access level it needs, the states its guards forbid an ancestor and a descendant, and the two states'' names and flags.';
select lifecycle.transition_rules_write();
