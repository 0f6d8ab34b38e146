-- What each role may do. Functions are executable by PUBLIC unless revoked: every function is
-- revoked from PUBLIC here but the named predicates of states and types (state_is_own, …,
-- namespace_type_names: PostgreSQL inlines a function only for a role that may execute it, see
-- functions/states_digest_write.sql), then granted by name.
grant usage on schema lifecycle to lifecycle_app, lifecycle_worker;

revoke all on function
  lifecycle.actor_refusal(bigint,bigint[],bigint,smallint,text),
  lifecycle.caller_may_act_as_system(),
  lifecycle.character_refusal(text,text),
  lifecycle.check_invariants(),
  lifecycle.deleted_namespaces_facts(),
  lifecycle.effective_states_apply(),
  lifecycle.effective_states_refresh(),
  lifecycle.effective_states_verify(),
  lifecycle.effective_states_write(bigint[]),
  lifecycle.event_rule(text),
  lifecycle.events_in_use_guard(),
  lifecycle.fact_emit(text,bigint,bigint[],text,bigint,jsonb),
  lifecycle.fact_mac(jsonb),
  lifecycle.fact_message_adopt(jsonb,timestamp with time zone),
  lifecycle.fact_refusal(jsonb),
  lifecycle.facts_record(bigint[],pg_lsn[],integer[],timestamp with time zone[],bigint[]),
  lifecycle.facts_record_pending(integer,interval),
  lifecycle.facts_truncated(),
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
  lifecycle.legacy_bridge_source(),
  lifecycle.legacy_bridge_state(),
  lifecycle.legacy_bridge_sync(bigint),
  lifecycle.legacy_bridge_unhook(regclass,regclass,name,regclass,name),
  lifecycle.legacy_bridge_usable(lifecycle.legacy_bridges,bigint),
  lifecycle.legacy_bridge_watch(regclass),
  lifecycle.legacy_bridge_write(lifecycle.legacy_bridges,bigint,boolean,timestamp with time zone,bigint),
  lifecycle.legacy_members(regclass,regclass,bigint,bigint,jsonb),
  lifecycle.legacy_members_bridge_add(regclass,regclass,text[]),
  lifecycle.legacy_members_bridge_drop(regclass),
  lifecycle.legacy_members_check(),
  lifecycle.legacy_members_source(),
  lifecycle.legacy_members_state(),
  lifecycle.legacy_members_statement(regclass,regclass,boolean),
  lifecycle.legacy_members_write(lifecycle.legacy_members_bridges,name,bigint,bigint,boolean,bigint,bigint,smallint,timestamp with time zone,boolean),
  lifecycle.legacy_path_matches(text,text,bigint),
  lifecycle.legacy_path_redirect(bigint,text,bigint),
  lifecycle.legacy_path_suffixed(text,bigint),
  lifecycle.legacy_rows_delete(regclass,name,bigint),
  lifecycle.legacy_tree_bridge_add(regclass,name,name,name,name,name,name,jsonb,text[],bigint,jsonb),
  lifecycle.legacy_tree_bridge_drop(regclass),
  lifecycle.legacy_tree_broken(lifecycle.legacy_tree_bridges),
  lifecycle.legacy_tree_create(lifecycle.legacy_tree_bridges,bigint,bigint,text,text,text,text),
  lifecycle.legacy_tree_delete(lifecycle.legacy_tree_bridges,bigint),
  lifecycle.legacy_tree_final_path(text,bigint,bigint),
  lifecycle.legacy_tree_holds(bigint,text),
  lifecycle.legacy_tree_refuse(lifecycle.legacy_tree_bridges,text,bigint),
  lifecycle.legacy_tree_row(lifecycle.legacy_tree_bridges,jsonb),
  lifecycle.legacy_tree_source(),
  lifecycle.legacy_tree_state(),
  lifecycle.legacy_tree_update(lifecycle.legacy_tree_bridges,bigint,bigint,text,text,text,text),
  lifecycle.legacy_tree_write(lifecycle.legacy_tree_bridges,text,bigint,bigint,text,text,text,text),
  lifecycle.legacy_writer_check(regproc),
  lifecycle.legacy_writer_grant(regclass,boolean,name),
  lifecycle.name_refusal(text),
  lifecycle.namespace_access_level(bigint[],bigint),
  lifecycle.namespace_access_level_row(bigint[],bigint),
  lifecycle.namespace_available_transitions(bigint,bigint),
  lifecycle.namespace_change_state(bigint,text,text,bigint,jsonb,text,timestamp with time zone,text),
  lifecycle.namespace_details_validate(),
  lifecycle.namespace_effective_state(bigint),
  lifecycle.namespace_effective_states_below(bigint),
  lifecycle.namespace_effective_states_below_any(bigint[]),
  lifecycle.namespace_event(bigint,text,bigint,jsonb),
  lifecycle.namespace_full_path(bigint),
  lifecycle.namespace_hard_delete(bigint,integer),
  lifecycle.namespace_import_apply(),
  lifecycle.namespace_import_batch(integer),
  lifecycle.namespace_import_finish(),
  lifecycle.namespace_import_prepare(),
  lifecycle.namespace_import_skips_rechecks(),
  lifecycle.namespace_import_tables_check(),
  lifecycle.namespace_lock(bigint),
  lifecycle.namespace_lock_path(bigint[],boolean),
  lifecycle.namespace_lock_sibling_path(bigint,text),
  lifecycle.namespace_max_depth(),
  lifecycle.namespace_member_remove(bigint,bigint),
  lifecycle.namespace_members_facts(),
  lifecycle.namespace_members_validate(),
  lifecycle.namespace_rename(bigint,text,bigint),
  lifecycle.namespace_resolve(text),
  lifecycle.namespace_set_visibility(bigint,text,bigint),
  lifecycle.namespace_transfer_accept(bigint,bigint),
  lifecycle.namespace_transfer_cancel(bigint,bigint),
  lifecycle.namespace_transfer_decline(bigint,bigint),
  lifecycle.namespace_transfer_execute(bigint),
  lifecycle.namespace_transfer_request(bigint,bigint,bigint),
  lifecycle.namespace_transition(bigint,text,bigint,jsonb),
  lifecycle.namespace_types_digest(),
  lifecycle.namespace_types_digest_write(),
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
  lifecycle.operation_check(lifecycle.namespaces,bigint,text,text,boolean),
  lifecycle.organization_export(bigint),
  lifecycle.organization_move_claim(bigint),
  lifecycle.organization_move_in(bigint,text),
  lifecycle.organization_move_out_cancel(text),
  lifecycle.organization_move_out_finish(bigint),
  lifecycle.organization_move_out_start(text,text),
  lifecycle.organization_moving_check(bigint[]),
  lifecycle.organization_moving_guard(),
  lifecycle.path_normalised(text),
  lifecycle.path_refusal(text,bigint),
  lifecycle.path_slug_refusal(text),
  lifecycle.read_only_refusal(bigint,text),
  lifecycle.settings_confirmed(),
  lifecycle.settings_refusal(lifecycle.settings),
  lifecycle.settings_validate(),
  lifecycle.state_code(text),
  lifecycle.state_diagram(),
  lifecycle.state_flag_mask(text),
  lifecycle.state_metadata_refusal(jsonb),
  lifecycle.state_name(smallint),
  lifecycle.state_names(),
  lifecycle.states_digest(),
  lifecycle.states_digest_write(),
  lifecycle.states_in_use_guard(),
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
  lifecycle.transfer_requests_facts(),
  lifecycle.transfer_target_refusal(bigint,bigint),
  lifecycle.transition_refusal(bigint,bigint[],smallint,smallint,bigint,text,boolean),
  lifecycle.transition_rule(smallint,smallint),
  lifecycle.transition_rules_digest(),
  lifecycle.transition_rules_write(),
  lifecycle.webhook_address_refusal(inet),
  lifecycle.webhook_allowed_hosts_refusal(text[]),
  lifecycle.webhook_deliveries_claim(integer,interval),
  lifecycle.webhook_delivery_result(bigint,integer,text,integer,interval),
  lifecycle.webhook_remove(bigint),
  lifecycle.webhook_url_refusal(text,text[]),
  lifecycle.webhooks_validate()
  from public;
