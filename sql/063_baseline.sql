-- Release 1.0.0's baseline: the whole schema at version 63 in one step, for an empty database. A
-- database migrated to 63 before the release is at this point already; one below 63 is refused
-- (internal/migration, ErrBeforeBaseline). What each file is: sql/README.md.
--
-- The order is the dependencies': the tables the rules live in, with their rows; the digests the
-- rules' triggers would write from those rows (the named predicates the partial indexes of
-- namespaces are built on); the tables of namespaces; the functions; the triggers; the grants.

{{ template "released/1.0.0/roles.sql" . }}

-- The composite types the API and the rules digest return.
{{ template "types/event_rule.sql" . }}
{{ template "types/state_change.sql" . }}
{{ template "types/transition_rule.sql" . }}

-- The tables that do not refer to namespaces, the rules tables among them with their rows. Their
-- triggers come with the others, below.
{{ template "tables/audit_events.sql" . }}
{{ template "tables/deleted_namespaces.sql" . }}
{{ template "tables/effective_states.sql" . }}
{{ template "tables/effective_states_pending.sql" . }}
{{ template "tables/states.sql" . }}
{{ template "tables/events.sql" . }}
{{ template "tables/event_sources.sql" . }}
{{ template "tables/fact_dead_letters.sql" . }}
{{ template "tables/fact_key.sql" . }}
{{ template "tables/facts.sql" . }}
{{ template "tables/id_range.sql" . }}
{{ template "released/1.0.0/tables/json_schemas.sql" . }}
{{ template "tables/legacy_bridge_states.sql" . }}
{{ template "tables/legacy_bridges.sql" . }}
{{ template "tables/legacy_members_bridges.sql" . }}
{{ template "tables/legacy_tree_bridges.sql" . }}
{{ template "tables/lock_rows.sql" . }}
{{ template "tables/visibility_levels.sql" . }}
{{ template "tables/namespace_imports.sql" . }}
{{ template "tables/namespace_state_updates.sql" . }}
{{ template "tables/namespace_types.sql" . }}
{{ template "tables/notifications.sql" . }}
{{ template "tables/operation_policies.sql" . }}
{{ template "tables/organization_imports.sql" . }}
{{ template "tables/organization_moves.sql" . }}
{{ template "tables/path_claims.sql" . }}
{{ template "tables/reserved_paths.sql" . }}
{{ template "tables/settings.sql" . }}
{{ template "tables/state_transitions.sql" . }}
{{ template "tables/sweep_claims.sql" . }}
{{ template "tables/syncer_progress.sql" . }}
{{ template "tables/transaction_flags.sql" . }}
{{ template "tables/transition_guards.sql" . }}
{{ template "tables/transition_policies.sql" . }}

-- The digests of the rules tables, written once from their rows: afterwards their statement
-- triggers write them on every change.
{{ template "released/1.0.0/functions/states_digest_write.sql" . }}
{{ template "functions/namespace_types_digest_write.sql" . }}
{{ template "functions/transition_rules_write.sql" . }}
select lifecycle.states_digest_write();
select lifecycle.namespace_types_digest_write();
select lifecycle.transition_rules_write();

-- The namespaces and what refers to them.
{{ template "tables/namespaces.sql" . }}
{{ template "tables/namespace_details.sql" . }}
{{ template "tables/namespace_members.sql" . }}
{{ template "tables/namespace_redirects.sql" . }}
{{ template "tables/transfer_requests.sql" . }}
{{ template "tables/webhooks.sql" . }}
{{ template "tables/webhook_deliveries.sql" . }}
{{ template "views/effective_states_computed.sql" . }}

-- hmac_sha256's body binds pgcrypto's hmac at creation: found in pgcrypto's schema, whichever it
-- is (a catalog name, quoted), for this transaction only.
select pg_catalog.set_config('search_path', pg_catalog.quote_ident(n.nspname), true)
  from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
 where e.extname = 'pgcrypto';
{{ template "functions/hmac_sha256.sql" . }}
reset search_path;

