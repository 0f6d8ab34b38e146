-- The last step of an import (docs/design.md §10): the staged rows no batch reached are judged.
-- A row below a rejected row is rejected too, saying which (NS004); what is left sits on or below
-- a cycle of parents (NS010). Returns how many staged rows are rejected in all.
create or replace function lifecycle.namespace_import_finish()
returns bigint
language plpgsql
security definer
set search_path to ''
as $$
declare
  rejected bigint;
begin
  -- For plpgsql_check (a no-op at run time): the queue namespace_import_prepare makes.
  perform 'PRAGMA:TABLE: lifecycle_import_queue (level int, like lifecycle.namespace_imports)';
  perform lifecycle.namespace_import_tables_check();
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_queue') is null then
    raise exception using errcode = 'NS010', message = 'no import is prepared in this session',
      hint = 'Use lifecycle.namespace_import_apply() or CALL lifecycle.namespace_import_run().';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('lifecycle namespace import', 0));
  with recursive below (id, blocker) as (
    select s.id, r.id
      from lifecycle.namespace_imports s
      join lifecycle.namespace_imports r on r.id = s.parent_id
     where s.reject_code is null and r.reject_code is not null
    union all
    -- Down from a rejected row: a cycle is never entered from outside it.
    select s.id, b.blocker
      from below b
      join lifecycle.namespace_imports s on s.parent_id = b.id
     where s.reject_code is null
  )
  update lifecycle.namespace_imports s
     set reject_code = 'NS004', reject_reason = pg_catalog.format('below rejected row %s', b.blocker)
    from below b
   where s.id = b.id;
  update lifecycle.namespace_imports s
     set reject_code = 'NS010', reject_reason = 'on or below a cycle of parents'
   where s.reject_code is null
     and not exists (select from pg_temp.lifecycle_import_queue q where q.id = s.id);
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_queue') is not null then
    drop table pg_temp.lifecycle_import_queue;
  end if;
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_progress') is not null then
    drop table pg_temp.lifecycle_import_progress;
  end if;
  select count(*) into rejected from lifecycle.namespace_imports s where s.reject_code is not null;
  return rejected;
end
$$;
