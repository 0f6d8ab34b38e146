-- The first step of an import (docs/design.md §10): forget earlier verdicts (rows fixed since are
-- judged afresh), and queue every staged row by level, parents first: level 1 is a row whose parent
-- is not staged (a root, a namespace already in lifecycle.namespaces, or a parent that does not
-- exist, which its batch reports), level k + 1 a staged row whose parent is at level k. A row on
-- or below a cycle is never queued (namespace_import_finish reports it). The queue is a temporary
-- table of the session, so a run killed midway leaves nothing of it behind; the next prepare
-- builds it again from what is still staged (imported rows have left the staging table).
-- Returns the number of rows queued.
create function lifecycle.namespace_import_prepare()
returns bigint
language plpgsql
security definer
set search_path to ''
as $$
declare
  queued bigint;
begin
  update lifecycle.namespace_imports s set reject_code = null, reject_reason = null where s.reject_code is not null;
  drop table if exists pg_temp.lifecycle_import_queue;
  create temporary table lifecycle_import_queue (id bigint primary key, level int not null) on commit preserve rows;
  insert into pg_temp.lifecycle_import_queue (id, level)
  with recursive queue (id, level) as (
    select s.id, 1
      from lifecycle.namespace_imports s
     where s.parent_id is null
        or not exists (select from lifecycle.namespace_imports p where p.id = s.parent_id)
    union all
    -- A staged row is queued once: its parent is queued once (the queue grows down the staged
    -- tree, which has no cycle reachable from a level-1 row).
    select c.id, q.level + 1
      from queue q
      join lifecycle.namespace_imports c on c.parent_id = q.id
     where q.level <= lifecycle.namespace_max_depth()
  )
  select q.id, q.level from queue q;
  get diagnostics queued = row_count;
  create index on pg_temp.lifecycle_import_queue (level, id);
  analyze pg_temp.lifecycle_import_queue;
  return queued;
end
$$;