-- The functions, in name order but where a SQL-standard body names another (bound at creation).
-- A SQL body written as a string is checked when it is created, so it would need every function it
-- names first: as pg_dump does, that check waits for the first call. These bodies all ran as they
-- are; the tests call each one.
set local check_function_bodies to off;
{{ template "functions/actor_refusal.sql" . }}
{{ template "functions/caller_may_act_as_system.sql" . }}
{{ template "functions/character_refusal.sql" . }}
{{ template "functions/check_invariants.sql" . }}
{{ template "functions/effective_states_apply.sql" . }}
{{ template "functions/effective_states_refresh.sql" . }}
{{ template "functions/effective_states_verify.sql" . }}
{{ template "functions/effective_states_write.sql" . }}
{{ template "functions/fact_emit.sql" . }}
{{ template "functions/fact_mac.sql" . }}
{{ template "functions/fact_message_adopt.sql" . }}
{{ template "functions/fact_refusal.sql" . }}
{{ template "functions/facts_record.sql" . }}
{{ template "functions/facts_record_pending.sql" . }}
{{ template "functions/id_range_set.sql" . }}
{{ template "functions/importing_unconfirmed_refuse.sql" . }}
{{ template "functions/jsonb_schema_violation.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_add.sql" . }}
{{ template "functions/legacy_bridge_apply.sql" . }}
{{ template "functions/legacy_bridge_attnum.sql" . }}
{{ template "functions/legacy_bridge_backfill.sql" . }}
{{ template "functions/legacy_bridge_broken.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_check.sql" . }}
{{ template "functions/legacy_bridge_check_statement.sql" . }}
{{ template "functions/legacy_bridge_column.sql" . }}
{{ template "functions/legacy_bridge_drop.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_holds.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_lock.sql" . }}
{{ template "functions/legacy_bridge_refuse.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_rows.sql" . }}
{{ template "functions/legacy_bridge_says.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_sync.sql" . }}
{{ template "functions/legacy_bridge_unhook.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_usable.sql" . }}
{{ template "functions/legacy_bridge_watch.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_write.sql" . }}
{{ template "released/1.0.0/functions/legacy_members.sql" . }}
{{ template "released/1.0.0/functions/legacy_members_bridge_add.sql" . }}
{{ template "functions/legacy_members_bridge_drop.sql" . }}
{{ template "released/1.0.0/functions/legacy_members_check.sql" . }}
{{ template "functions/legacy_members_statement.sql" . }}
{{ template "functions/path_normalised.sql" . }}
{{ template "functions/legacy_path_suffixed.sql" . }}
{{ template "functions/legacy_path_matches.sql" . }}
{{ template "released/1.0.0/functions/legacy_path_redirect.sql" . }}
{{ template "released/1.0.0/functions/legacy_tree_bridge_add.sql" . }}
{{ template "functions/legacy_tree_bridge_drop.sql" . }}
{{ template "functions/legacy_tree_broken.sql" . }}
{{ template "released/1.0.0/functions/legacy_tree_create.sql" . }}
{{ template "functions/legacy_tree_delete.sql" . }}
{{ template "released/1.0.0/functions/legacy_tree_final_path.sql" . }}
{{ template "released/1.0.0/functions/legacy_tree_holds.sql" . }}
{{ template "functions/legacy_tree_refuse.sql" . }}
{{ template "functions/legacy_tree_row.sql" . }}
{{ template "functions/legacy_tree_update.sql" . }}
{{ template "released/1.0.0/functions/legacy_tree_write.sql" . }}
{{ template "functions/name_refusal.sql" . }}
{{ template "functions/namespace_access_level.sql" . }}
{{ template "functions/namespace_access_level_row.sql" . }}
{{ template "functions/namespace_available_transitions.sql" . }}
{{ template "functions/namespace_change_state.sql" . }}
{{ template "functions/namespace_effective_state.sql" . }}
{{ template "functions/namespace_effective_states_below_any.sql" . }}
{{ template "functions/namespace_effective_states_below.sql" . }}
{{ template "functions/namespace_event.sql" . }}
{{ template "functions/namespace_full_path.sql" . }}
{{ template "released/1.0.0/functions/namespace_hard_delete.sql" . }}
{{ template "functions/namespace_hard_delete_all.sql" . }}
{{ template "functions/namespace_import_apply.sql" . }}
{{ template "released/1.0.0/functions/namespace_import_batch.sql" . }}
{{ template "functions/namespace_import_finish.sql" . }}
{{ template "functions/namespace_import_prepare.sql" . }}
{{ template "functions/namespace_import_run.sql" . }}
{{ template "functions/namespace_import_skips_rechecks.sql" . }}
{{ template "functions/namespace_import_tables_check.sql" . }}
{{ template "functions/namespace_lock.sql" . }}
{{ template "functions/namespace_lock_path.sql" . }}
{{ template "functions/namespace_lock_sibling_path.sql" . }}
{{ template "functions/namespace_max_depth.sql" . }}
{{ template "functions/namespace_rename.sql" . }}
{{ template "functions/namespace_resolve.sql" . }}
{{ template "functions/namespace_set_visibility.sql" . }}
{{ template "functions/namespace_transfer_accept.sql" . }}
{{ template "functions/namespace_transfer_cancel.sql" . }}
{{ template "functions/namespace_transfer_decline.sql" . }}
{{ template "functions/namespace_transfer_execute.sql" . }}
{{ template "released/1.0.0/functions/namespace_transfer_request.sql" . }}
{{ template "functions/namespace_transition.sql" . }}
{{ template "functions/operation_check.sql" . }}
{{ template "released/1.0.0/functions/organization_export.sql" . }}
{{ template "functions/organization_move_claim.sql" . }}
{{ template "released/1.0.0/functions/organization_move_in.sql" . }}
{{ template "functions/organization_move_out_cancel.sql" . }}
{{ template "functions/organization_move_out_finish.sql" . }}
{{ template "functions/organization_move_out_start.sql" . }}
{{ template "functions/organization_moving_check.sql" . }}
{{ template "functions/path_refusal.sql" . }}
{{ template "functions/path_slug_refusal.sql" . }}
{{ template "functions/read_only_refusal.sql" . }}
{{ template "functions/settings_refusal.sql" . }}
{{ template "functions/state_code.sql" . }}
{{ template "functions/state_diagram.sql" . }}
{{ template "functions/state_metadata_refusal.sql" . }}
{{ template "functions/state_name.sql" . }}
{{ template "functions/sweep_abandoned_creation.sql" . }}
{{ template "functions/sweep_adjourned_deletion.sql" . }}
{{ template "functions/sweep_claim.sql" . }}
{{ template "functions/sweep_deletion_candidates.sql" . }}
{{ template "functions/sweep_deletion_failed.sql" . }}
{{ template "functions/sweep_release.sql" . }}
{{ template "functions/sweep_stuck_operations.sql" . }}
{{ template "functions/syncer_progress_save.sql" . }}
{{ template "functions/syncer_publication_ensure.sql" . }}
{{ template "functions/transaction_flag_lower.sql" . }}
{{ template "functions/transaction_flag_raise.sql" . }}
{{ template "functions/transaction_flag_raised.sql" . }}
{{ template "functions/transfer_accept_locked.sql" . }}
{{ template "functions/transfer_request_lock.sql" . }}
{{ template "functions/transfer_request_lock_open.sql" . }}
{{ template "functions/transfer_requests_expire.sql" . }}
{{ template "released/1.0.0/functions/transfer_target_refusal.sql" . }}
{{ template "functions/transition_refusal.sql" . }}
{{ template "released/1.0.0/functions/webhook_address_refusal.sql" . }}
{{ template "functions/webhook_allowed_hosts_refusal.sql" . }}
{{ template "functions/webhook_deliveries_claim.sql" . }}
{{ template "functions/webhook_delivery_result.sql" . }}
{{ template "released/1.0.0/functions/webhook_url_refusal.sql" . }}

