-- Lifecycle -> legacy for the tree (docs/design.md §10.3): after a namespace is created, changes
-- parent, path, name or visibility, or is deleted, whatever the write path (the API, a transfer's
-- move and the visibility it lowers below, a hard delete, a change a tree bridge carried), every
-- tree-bridged table that holds rows of its type gets them written (legacy_tree_write), in the
-- same transaction: a row inserted when it has none, its columns set where they disagree, its rows
-- deleted. A deleted namespace also loses its rows in the state bridges' tables (GitLab's
-- namespace_settings and group_deletion_schedules rows go with their namespace). Each statement
-- touches only rows that disagree, and the flag legacy_tree_writing (which no client can raise)
-- keeps legacy_tree_source from carrying these writes back: no loops. An error of a bridge's
-- statement is its NS010 (legacy_tree_refuse), never a raw SQLSTATE. Not for the import's rows
-- (the trigger's WHEN: lifecycle.importing), whose legacy rows exist already. Created on
-- lifecycle.namespaces by lifecycle.legacy_tree_bridge_add (dropped with the last tree bridge).
create or replace function lifecycle.legacy_tree_state()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  b lifecycle.legacy_tree_bridges;
  s record;
  ns_id bigint := case when tg_op = 'DELETE' then old.id else new.id end;
  ns_type text := case when tg_op = 'DELETE' then old.type else new.type end;
  raised boolean;
  broken text;
  failure text;
  failure_state text;
begin
  if tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id and new.path = old.path and new.name = old.name
     and new.visibility = old.visibility then
    return null;
  end if;
  raised := lifecycle.transaction_flag_raise('legacy_tree_writing');
  -- Deletes in the reverse order of the bridges (GitLab's projects row before its namespaces row).
  for b in select * from lifecycle.legacy_tree_bridges t
            where case when t.type_attnum is null then t.types #>> '{}' = ns_type
                       else exists (select from pg_catalog.jsonb_each_text(t.types) m where m.value = ns_type) end
            order by case when tg_op = 'DELETE' then -t.id else t.id end loop
    broken := lifecycle.legacy_tree_broken(b);
    continue when broken = 'its table is gone';
    if broken is not null then
      perform lifecycle.legacy_tree_refuse(b, broken, ns_id);
    end if;
    begin
      if tg_op = 'DELETE' then
        perform lifecycle.legacy_tree_write(b, 'DELETE', ns_id, null, null, null, null, null);
      else
        perform lifecycle.legacy_tree_write(b, tg_op, new.id, new.parent_id, new.type, new.path, new.name, new.visibility);
      end if;
    exception
      when data_exception or integrity_constraint_violation or syntax_error_or_access_rule_violation then
        get stacked diagnostics failure = message_text, failure_state = returned_sqlstate;
        perform lifecycle.legacy_tree_refuse(b, pg_catalog.format('writing it failed: %s (%s)', failure, failure_state), ns_id);
    end;
  end loop;
  if tg_op = 'DELETE' then
    -- The state bridges' rows of the namespace (a table without a tree bridge), one statement a
    -- table; a broken bridge's table is left alone (its repair is the operator's).
    -- Each bridge's column found by the catalog's index (offset 0: legacy_bridge_lock says why).
    for s in select distinct on (x.source::oid) x.source, a.attname as ns_col
               from lifecycle.legacy_bridges x
               cross join lateral (select a.attname from pg_catalog.pg_attribute a
                                    where a.attrelid = x.source and a.attnum = x.namespace_attnum and not a.attisdropped
                                      and a.atttypid = any (array['int2', 'int4', 'int8']::regtype[])
                                   offset 0) a
              where not exists (select from lifecycle.legacy_tree_bridges t where t.source = x.source)
              order by x.source::oid loop
      execute pg_catalog.format('delete from %s where %I = $1', s.source, s.ns_col) using ns_id;
    end loop;
  end if;
  if raised then
    perform lifecycle.transaction_flag_lower('legacy_tree_writing');
  end if;
  return null;
end
$$;
