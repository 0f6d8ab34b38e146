-- The first step of an import (docs/design.md §10): forget earlier verdicts (rows fixed since are
-- judged afresh), and queue every staged row by level, parents first: level 1 is a row whose parent
-- is not staged (a root, a namespace already in lifecycle.namespaces, or a parent that does not
-- exist, which its batch reports), level k + 1 a staged row whose parent is at level k. A row on
-- or below a cycle is never queued (namespace_import_finish reports it). The queue is a temporary
-- table of the session holding a copy of each row (the batches read it, not the staging table), so
-- a run killed midway leaves nothing of it behind; the next prepare builds it again from what is
-- still staged (imported rows have left the staging table). Its progress (where the next batch
-- starts, how many rows are left) is a one-row temporary table beside it, which only the import
-- writes (namespace_import_tables_check).
-- Returns the number of rows queued.
create or replace function lifecycle.namespace_import_prepare()
returns bigint
language plpgsql
security definer
set search_path to ''
-- Statements over the whole staging table: their estimates are large enough to be JIT-compiled,
-- which costs more than it saves; and hash joins, never a million index probes.
set jit to off
set enable_nestloop to off
as $$
declare
  queued bigint;
  added bigint;
  lvl int;
begin
  -- For plpgsql_check (a no-op at run time): the queue made below.
  perform 'PRAGMA:TABLE: lifecycle_import_queue (level int, like lifecycle.namespace_imports)';
  perform 'PRAGMA:TABLE: lifecycle_import_progress (level int, cursor_id bigint, queued bigint)';
  -- Whatever would refuse a batch later refuses now, before a verdict is cleared.
  perform lifecycle.namespace_import_tables_check();
  perform lifecycle.namespace_import_skips_rechecks();
  update lifecycle.namespace_imports s set reject_code = null, reject_reason = null where s.reject_code is not null;
  -- A table just filled by COPY has no statistics; the walk below needs them to choose hash joins
  -- over a million index probes.
  analyze lifecycle.namespace_imports;
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_queue') is not null then
    drop table pg_temp.lifecycle_import_queue;
  end if;
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_progress') is not null then
    drop table pg_temp.lifecycle_import_progress;
  end if;
  -- Level by level, each level written in id order, so the queue lies on disk in the order the
  -- batches read it (a temporary table lives in the session's small local buffers, where random
  -- reads are dear). Each level is one hash join of the staging table with the level above.
  create temporary table lifecycle_import_queue on commit preserve rows as
  select 1 as level, s.*
    from lifecycle.namespace_imports s
   where s.parent_id is null
      or not exists (select from lifecycle.namespace_imports p where p.id = s.parent_id)
   order by s.id;
  get diagnostics added = row_count;
  queued := added;
  lvl := 1;
  -- A staged row is queued once: its parent is queued once (the queue grows down the staged tree,
  -- which has no cycle reachable from a level-1 row). Past the depth limit the batches reject.
  while added > 0 and lvl <= lifecycle.namespace_max_depth() loop
    insert into pg_temp.lifecycle_import_queue
    select lvl + 1, c.*
      from lifecycle.namespace_imports c
     where c.parent_id in (select q.id from pg_temp.lifecycle_import_queue q where q.level = lvl)
     order by c.id;
    get diagnostics added = row_count;
    queued := queued + added;
    lvl := lvl + 1;
  end loop;
  -- Batches read the queue from the start and count down what is left.
  create temporary table lifecycle_import_progress on commit preserve rows as
  select 0 as level, 0::bigint as cursor_id, queued as queued;
  create index on pg_temp.lifecycle_import_queue (level, id);
  analyze pg_temp.lifecycle_import_queue;
  return queued;
end
$$;
