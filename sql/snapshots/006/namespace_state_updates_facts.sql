-- A state change's fact, named by lifecycle.state_transitions.audit_action (archived, restored,
-- deletion_started, …), with the history row's event, actor, source and metadata.
create or replace function lifecycle.namespace_state_updates_facts()
returns trigger
language plpgsql
-- Definer: facts are emitted by this schema alone (lifecycle.fact_emit is granted to no one).
security definer
set search_path to ''
as $$
declare
  ns lifecycle.namespaces;
begin
  select * into ns from lifecycle.namespaces n where n.id = new.namespace_id;
  perform lifecycle.fact_emit(
    (select t.audit_action from lifecycle.state_transitions t
      where t.from_state = new.from_state and t.to_state = new.to_state),
    new.namespace_id, ns.traversal_ids, lifecycle.namespace_full_path(new.namespace_id), new.actor_id,
    pg_catalog.jsonb_build_object('from_state', lifecycle.state_name(new.from_state),
                                  'to_state', lifecycle.state_name(new.to_state), 'event', new.event,
                                  'source', new.source, 'metadata', new.metadata, 'state_update_id', new.id));
  return null;
end
$$;

create or replace trigger namespace_state_updates_facts
  after insert on lifecycle.namespace_state_updates
  for each row execute function lifecycle.namespace_state_updates_facts();
