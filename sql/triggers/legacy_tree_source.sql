-- Legacy -> lifecycle for a tree-bridged table (docs/design.md §10.3): a row written by the
-- application's old code. What the row says of a namespace of a type the table speaks for
-- (legacy_tree_row) is carried to the lifecycle in the same transaction, through the gate: an
-- INSERT creates the namespace with the legacy id (legacy_tree_create), an UPDATE of the mapped
-- columns renames, moves, renames or sets the visibility of it (legacy_tree_update), a DELETE
-- hard-deletes it (legacy_tree_delete). A refusal refuses the legacy statement with the rules'
-- code; an error of the bridge's own statements is its NS010 (legacy_tree_refuse), never a raw
-- SQLSTATE. Rows of the types the table does not speak for (GitLab's project namespaces in
-- namespaces: projects speaks) follow the lifecycle and carry nothing. A write the lifecycle's
-- write-back makes (legacy_tree_state: the transaction flag legacy_tree_writing, which no client
-- can raise) carries nothing back: no loops. While it carries a change, the flag
-- legacy_bridge_applying is raised, as by the state bridges' trigger (legacy_bridge_source): the
-- legacy rows of the namespace are not locked again (this statement holds its row), and the state
-- bridges write nothing back for the states a deletion passes through. Created on the table by
-- lifecycle.legacy_tree_bridge_add; runs as the schema's owner.
create or replace function lifecycle.legacy_tree_source()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  b lifecycle.legacy_tree_bridges;
  o record;
  n record;
  broken text;
  raised boolean;
  failure text;
  failure_state text;
begin
  if lifecycle.transaction_flag_raised('legacy_tree_writing') then
    return null;
  end if;
  select * into b from lifecycle.legacy_tree_bridges t where t.source = tg_relid;
  if not found then
    return null;
  end if;
  broken := lifecycle.legacy_tree_broken(b);
  if broken is not null then
    perform lifecycle.legacy_tree_refuse(b, broken, null);
  end if;
  -- (old is null for an INSERT, new for a DELETE: a row of nulls then.)
  select r.* into o from (values (1)) x left join lifecycle.legacy_tree_row(b, pg_catalog.to_jsonb(old)) r on true;
  select r.* into n from (values (1)) x left join lifecycle.legacy_tree_row(b, pg_catalog.to_jsonb(new)) r on true;
  if tg_op = 'UPDATE' and o is not distinct from n then
    return null;
  end if;
  if tg_op = 'INSERT' and not coalesce(n.type = any (b.speaks_for), false)
     or tg_op = 'DELETE' and not coalesce(o.type = any (b.speaks_for), false)
     or tg_op = 'UPDATE' and not coalesce(n.type = any (b.speaks_for), false) and not coalesce(o.type = any (b.speaks_for), false) then
    return null;
  end if;

  raised := lifecycle.transaction_flag_raise('legacy_bridge_applying');
  begin
    if tg_op = 'INSERT' then
      perform lifecycle.legacy_tree_create(b, n.ns_id, n.parent_id, n.type, n.path, n.name, n.visibility);
    elsif tg_op = 'UPDATE' then
      if o.ns_id is distinct from n.ns_id then
        raise exception using errcode = 'NS010', message = 'a bridged legacy row cannot change the namespace id it holds',
          detail = pg_catalog.format('source=%s old_namespace_id=%s new_namespace_id=%s', b.source, o.ns_id, n.ns_id),
          hint = 'Delete the row and insert another (a hard delete and a creation).';
      end if;
      perform lifecycle.legacy_tree_update(b, n.ns_id, n.parent_id, n.type, n.path, n.name, n.visibility);
    else
      perform lifecycle.legacy_tree_delete(b, o.ns_id);
    end if;
  exception
    when data_exception or integrity_constraint_violation or syntax_error_or_access_rule_violation then
      get stacked diagnostics failure = message_text, failure_state = returned_sqlstate;
      perform lifecycle.legacy_tree_refuse(b, pg_catalog.format('%s (%s)', failure, failure_state), coalesce(n.ns_id, o.ns_id));
  end;
  if raised then
    perform lifecycle.transaction_flag_lower('legacy_bridge_applying');
  end if;
  return null;
end
$$;