-- The triggers, each file its function and the triggers that call it.
{{ template "triggers/deleted_namespaces_facts.sql" . }}
{{ template "triggers/events_in_use_guard.sql" . }}
{{ template "triggers/facts_truncated.sql" . }}
{{ template "triggers/legacy_bridge_source.sql" . }}
{{ template "triggers/legacy_bridge_state.sql" . }}
{{ template "released/1.0.0/triggers/legacy_members_source.sql" . }}
{{ template "released/1.0.0/triggers/legacy_members_state.sql" . }}
{{ template "triggers/legacy_tree_source.sql" . }}
{{ template "released/1.0.0/triggers/legacy_tree_state.sql" . }}
{{ template "triggers/namespace_details_validate.sql" . }}
{{ template "triggers/namespace_members_facts.sql" . }}
{{ template "triggers/namespace_members_validate.sql" . }}
{{ template "triggers/namespace_types_digest.sql" . }}
{{ template "released/1.0.0/triggers/namespaces_deletion_guard.sql" . }}
{{ template "triggers/namespaces_effective_states.sql" . }}
{{ template "triggers/namespaces_facts.sql" . }}
{{ template "triggers/namespaces_moves.sql" . }}
{{ template "triggers/namespaces_paths.sql" . }}
{{ template "triggers/namespaces_state_gate.sql" . }}
{{ template "triggers/namespaces_state_record.sql" . }}
{{ template "triggers/namespaces_traversal_ids_cascade.sql" . }}
{{ template "triggers/namespaces_traversal_ids_maintain.sql" . }}
{{ template "triggers/namespaces_visibility.sql" . }}
{{ template "triggers/organization_moving_guard.sql" . }}
{{ template "triggers/settings_confirmed.sql" . }}
{{ template "triggers/settings_validate.sql" . }}
{{ template "triggers/states_digest.sql" . }}
{{ template "triggers/states_in_use_guard.sql" . }}
{{ template "triggers/transfer_requests_facts.sql" . }}
{{ template "triggers/transition_rules_digest.sql" . }}
{{ template "released/1.0.0/triggers/webhooks_validate.sql" . }}

