-- A whole hard delete from SQL: namespace_hard_delete batch after batch, each committed on its own
-- so locks stay short and an interruption loses at most one batch. A procedure (it commits), so
-- not SECURITY DEFINER: call it as a lifecycle_worker member, outside an explicit transaction.
-- No SET clause either: PostgreSQL refuses COMMIT in a procedure that has one ("invalid
-- transaction termination"). It runs with the caller's rights only, and every name in it is
-- qualified, so the caller's search_path gains it nothing.
create or replace procedure lifecycle.namespace_hard_delete_all(namespace_id bigint, batch_size int default null)
language plpgsql
as $$
declare
  finished boolean := false;
begin
  while not finished loop
    select h.done into finished from lifecycle.namespace_hard_delete(namespace_id, batch_size) h;
    commit;
  end loop;
end
$$;
