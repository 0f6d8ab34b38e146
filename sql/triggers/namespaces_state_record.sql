-- A new namespace's details row, its state metadata started (last_updated_at,
-- last_changed_by_user_id), in the INSERT's statement. After the row, which it references. (A
-- change of state is recorded by the gate, namespaces_state_gate, before its row is written.)
-- An INSERT, which a client makes itself, reads no setting.
create or replace function lifecycle.namespaces_state_record()
returns trigger
language plpgsql
-- Definer: the details are not writable by the application role.
security definer
set search_path to ''
as $$
begin
  insert into lifecycle.namespace_details (namespace_id, state_metadata)
  values (new.id, pg_catalog.jsonb_build_object('last_updated_at', pg_catalog.now(),
                                                'last_changed_by_user_id', null));
  return null;
end
$$;

-- The trigger does not fire for the import's rows (lifecycle.importing set; a client that sets it
-- is refused: settings_confirmed): the import writes them set-based.
create or replace trigger namespaces_3_state_record_insert
  after insert on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_state_record();
