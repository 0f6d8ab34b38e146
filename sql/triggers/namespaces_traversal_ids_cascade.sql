-- When a namespace moves, its whole subtree takes the new path prefix in one set-based statement, in
-- the same transaction as the move: no reader ever sees half a subtree moved.
create or replace function lifecycle.namespaces_traversal_ids_cascade()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  depth int := pg_catalog.cardinality(old.traversal_ids);
begin
  -- Descendants of X sort after X and before X with its last element + 1; the btree on
  -- traversal_ids serves this range, so the cost is the subtree, never the table.
  update lifecycle.namespaces d
     set traversal_ids = new.traversal_ids || d.traversal_ids[depth + 1:]
   where d.traversal_ids > old.traversal_ids
     and d.traversal_ids < old.traversal_ids[1:depth - 1] || (old.traversal_ids[depth] + 1);
  return null;
end
$$;

create or replace trigger namespaces_1_traversal_ids_cascade
  after update of parent_id on lifecycle.namespaces
  for each row
  when (old.traversal_ids is distinct from new.traversal_ids)
  execute function lifecycle.namespaces_traversal_ids_cascade();
