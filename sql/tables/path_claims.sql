-- Step 3 of the global lock order (functions/namespace_lock_path.sql): a claim of a path below a
-- parent, a row the claiming transaction inserts (namespace_lock_sibling_path, the import) and
-- deletes, holding the key until it ends. Only the schema's functions write it: no other session
-- can take a claim, as it could an advisory key.
create unlogged table lifecycle.path_claims (
  parent_id bigint,
  path text not null,
  constraint path_claims_key unique nulls not distinct (parent_id, path)
);

comment on table lifecycle.path_claims is
  'Claims of "path below parent" (step 3 of the global lock order, namespace_lock_sibling_path): a row inserted and deleted by the claiming transaction, which holds the key until it ends. Always empty between transactions.';
