-- Raise a flag for the rest of this transaction, or until transaction_flag_lower: context a
-- function hands to the triggers its statements fire (lifecycle.transaction_flags), which no client
-- can forge, as it can any setting. True when this call raised it, false when a caller further out
-- had (and will lower it). Rolled back with the (sub)transaction that raised it.
create or replace function lifecycle.transaction_flag_raise(flag text)
returns boolean
language plpgsql
-- Definer: only the schema's owner writes lifecycle.transaction_flags.
security definer
set search_path to ''
as $$
declare
  raised boolean := false;
begin
  insert into lifecycle.transaction_flags as f (xact, flag)
  values (pg_catalog.pg_current_xact_id(), transaction_flag_raise.flag)
  on conflict do nothing
  returning true into raised;
  return coalesce(raised, false);
end
$$;
