-- The syncer's position: the commit LSN of the last source transaction it recorded, saved in the
-- same transaction as that transaction's audit rows. Never moves backwards.
create or replace function lifecycle.syncer_progress_save(slot_name text, lsn pg_lsn, committed_at timestamptz)
returns void
language sql
security definer
set search_path to ''
as $$
  insert into lifecycle.syncer_progress (slot_name, lsn, committed_at)
  values (slot_name, lsn, committed_at)
  on conflict on constraint syncer_progress_pkey do update
    set lsn = greatest(syncer_progress.lsn, excluded.lsn),
        committed_at = excluded.committed_at,
        updated_at = pg_catalog.now()
$$;
