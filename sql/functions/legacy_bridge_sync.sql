-- State → legacy for one namespace (docs/design.md §10): every bridge that speaks for its type
-- writes what the namespace's state now says (legacy_bridge_write), with the time and actor of its
-- last change, as the state record wrote them into its details row (never a setting a client
-- could make). Writes that change nothing touch no row, so a change that came from the legacy data does
-- not come back to it. Called by legacy_bridge_state after a change of state, and by
-- legacy_bridge_source once a legacy statement's changes are all carried over.
-- A broken bridge (its table altered or dropped) breaks only itself: it is skipped for a
-- namespace it has nothing of, and refuses with NS010 naming it a change of one it has a row of
-- (legacy_bridge_usable). An error its statement still meets (a privilege revoked, a constraint
-- or a trigger the application added to its table) is that bridge's too: NS010 naming it, with the
-- error in the message, never the raw SQLSTATE (a subtransaction a change, the price of naming it).
-- What the legacy data cannot say is refused while the bridges are installed (NS001): a namespace
-- the tree bridges' tables hold a row of, in a state of which no bridge says anything for it
-- (GitLab's user namespaces have no archived flag and no deletion schedule: the bridges of those
-- states speak for groups and projects), would be in one state here and active there. (A group's
-- running deletion is said by its schedule row, as GitLab says it.)
-- Not for the states a hard deletion a tree bridge carries passes through (legacy_tree_deleting).
create or replace function lifecycle.legacy_bridge_sync(ns_id bigint)
returns void
language plpgsql
security definer
set search_path to ''
as $$
declare
  b lifecycle.legacy_bridges;
  ns lifecycle.namespaces;
  preserved text;
  at timestamptz;
  actor bigint;
  failure text;
  failure_state text;
begin
  select * into ns from lifecycle.namespaces n where n.id = ns_id;
  if not found then
    return;
  end if;
  select d.state_metadata ->> 'preserved_state',
         coalesce((d.state_metadata ->> 'last_updated_at')::timestamptz, pg_catalog.now()),
         (d.state_metadata ->> 'last_changed_by_user_id')::bigint
    into preserved, at, actor
    from lifecycle.namespace_details d where d.namespace_id = ns_id;
  -- One block around all the bridges' writes (one subtransaction a change, not one a bridge): b
  -- still names the bridge whose write failed when the handler runs.
  begin
    for b in select * from lifecycle.legacy_bridges x order by x.id loop
      continue when b.namespace_types is not null and not ns.type = any (b.namespace_types);
      continue when not lifecycle.legacy_bridge_usable(b, ns.id);
      -- The writer runs as lifecycle_bridge, and so does what the application's table fires: checked
      -- before the call and after it (legacy_writer_check says why).
      perform lifecycle.legacy_writer_check('lifecycle.legacy_bridge_write'::regproc);
      perform lifecycle.legacy_bridge_write(b, ns.id, lifecycle.legacy_bridge_says(b.state, ns.state, preserved), at, actor);
      perform lifecycle.legacy_writer_check('lifecycle.legacy_bridge_write'::regproc);
    end loop;
  exception
    when data_exception or integrity_constraint_violation or syntax_error_or_access_rule_violation then
      get stacked diagnostics failure = message_text, failure_state = returned_sqlstate;
      perform lifecycle.legacy_bridge_refuse(b, pg_catalog.format('writing it failed: %s (%s)', failure, failure_state), ns.id);
  end;
  -- Unsaid: some bridged condition follows from the state, and no bridge says any of them.
  if lifecycle.state_is_own(ns.state) and exists (select from lifecycle.legacy_tree_bridges)
     and not lifecycle.transaction_flag_raised('legacy_tree_deleting')
     and exists (select from lifecycle.legacy_bridges y where lifecycle.legacy_bridge_says(y.state, ns.state, preserved))
     and not exists (select from lifecycle.legacy_bridges y
                      where lifecycle.legacy_bridge_says(y.state, ns.state, preserved)
                        and lifecycle.legacy_bridge_holds(y, ns.id, ns.type))
     and lifecycle.legacy_tree_holds(ns.id, ns.type) then
    raise exception using errcode = 'NS001',
      message = pg_catalog.format('%s cannot be %s while the legacy tables are bridged: no bridged column can say so of a %s',
                                  lifecycle.namespace_full_path(ns.id), lifecycle.state_name(ns.state), ns.type),
      detail = pg_catalog.format('namespace_id=%s type=%s state=%s', ns.id, ns.type, lifecycle.state_name(ns.state)),
      hint = pg_catalog.format('The legacy application has no %s that is %s: change it after cutover, or bridge a column that can '
                               'say so (lifecycle.legacy_bridge_add with namespace_types).', ns.type, lifecycle.state_name(ns.state));
  end if;
end
$$;
