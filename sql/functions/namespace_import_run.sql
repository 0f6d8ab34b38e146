-- Import every staged row in batches that each commit (docs/design.md §10), for imports of any
-- size: a batch holds the sibling-path lock for a moment, so the application's creates and
-- renames wait at most one batch; a run killed at any point loses at most the batch in flight, and
-- the next run resumes with what is still staged. Progress after each batch as a NOTICE (rows
-- imported and rejected so far, rows queued, rate). One run at a time: a second one waits for the
-- first's batch and finds its rows gone.
--
-- A procedure (it commits): not SECURITY DEFINER, and without a SET clause (PostgreSQL refuses
-- COMMIT in a procedure that has one); every name in it is qualified. CALL it as a member of
-- lifecycle_worker, outside an explicit transaction.
create or replace procedure lifecycle.namespace_import_run(batch_size int default 10000, inout imported bigint default null,
                                                inout rejected bigint default null)
language plpgsql
as $$
declare
  batch record;
  queued bigint;
  started timestamptz := pg_catalog.clock_timestamp();
  batches int := 0;
  so_far_rejected bigint := 0;
begin
  -- Before the prepare step, which clears the staged rows' verdicts and commits.
  if batch_size is null or batch_size < 1 then
    raise exception using errcode = 'NS010', message = 'batch_size must be at least 1',
      detail = pg_catalog.format('batch_size=%s', batch_size), hint = 'Pass a positive batch size, or none (10000).';
  end if;
  imported := 0;
  queued := lifecycle.namespace_import_prepare();
  commit;
  raise notice 'import: % rows queued', queued;
  while queued > 0 loop
    select * into batch from lifecycle.namespace_import_batch(batch_size);
    commit;
    batches := batches + 1;
    imported := imported + batch.imported;
    so_far_rejected := so_far_rejected + batch.rejected;
    queued := batch.queued;
    raise notice 'import: batch %: % imported, % rejected so far, % queued, % rows/s', batches, imported,
      so_far_rejected, queued,
      pg_catalog.round(imported / greatest(extract(epoch from pg_catalog.clock_timestamp() - started), 0.001));
  end loop;
  rejected := lifecycle.namespace_import_finish();
  commit;
  raise notice 'import: done, % imported, % rejected (left in lifecycle.namespace_imports with reject_code and reject_reason)',
    imported, rejected;
end
$$;

comment on procedure lifecycle.namespace_import_run(int, bigint, bigint) is
  'Import lifecycle.namespace_imports in committed batches with progress; resumable; returns (imported, rejected).';
