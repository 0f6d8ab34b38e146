-- Whether this transaction raised the flag (transaction_flag_raise). A transaction without an id
-- has written nothing, so has raised nothing.
create or replace function lifecycle.transaction_flag_raised(flag text)
returns boolean
language sql
stable
-- Definer: lifecycle.transaction_flags is read by this schema alone.
security definer
set search_path to ''
begin atomic
  select exists (select from lifecycle.transaction_flags f
                  where f.xact = pg_catalog.pg_current_xact_id_if_assigned() and f.flag = transaction_flag_raised.flag);
end;
