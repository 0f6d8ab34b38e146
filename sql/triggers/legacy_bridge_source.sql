-- Legacy → state (docs/design.md §10): a row of a bridged table written by the application's old
-- code. For each bridge of the table whose condition the change turns on or off for a namespace
-- (or that moves a row from one namespace to another), that namespace's state follows, through
-- the gate, in the same transaction (legacy_bridge_apply): a refusal refuses the legacy
-- statement. The change has the writer's authority, no more (legacy_bridge_apply): it is judged as
-- the calling role's API call on behalf of the actor the legacy row names in by_column (the new
-- row; the old one for a DELETE, the only row there is), else the bridge's configured actor
-- (legacy_bridges.actor_id), else none: the system, which only lifecycle_worker members and
-- superusers may act as. The time comes from the new row's at_column when the state is entered.
-- A broken bridge of the table (legacy_bridge_broken: a column altered or dropped) refuses with
-- NS010 naming it a write that inserts or deletes a row or changes what it reads (it can no longer
-- tell what that means); an UPDATE of other columns goes on. The bridges are taken in the order
-- of their states (archived before a deletion before its run), with the writes back to the legacy
-- data held until all are carried over (the transaction flag legacy_bridge_applying,
-- transaction_flag_raise): a statement that archives a project and marks it for deletion gets
-- both, the deletion returning to archived. Then the legacy data of each namespace touched is
-- written once from its final state (legacy_bridge_sync). Created on the table by
-- lifecycle.legacy_bridge_add; runs as the schema's owner.
create or replace function lifecycle.legacy_bridge_source()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  b lifecycle.legacy_bridges;
  old_row jsonb := case when tg_op <> 'INSERT' then pg_catalog.to_jsonb(old) end;
  new_row jsonb := case when tg_op <> 'DELETE' then pg_catalog.to_jsonb(new) end;
  ns_col name;
  when_col name;
  old_ns bigint;
  new_ns bigint;
  old_on boolean;
  new_on boolean;
  at timestamptz;
  actor bigint;
  touched bigint[] := '{}'::bigint[];
  outermost boolean;
  ns_id bigint;
  broken text;
begin
  outermost := lifecycle.transaction_flag_raise('legacy_bridge_applying');
  for b in select * from lifecycle.legacy_bridges x where x.source = tg_relid order by x.state loop
    broken := lifecycle.legacy_bridge_broken(b);
    if broken is not null then
      -- An UPDATE that leaves what the bridge reads as it was (its namespace and condition
      -- columns, those still there, whatever their type) gives it nothing to carry: the
      -- application's other writes to its table go on. Any other write refuses.
      continue when tg_op = 'UPDATE'
        and not exists (select from pg_catalog.pg_attribute a
                         where a.attrelid = b.source and a.attnum in (b.namespace_attnum, b.when_attnum) and not a.attisdropped
                           and (old_row -> a.attname::text) is distinct from (new_row -> a.attname::text));
      perform lifecycle.legacy_bridge_refuse(b, broken, null);
    end if;
    ns_col := lifecycle.legacy_bridge_column(b.source, b.namespace_attnum);
    when_col := case when b.when_attnum is not null then lifecycle.legacy_bridge_column(b.source, b.when_attnum) end;
    old_ns := (old_row ->> ns_col)::bigint;
    new_ns := (new_row ->> ns_col)::bigint;
    old_on := old_row is not null and (b.kind = 'exists' or (b.kind = 'flag' and (old_row ->> when_col) = 'true')
                                       or (b.kind = 'value' and old_row ->> when_col is not null));
    new_on := new_row is not null and (b.kind = 'exists' or (b.kind = 'flag' and (new_row ->> when_col) = 'true')
                                       or (b.kind = 'value' and new_row ->> when_col is not null));
    continue when old_ns is not distinct from new_ns and old_on = new_on;
    at := null;
    actor := null;
    if new_on and b.at_attnum is not null then
      at := (new_row ->> lifecycle.legacy_bridge_column(b.source, b.at_attnum))::timestamptz;
    end if;
    if b.by_attnum is not null then
      actor := (coalesce(new_row, old_row) ->> lifecycle.legacy_bridge_column(b.source, b.by_attnum))::bigint;
    end if;
    actor := coalesce(actor, b.actor_id);
    if old_ns is not null and old_ns is distinct from new_ns then
      perform lifecycle.legacy_bridge_apply(b.state, old_ns, null, actor);
      touched := touched || old_ns;
    end if;
    if new_ns is not null then
      perform lifecycle.legacy_bridge_apply(b.state, new_ns, at, actor);
      touched := touched || new_ns;
    end if;
  end loop;
  -- Inside another source trigger's loop (an application trigger writing a bridged table), that
  -- one writes back at its end.
  if outermost then
    perform lifecycle.transaction_flag_lower('legacy_bridge_applying');
    foreach ns_id in array array(select distinct t from pg_catalog.unnest(touched) t order by t) loop
      perform lifecycle.legacy_bridge_sync(ns_id);
    end loop;
  end if;
  return null;
end
$$;
