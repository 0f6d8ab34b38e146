-- Import every staged row in one transaction (docs/design.md §10): prepare, batches of 50,000
-- until none is queued, finish. Returns how many rows were imported and how many are left staged
-- with a code and a reason. Calling it again after fixing rejected rows imports them. For imports
-- too large for one transaction, CALL lifecycle.namespace_import_run(), which commits each batch.
create or replace function lifecycle.namespace_import_apply()
returns table (imported bigint, rejected bigint)
language plpgsql
security definer
set search_path to ''
as $$
#variable_conflict use_column
declare
  batch record;
  total bigint := 0;
  queued bigint;
begin
  queued := lifecycle.namespace_import_prepare();
  while queued > 0 loop
    select * into batch from lifecycle.namespace_import_batch(50000);
    total := total + batch.imported;
    queued := batch.queued;
  end loop;
  return query select total, lifecycle.namespace_import_finish();
end
$$;

comment on function lifecycle.namespace_import_apply() is
  'Import lifecycle.namespace_imports in one transaction: (imported, rejected); rejected rows stay staged with reject_code and reject_reason.';