{{ template "released/1.0.0/grants.sql" . }}

---- create above / drop below ----

-- Everything the baseline made, in the order the dependencies allow: the view, the functions
-- (SQL-standard bodies and row-typed arguments depend on the tables), the tables with their
-- indexes and triggers, then the trigger functions, the digests and the types. The roles stay (cluster-wide).
drop view lifecycle.effective_states_computed;
drop routine lifecycle.actor_refusal(bigint,bigint[],bigint,smallint,text),
  lifecycle.caller_may_act_as_system(),
  lifecycle.character_refusal(text,text),
  lifecycle.check_invariants(),
  lifecycle.effective_states_apply(),
  lifecycle.effective_states_refresh(),
  lifecycle.effective_states_verify(),
  lifecycle.effective_states_write(bigint[]),
  lifecycle.fact_emit(text,bigint,bigint[],text,bigint,jsonb),
  lifecycle.fact_mac(jsonb),
  lifecycle.fact_message_adopt(jsonb,timestamp with time zone),
  lifecycle.fact_refusal(jsonb),
  lifecycle.facts_record(bigint[],pg_lsn[],integer[],timestamp with time zone[],bigint[]),
  lifecycle.facts_record_pending(integer,interval),
  lifecycle.hmac_sha256(bytea,bytea),
  lifecycle.id_range_set(bigint,bigint),
  lifecycle.importing_unconfirmed_refuse(text),
  lifecycle.jsonb_schema_violation(jsonb,jsonb,text),
  lifecycle.legacy_bridge_add(regclass,name,text,name,name,name,text[],bigint,boolean),
  lifecycle.legacy_bridge_apply(smallint,bigint,timestamp with time zone,bigint),
  lifecycle.legacy_bridge_attnum(regclass,name,regtype[],text,text),
  lifecycle.legacy_bridge_backfill(),
  lifecycle.legacy_bridge_broken(lifecycle.legacy_bridges),
  lifecycle.legacy_bridge_check(),
  lifecycle.legacy_bridge_check_statement(),
  lifecycle.legacy_bridge_column(regclass,smallint),
  lifecycle.legacy_bridge_drop(regclass),
  lifecycle.legacy_bridge_holds(lifecycle.legacy_bridges,bigint,text),
  lifecycle.legacy_bridge_lock(bigint,text),
  lifecycle.legacy_bridge_refuse(lifecycle.legacy_bridges,text,bigint),
  lifecycle.legacy_bridge_rows(),
  lifecycle.legacy_bridge_says(smallint,smallint,text),
  lifecycle.legacy_bridge_sync(bigint),
  lifecycle.legacy_bridge_unhook(regclass,regclass,name,regclass,name),
  lifecycle.legacy_bridge_usable(lifecycle.legacy_bridges,bigint),
  lifecycle.legacy_bridge_watch(regclass),
  lifecycle.legacy_bridge_write(lifecycle.legacy_bridges,bigint,boolean,timestamp with time zone,bigint),
  lifecycle.legacy_members(regclass,regclass,bigint,bigint,jsonb),
  lifecycle.legacy_members_bridge_add(regclass,regclass,text[]),
  lifecycle.legacy_members_bridge_drop(regclass),
  lifecycle.legacy_members_check(),
  lifecycle.legacy_members_statement(regclass,regclass,boolean),
  lifecycle.legacy_path_matches(text,text,bigint),
  lifecycle.legacy_path_redirect(bigint,text,bigint),
  lifecycle.legacy_path_suffixed(text,bigint),
  lifecycle.legacy_tree_bridge_add(regclass,name,name,name,name,name,name,jsonb,text[],bigint,jsonb),
  lifecycle.legacy_tree_bridge_drop(regclass),
  lifecycle.legacy_tree_broken(lifecycle.legacy_tree_bridges),
  lifecycle.legacy_tree_create(lifecycle.legacy_tree_bridges,bigint,bigint,text,text,text,text),
  lifecycle.legacy_tree_delete(lifecycle.legacy_tree_bridges,bigint),
  lifecycle.legacy_tree_final_path(text,bigint,bigint),
  lifecycle.legacy_tree_holds(bigint,text),
  lifecycle.legacy_tree_refuse(lifecycle.legacy_tree_bridges,text,bigint),
  lifecycle.legacy_tree_row(lifecycle.legacy_tree_bridges,jsonb),
  lifecycle.legacy_tree_update(lifecycle.legacy_tree_bridges,bigint,bigint,text,text,text,text),
  lifecycle.legacy_tree_write(lifecycle.legacy_tree_bridges,text,bigint,bigint,text,text,text,text),
  lifecycle.name_refusal(text),
  lifecycle.namespace_access_level(bigint[],bigint),
  lifecycle.namespace_access_level_row(bigint[],bigint),
  lifecycle.namespace_available_transitions(bigint,bigint),
  lifecycle.namespace_change_state(bigint,text,text,bigint,jsonb,text,timestamp with time zone,text),
  lifecycle.namespace_effective_state(bigint),
  lifecycle.namespace_effective_states_below(bigint),
  lifecycle.namespace_effective_states_below_any(bigint[]),
  lifecycle.namespace_event(bigint,text,bigint,jsonb),
  lifecycle.namespace_full_path(bigint),
  lifecycle.namespace_hard_delete(bigint,integer),
  lifecycle.namespace_hard_delete_all(bigint,integer),
  lifecycle.namespace_import_apply(),
  lifecycle.namespace_import_batch(integer),
  lifecycle.namespace_import_finish(),
  lifecycle.namespace_import_prepare(),
  lifecycle.namespace_import_run(integer,bigint,bigint),
  lifecycle.namespace_import_skips_rechecks(),
  lifecycle.namespace_import_tables_check(),
  lifecycle.namespace_lock(bigint),
  lifecycle.namespace_lock_path(bigint[],boolean),
  lifecycle.namespace_lock_sibling_path(bigint,text),
  lifecycle.namespace_max_depth(),
  lifecycle.namespace_rename(bigint,text,bigint),
  lifecycle.namespace_resolve(text),
  lifecycle.namespace_set_visibility(bigint,text,bigint),
  lifecycle.namespace_transfer_accept(bigint,bigint),
  lifecycle.namespace_transfer_cancel(bigint,bigint),
  lifecycle.namespace_transfer_decline(bigint,bigint),
  lifecycle.namespace_transfer_execute(bigint),
  lifecycle.namespace_transfer_request(bigint,bigint,bigint),
  lifecycle.namespace_transition(bigint,text,bigint,jsonb),
  lifecycle.namespace_types_digest_write(),
  lifecycle.operation_check(lifecycle.namespaces,bigint,text,text,boolean),
  lifecycle.organization_export(bigint),
  lifecycle.organization_move_claim(bigint),
  lifecycle.organization_move_in(bigint,text),
  lifecycle.organization_move_out_cancel(text),
  lifecycle.organization_move_out_finish(bigint),
  lifecycle.organization_move_out_start(text,text),
  lifecycle.organization_moving_check(bigint[]),
  lifecycle.path_normalised(text),
  lifecycle.path_refusal(text,bigint),
  lifecycle.path_slug_refusal(text),
  lifecycle.read_only_refusal(bigint,text),
  lifecycle.settings_refusal(lifecycle.settings),
  lifecycle.state_code(text),
  lifecycle.state_diagram(),
  lifecycle.state_metadata_refusal(jsonb),
  lifecycle.state_name(smallint),
  lifecycle.states_digest_write(),
  lifecycle.sweep_abandoned_creation(bigint,timestamp with time zone,interval),
  lifecycle.sweep_adjourned_deletion(bigint,timestamp with time zone),
  lifecycle.sweep_claim(bigint),
  lifecycle.sweep_deletion_candidates(timestamp with time zone,integer,integer,timestamp with time zone,bigint),
  lifecycle.sweep_deletion_failed(bigint,text,integer),
  lifecycle.sweep_release(bigint),
  lifecycle.sweep_stuck_operations(timestamp with time zone,interval,interval,integer),
  lifecycle.syncer_progress_save(text,pg_lsn,timestamp with time zone),
  lifecycle.syncer_publication_ensure(text),
  lifecycle.transaction_flag_lower(text),
  lifecycle.transaction_flag_raise(text),
  lifecycle.transaction_flag_raised(text),
  lifecycle.transfer_accept_locked(lifecycle.transfer_requests,bigint),
  lifecycle.transfer_request_lock(bigint),
  lifecycle.transfer_request_lock_open(bigint,text),
  lifecycle.transfer_requests_expire(timestamp with time zone),
  lifecycle.transfer_target_refusal(bigint,bigint),
  lifecycle.transition_refusal(bigint,bigint[],smallint,smallint,bigint,text,boolean),
  lifecycle.transition_rules_write(),
  lifecycle.webhook_address_refusal(inet),
  lifecycle.webhook_allowed_hosts_refusal(text[]),
  lifecycle.webhook_deliveries_claim(integer,interval),
  lifecycle.webhook_delivery_result(bigint,integer,text,integer,interval),
  lifecycle.webhook_url_refusal(text,text[]);
