-- Whether this transaction raised the flag (transaction_flag_raise). A transaction without an id
-- has written nothing, so has raised nothing.
-- PL/pgSQL (sql/README.md, Performance idioms): asked twice in every change while legacy bridges
-- exist (namespace_lock, legacy_bridge_state), and by every membership write with a members bridge.
create or replace function lifecycle.transaction_flag_raised(flag text)
returns boolean
language plpgsql
stable
-- Definer: lifecycle.transaction_flags is read by this schema alone.
security definer
set search_path to ''
as $$
begin
  return exists (select from lifecycle.transaction_flags f
                  where f.xact = pg_catalog.pg_current_xact_id_if_assigned() and f.flag = transaction_flag_raised.flag);
end
$$;
