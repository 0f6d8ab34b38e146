-- A deleted namespace's row of lifecycle.effective_states goes in the same transaction as the
-- namespace, whoever deletes it (a hard-delete batch, a raw DELETE below a deletion in progress):
-- a hard delete commits in batches and tells of the subtree only when its last batch ends, so the
-- syncer could not know of the rows gone before. One statement per DELETE (a transition table),
-- a probe of the primary key per row. The table's lock row, shared (step 6 of the global lock
-- order, namespace_lock_path), orders it with the syncer's update, which holds it exclusively and
-- recomputes from a snapshot taken after: an update never writes back the row of a namespace
-- deleted meanwhile.
create or replace function lifecycle.namespaces_effective_states()
returns trigger
language plpgsql
-- Definer: the table is written by this schema alone.
security definer
set search_path to ''
as $$
begin
  -- For plpgsql_check (a no-op at run time): the transition table.
  perform 'PRAGMA:TABLE: gone (id bigint)';
  perform 1 from lifecycle.lock_rows l where l.name = 'effective_states' for key share;
  delete from lifecycle.effective_states e using gone g where e.namespace_id = g.id;
  return null;
end
$$;

create or replace trigger namespaces_effective_states
  after delete on lifecycle.namespaces
  referencing old table as gone
  for each statement execute function lifecycle.namespaces_effective_states();