drop table lifecycle.webhook_deliveries,
  lifecycle.webhooks,
  lifecycle.transition_policies,
  lifecycle.transition_guards,
  lifecycle.transfer_requests,
  lifecycle.transaction_flags,
  lifecycle.syncer_progress,
  lifecycle.sweep_claims,
  lifecycle.state_transitions,
  lifecycle.settings,
  lifecycle.reserved_paths,
  lifecycle.path_claims,
  lifecycle.organization_moves,
  lifecycle.organization_imports,
  lifecycle.operation_policies,
  lifecycle.notifications,
  lifecycle.namespace_types,
  lifecycle.namespace_state_updates,
  lifecycle.namespace_redirects,
  lifecycle.namespace_members,
  lifecycle.namespace_imports,
  lifecycle.namespace_details,
  lifecycle.namespaces,
  lifecycle.visibility_levels,
  lifecycle.lock_rows,
  lifecycle.legacy_tree_bridges,
  lifecycle.legacy_members_bridges,
  lifecycle.legacy_bridges,
  lifecycle.legacy_bridge_states,
  lifecycle.json_schemas,
  lifecycle.id_range,
  lifecycle.facts,
  lifecycle.fact_key,
  lifecycle.fact_dead_letters,
  lifecycle.event_sources,
  lifecycle.events,
  lifecycle.states,
  lifecycle.effective_states_pending,
  lifecycle.effective_states,
  lifecycle.deleted_namespaces,
  lifecycle.audit_events;