revoke all on procedure
  lifecycle.namespace_hard_delete_all(bigint,integer),
  lifecycle.namespace_import_run(integer,bigint,bigint)
  from public;

-- The API: what the application and the workers call. The authority of each call is the calling
-- role's; the actor it names is attribution only (docs/design.md §4.1).
grant execute on function
  lifecycle.event_rule(text),
  lifecycle.namespace_available_transitions(bigint,bigint),
  lifecycle.namespace_effective_state(bigint),
  lifecycle.namespace_effective_states_below(bigint),
  lifecycle.namespace_effective_states_below_any(bigint[]),
  lifecycle.namespace_event(bigint,text,bigint,jsonb),
  lifecycle.namespace_full_path(bigint),
  lifecycle.namespace_max_depth(),
  lifecycle.namespace_member_remove(bigint,bigint),
  lifecycle.namespace_rename(bigint,text,bigint),
  lifecycle.namespace_resolve(text),
  lifecycle.namespace_set_visibility(bigint,text,bigint),
  lifecycle.namespace_transfer_accept(bigint,bigint),
  lifecycle.namespace_transfer_cancel(bigint,bigint),
  lifecycle.namespace_transfer_decline(bigint,bigint),
  lifecycle.namespace_transfer_execute(bigint),
  lifecycle.namespace_transfer_request(bigint,bigint,bigint),
  lifecycle.namespace_transition(bigint,text,bigint,jsonb),
  lifecycle.state_code(text),
  lifecycle.state_diagram(),
  lifecycle.state_flag_mask(text),
  lifecycle.state_name(smallint),
  lifecycle.state_names(),
  lifecycle.transition_rule(smallint,smallint),
  lifecycle.webhook_address_refusal(inet),
  lifecycle.webhook_remove(bigint),
  lifecycle.webhook_url_refusal(text,text[])
  to lifecycle_app, lifecycle_worker;

