-- hard_deleted, with the snapshot of what was deleted (the rows are gone once it commits).
create or replace function lifecycle.deleted_namespaces_facts()
returns trigger
language plpgsql
-- Definer: facts are emitted by this schema alone (lifecycle.fact_emit is granted to no one).
security definer
set search_path to ''
as $$
begin
  perform lifecycle.fact_emit('hard_deleted', new.namespace_id, new.traversal_ids, new.full_path, null,
    pg_catalog.jsonb_build_object('type', new.type, 'parent_id', new.parent_id,
                                  'deletion_scheduled_by', new.deletion_scheduled_by,
                                  'deletion_scheduled_at', new.deletion_scheduled_at,
                                  'descendant_count', new.descendant_count));
  return null;
end
$$;

create or replace trigger deleted_namespaces_facts
  after insert on lifecycle.deleted_namespaces
  for each row execute function lifecycle.deleted_namespaces_facts();
