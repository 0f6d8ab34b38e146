-- Lower a flag transaction_flag_raise raised (by the call that raised it: its true answer).
create or replace function lifecycle.transaction_flag_lower(flag text)
returns void
language sql
-- Definer: only the schema's owner writes lifecycle.transaction_flags.
security definer
set search_path to ''
begin atomic
  delete from lifecycle.transaction_flags f
   where f.xact = pg_catalog.pg_current_xact_id() and f.flag = transaction_flag_lower.flag;
end;