-- The workers' calls: the sweeper, the syncer, the import, the moves between clusters.
grant execute on function
  lifecycle.check_invariants(),
  lifecycle.effective_states_apply(),
  lifecycle.effective_states_refresh(),
  lifecycle.effective_states_verify(),
  lifecycle.fact_message_adopt(jsonb,timestamp with time zone),
  lifecycle.facts_record(bigint[],pg_lsn[],integer[],timestamp with time zone[],bigint[]),
  lifecycle.facts_record_pending(integer,interval),
  lifecycle.id_range_set(bigint,bigint),
  lifecycle.legacy_bridge_backfill(),
  lifecycle.legacy_bridge_check(),
  lifecycle.legacy_members_check(),
  lifecycle.namespace_hard_delete(bigint,integer),
  lifecycle.namespace_import_apply(),
  lifecycle.namespace_import_batch(integer),
  lifecycle.namespace_import_finish(),
  lifecycle.namespace_import_prepare(),
  lifecycle.organization_export(bigint),
  lifecycle.organization_move_in(bigint,text),
  lifecycle.organization_move_out_cancel(text),
  lifecycle.organization_move_out_finish(bigint),
  lifecycle.organization_move_out_start(text,text),
  lifecycle.path_normalised(text),
  lifecycle.sweep_abandoned_creation(bigint,timestamp with time zone,interval),
  lifecycle.sweep_adjourned_deletion(bigint,timestamp with time zone),
  lifecycle.sweep_claim(bigint),
  lifecycle.sweep_deletion_candidates(timestamp with time zone,integer,integer,timestamp with time zone,bigint),
  lifecycle.sweep_deletion_failed(bigint,text,integer),
  lifecycle.sweep_release(bigint),
  lifecycle.sweep_stuck_operations(timestamp with time zone,interval,interval,integer),
  lifecycle.syncer_progress_save(text,pg_lsn,timestamp with time zone),
  lifecycle.syncer_publication_ensure(text),
  lifecycle.transfer_requests_expire(timestamp with time zone),
  lifecycle.webhook_deliveries_claim(integer,interval),
  lifecycle.webhook_delivery_result(bigint,integer,text,integer,interval)
  to lifecycle_worker;
grant execute on procedure
  lifecycle.namespace_hard_delete_all(bigint,integer),
  lifecycle.namespace_import_run(integer,bigint,bigint)
  to lifecycle_worker;

-- The writes the application and the workers make themselves, each judged by the table's triggers.
-- No client role holds UPDATE, DELETE or TRUNCATE of a whole table the operations read: each of
-- those would let it LOCK TABLE … IN ACCESS EXCLUSIVE MODE and stall every organization. Such
-- writes are column privileges (no table lock) or functions (namespace_member_remove,
-- webhook_remove); namespace_imports is the workers' own staging, which no operation reads.
grant insert, select on table
  lifecycle.namespace_members
  to lifecycle_app, lifecycle_worker;
grant delete, insert, truncate, update on table
  lifecycle.namespace_imports
  to lifecycle_worker;
grant insert on table
  lifecycle.webhooks
  to lifecycle_app;
grant insert on table
  lifecycle.organization_imports
  to lifecycle_worker;

