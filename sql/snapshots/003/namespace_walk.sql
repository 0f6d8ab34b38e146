-- The live namespace at a full path, walking it from the root one segment at a time through the
-- unique index of live paths (O(depth)); null when any segment is missing or pending deletion.
create or replace function lifecycle.namespace_walk(segments text[])
returns bigint
language plpgsql
stable
set search_path to ''
as $$
declare
  seg text;
  current_id bigint;
begin
  if pg_catalog.cardinality(segments) is null or pg_catalog.cardinality(segments) = 0 then
    return null;
  end if;
  foreach seg in array segments loop
    select n.id into current_id
      from lifecycle.namespaces n
     where coalesce(n.parent_id, 0) = coalesce(current_id, 0)
       and n.path = seg
       and n.state <> 2 and n.state <> 4;
    if not found then
      return null;
    end if;
  end loop;
  return current_id;
end
$$;