-- The trigger functions, and the digests the rule tables' triggers wrote (the partial indexes of
-- namespaces, gone with it, asked the named predicates).
drop routine lifecycle.deleted_namespaces_facts(),
  lifecycle.events_in_use_guard(),
  lifecycle.facts_truncated(),
  lifecycle.legacy_bridge_source(),
  lifecycle.legacy_bridge_state(),
  lifecycle.legacy_members_source(),
  lifecycle.legacy_members_state(),
  lifecycle.legacy_tree_source(),
  lifecycle.legacy_tree_state(),
  lifecycle.namespace_details_validate(),
  lifecycle.namespace_members_facts(),
  lifecycle.namespace_members_validate(),
  lifecycle.namespace_types_digest(),
  lifecycle.namespaces_deletion_guard(),
  lifecycle.namespaces_effective_states(),
  lifecycle.namespaces_facts(),
  lifecycle.namespaces_moves(),
  lifecycle.namespaces_paths(),
  lifecycle.namespaces_state_gate(),
  lifecycle.namespaces_state_record(),
  lifecycle.namespaces_traversal_ids_cascade(),
  lifecycle.namespaces_traversal_ids_maintain(),
  lifecycle.namespaces_visibility(),
  lifecycle.organization_moving_guard(),
  lifecycle.settings_confirmed(),
  lifecycle.settings_validate(),
  lifecycle.states_digest(),
  lifecycle.states_in_use_guard(),
  lifecycle.transfer_requests_facts(),
  lifecycle.transition_rules_digest(),
  lifecycle.webhooks_validate(),
  lifecycle.event_rule(text),
  lifecycle.namespace_type_can_be_parent(text),
  lifecycle.namespace_type_known(text),
  lifecycle.namespace_type_names(),
  lifecycle.namespace_type_root_only(text),
  lifecycle.namespace_type_transferable(text),
  lifecycle.state_being_created(smallint),
  lifecycle.state_deletion_adjourned(smallint),
  lifecycle.state_flag_mask(text),
  lifecycle.state_is_own(smallint),
  lifecycle.state_names(),
  lifecycle.state_operation(smallint),
  lifecycle.state_path_live(smallint),
  lifecycle.state_permanent(smallint),
  lifecycle.state_sets_effective(smallint),
  lifecycle.transition_rule(smallint,smallint);
drop type lifecycle.event_rule, lifecycle.state_change, lifecycle.transition_rule;
revoke usage on schema lifecycle from lifecycle_app, lifecycle_worker;
-- pgcrypto goes only if the baseline installed it (in its own schema), and nothing else has come
-- to depend on it since (then this step fails, and says what).
do $pgcrypto$
begin
  if exists (select from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
              where e.extname = 'pgcrypto' and n.nspname = 'lifecycle_pgcrypto') then
    drop extension pgcrypto;
    drop schema lifecycle_pgcrypto;
  end if;
end
$pgcrypto$;
