-- table_truncated: a TRUNCATE fires no row triggers, so the tables whose rows make facts tell of
-- one themselves, in the truncating transaction (the tree's rebuilds lifecycle.effective_states).
create or replace function lifecycle.facts_truncated()
returns trigger
language plpgsql
-- Definer: facts are emitted by this schema alone (lifecycle.fact_emit is granted to no one).
security definer
set search_path to ''
as $$
begin
  perform lifecycle.fact_emit('table_truncated', null, null, null, null,
    pg_catalog.jsonb_build_object('tables', pg_catalog.jsonb_build_array(tg_table_schema || '.' || tg_table_name)));
  return null;
end
$$;

-- The tables whose rows make facts.
create or replace trigger facts_truncated after truncate on lifecycle.namespaces
  for each statement execute function lifecycle.facts_truncated();
create or replace trigger facts_truncated after truncate on lifecycle.namespace_details
  for each statement execute function lifecycle.facts_truncated();
create or replace trigger facts_truncated after truncate on lifecycle.namespace_members
  for each statement execute function lifecycle.facts_truncated();
create or replace trigger facts_truncated after truncate on lifecycle.namespace_state_updates
  for each statement execute function lifecycle.facts_truncated();
create or replace trigger facts_truncated after truncate on lifecycle.namespace_redirects
  for each statement execute function lifecycle.facts_truncated();
create or replace trigger facts_truncated after truncate on lifecycle.transfer_requests
  for each statement execute function lifecycle.facts_truncated();
create or replace trigger facts_truncated after truncate on lifecycle.deleted_namespaces
  for each statement execute function lifecycle.facts_truncated();
