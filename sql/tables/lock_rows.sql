-- Named rows the schema's functions lock to take turns (one writer of effective_states, one import
-- batch, one id_range_set at a time): row locks no session outside those functions can take, where
-- an advisory key or a table lock could be taken by anyone (functions/namespace_lock_path.sql, the
-- global lock order). Each row's why says who locks it and how.
create table lifecycle.lock_rows (
  name text not null,
  why text not null,
  constraint lock_rows_pkey primary key (name)
);

comment on table lifecycle.lock_rows is
  'Rows the schema''s functions lock to serialise work that no client may hold up (no role may lock them: FOR SHARE/UPDATE need UPDATE privilege, granted to none).';

insert into lifecycle.lock_rows (name, why) values
  ('effective_states', 'one writer of lifecycle.effective_states at a time (step 6 of the global lock order): FOR UPDATE by effective_states_apply and effective_states_refresh, FOR KEY SHARE by a DELETE of namespaces'),
  ('id range', 'one id_range_set at a time: FOR UPDATE by id_range_set'),
  ('namespace import', 'one import batch at a time: FOR UPDATE by namespace_import_batch and namespace_import_finish');