-- Reads. The outbox and the pending effective-state rows are the syncer's alone; the webhooks'
-- secret is nobody's to read but the product's (the column grants below).
grant select on table
  lifecycle.audit_events,
  lifecycle.deleted_namespaces,
  lifecycle.effective_states,
  lifecycle.effective_states_computed,
  lifecycle.event_sources,
  lifecycle.events,
  lifecycle.fact_dead_letters,
  lifecycle.id_range,
  lifecycle.json_schemas,
  lifecycle.legacy_bridge_states,
  lifecycle.legacy_bridges,
  lifecycle.legacy_members_bridges,
  lifecycle.legacy_tree_bridges,
  lifecycle.namespace_details,
  lifecycle.namespace_imports,
  lifecycle.namespace_redirects,
  lifecycle.namespace_state_updates,
  lifecycle.namespace_types,
  lifecycle.namespaces,
  lifecycle.notifications,
  lifecycle.operation_policies,
  lifecycle.organization_moves,
  lifecycle.reserved_paths,
  lifecycle.settings,
  lifecycle.state_transitions,
  lifecycle.states,
  lifecycle.syncer_progress,
  lifecycle.transfer_requests,
  lifecycle.transition_guards,
  lifecycle.transition_policies,
  lifecycle.visibility_levels,
  lifecycle.webhook_deliveries,
  lifecycle.webhook_forbidden_ranges
  to lifecycle_app, lifecycle_worker;
grant select on table
  lifecycle.effective_states_pending,
  lifecycle.fact_message_horizon,
  lifecycle.facts
  to lifecycle_worker;
grant update (access_level, updated_at) on table lifecycle.namespace_members
  to lifecycle_app, lifecycle_worker;
grant insert (name, parent_id, path, state, type, visibility), update (name) on table lifecycle.namespaces
  to lifecycle_app, lifecycle_worker;
grant update (read_at) on table lifecycle.notifications
  to lifecycle_app;
grant select (actions, active, created_at, id, namespace_id, url) on table lifecycle.webhooks
  to lifecycle_app, lifecycle_worker;
grant update (actions, active, namespace_id, secret, url) on table lifecycle.webhooks
  to lifecycle_app;

-- lifecycle_bridge owns the bridges' writers, which write the application's tables: what the
-- application's role puts on those tables (triggers, defaults, policies, operators in its schema)
-- runs as this role, with nothing the application's role does not hold itself. It holds the
-- bridged tables' writes (granted by the add functions, legacy_writer_grant) and, here, what the
-- writers read and call of the lifecycle: a rules table or two and pure helpers. It may create
-- nothing in the schema: CREATE is held only while the writers are handed over.
grant usage on schema lifecycle to lifecycle_bridge;
grant execute on function
  lifecycle.legacy_bridge_column(regclass,smallint),
  lifecycle.legacy_bridge_refuse(lifecycle.legacy_bridges,text,bigint),
  lifecycle.legacy_path_matches(text,text,bigint),
  lifecycle.legacy_path_suffixed(text,bigint),
  lifecycle.path_normalised(text),
  lifecycle.state_name(smallint)
  to lifecycle_bridge;
grant select on table
  lifecycle.states,
  lifecycle.visibility_levels
  to lifecycle_bridge;
grant create on schema lifecycle to lifecycle_bridge;
alter function lifecycle.legacy_bridge_write(lifecycle.legacy_bridges,bigint,boolean,timestamp with time zone,bigint) owner to lifecycle_bridge;
alter function lifecycle.legacy_members_write(lifecycle.legacy_members_bridges,name,bigint,bigint,boolean,bigint,bigint,smallint,timestamp with time zone,boolean)
  owner to lifecycle_bridge;
alter function lifecycle.legacy_rows_delete(regclass,name,bigint) owner to lifecycle_bridge;
alter function lifecycle.legacy_tree_write(lifecycle.legacy_tree_bridges,text,bigint,bigint,text,text,text,text) owner to lifecycle_bridge;
revoke create on schema lifecycle from lifecycle_bridge;
-- The schema's owner calls them (the bridges' triggers): EXECUTE given back to it, as their owner
-- now is another role.
grant execute on function
  lifecycle.legacy_bridge_write(lifecycle.legacy_bridges,bigint,boolean,timestamp with time zone,bigint),
  lifecycle.legacy_members_write(lifecycle.legacy_members_bridges,name,bigint,bigint,boolean,bigint,bigint,smallint,timestamp with time zone,boolean),
  lifecycle.legacy_rows_delete(regclass,name,bigint),
  lifecycle.legacy_tree_write(lifecycle.legacy_tree_bridges,text,bigint,bigint,text,text,text,text)
  to current_user;
