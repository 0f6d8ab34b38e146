-- Where the syncer is, per replication slot: the commit LSN of the last source transaction whose
-- facts it recorded, written in the same transaction as those audit rows (syncer_progress_save,
-- which never moves it backwards).
create table lifecycle.syncer_progress (
  slot_name text not null,
  lsn pg_lsn not null,
  committed_at timestamp with time zone,
  updated_at timestamp with time zone default now() not null,
  constraint syncer_progress_pkey primary key (slot_name)
);
