-- What ending the bridges of a legacy table does, the same for every kind of bridge
-- (legacy_bridge_drop, legacy_tree_bridge_drop, legacy_members_bridge_drop): the table's rows of
-- the kind's registry go, then its trigger on the table (source_trigger, when the kind's trigger
-- has a fixed name), and the kind's trigger on the lifecycle's table with the last bridge of the
-- kind. The legacy rows and the lifecycle's stay as they are. Returns how many bridges went.
-- Dynamic SQL only from the catalog (the regclass arguments, as their quoted names) and the
-- callers' fixed trigger names, quoted with %I.
create or replace function lifecycle.legacy_bridge_unhook(registry regclass, source regclass, source_trigger name,
                                               target regclass, target_trigger name)
returns int
language plpgsql
set search_path to ''
as $$
declare
  dropped int;
  last boolean;
begin
  execute pg_catalog.format('delete from %s b where b.source = $1', registry) using source;
  get diagnostics dropped = row_count;
  if exists (select from pg_catalog.pg_trigger t where t.tgrelid = source and t.tgname = source_trigger) then
    execute pg_catalog.format('drop trigger %I on %s', source_trigger, source);
  end if;
  execute pg_catalog.format('select not exists (select from %s)', registry) into last;
  if last then
    execute pg_catalog.format('drop trigger if exists %I on %s', target_trigger, target);
  end if;
  return dropped;
end
$$;

comment on function lifecycle.legacy_bridge_unhook(regclass, regclass, name, regclass, name) is
  'End the bridges of a legacy table of one kind (its registry rows, its trigger, the lifecycle''s with the last one); returns how many. For the kinds'' drop functions.';
