-- Remove a webhook; true when there was one. The application's way to remove a webhook: a
-- table-level DELETE (or UPDATE) privilege on lifecycle.webhooks would also let its role LOCK TABLE
-- it (ACCESS EXCLUSIVE), and every fact's recording reads it for its deliveries, in every
-- organization. The application changes a webhook with column privileges (url, secret, actions,
-- active), which give no table lock. The row's triggers judge the removal (NS011 while the
-- organization moves). Definer: it deletes the row, which no client role may.
create or replace function lifecycle.webhook_remove(webhook_id bigint)
returns boolean
language plpgsql
security definer
set search_path to ''
as $$
#variable_conflict use_variable
begin
  if webhook_id is null then
    raise exception using errcode = 'NS010', message = 'webhook_id is required', hint = 'Pass the id of the webhook to remove.';
  end if;
  delete from lifecycle.webhooks w where w.id = webhook_id;
  return found;
end
$$;

comment on function lifecycle.webhook_remove(bigint) is
  'Remove a webhook; true when there was one. Errors: NS010 NS011.';
