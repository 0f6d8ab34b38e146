-- A legacy DELETE of a namespace's row a tree bridge speaks for (docs/design.md §10.3): the
-- namespace's hard deletion, in the same transaction. A hard delete is a worker's (lifecycle_worker
-- members and superusers; NS005 for any other role, as namespace_hard_delete is theirs alone), and
-- rows go only below a deletion in progress, so the namespace gets there through the gate first,
-- as the system, with source bridge: from deletion_scheduled by deletion_start, from any other
-- state its deletion scheduled and started (GitLab deletes projects, users' namespaces and
-- scheduled groups at once); the guards judge each step (a descendant being moved or created:
-- NS003). Below a namespace pending deletion (GitLab's Groups::DestroyService deletes a scheduled
-- group's projects and subgroups first), the nearest such ancestor's deletion is started instead,
-- and the namespace's rows go as part of it. Then the rows go: the subtree, deepest first, and a
-- snapshot of the namespace in lifecycle.deleted_namespaces, whose trigger records the fact
-- hard_deleted in the outbox; the path is free at once. The states passed on the way are not
-- written to the legacy data (legacy_bridge_applying is raised by the caller, legacy_tree_source),
-- and the flag legacy_tree_deleting tells the state bridges not to ask whether they can say them.
create or replace function lifecycle.legacy_tree_delete(b lifecycle.legacy_tree_bridges, ns_id bigint)
returns void
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  pending lifecycle.namespaces;
  raised boolean;
  done boolean;
  total bigint;
  upper_bound bigint[];
  reason constant jsonb := '{"reason": "legacy row deleted"}'::jsonb;
begin
  select * into ns from lifecycle.namespaces n where n.id = ns_id;
  if not found then
    return;
  end if;
  if not lifecycle.caller_may_act_as_system() then
    raise exception using errcode = 'NS005',
      message = pg_catalog.format('deleting the legacy row of %s is its hard delete, which only a worker may do',
                                  lifecycle.namespace_full_path(ns_id)),
      detail = pg_catalog.format('namespace_id=%s role=%s source=%s', ns_id,
                                 coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user), b.source),
      hint = 'Delete legacy rows of bridged namespaces as a member of lifecycle_worker.';
  end if;
  raised := lifecycle.transaction_flag_raise('legacy_tree_deleting');

  select a.* into pending
    from lifecycle.namespaces a
   where a.id = any (ns.traversal_ids[1:pg_catalog.cardinality(ns.traversal_ids) - 1]) and not lifecycle.state_path_live(a.state)
   order by pg_catalog.cardinality(a.traversal_ids) desc
   limit 1;
  if lifecycle.state_path_live(ns.state) and pending.id is not null then
    -- Deleted as part of an ancestor's deletion: that one starts (it may be running already).
    if lifecycle.state_deletion_adjourned(pending.state) then
      perform lifecycle.namespace_change_state(pending.id, null, 'deletion_start', null, reason, null, null, 'bridge');
    end if;
    ns := lifecycle.namespace_lock(ns_id);
    upper_bound := ns.traversal_ids[1:pg_catalog.cardinality(ns.traversal_ids) - 1]
                   || (ns.traversal_ids[pg_catalog.cardinality(ns.traversal_ids)] + 1);
    select count(*) into total from lifecycle.namespaces d where d.traversal_ids > ns.traversal_ids and d.traversal_ids < upper_bound;
    insert into lifecycle.deleted_namespaces (namespace_id, full_path, type, parent_id, traversal_ids,
                                              deletion_scheduled_by, deletion_scheduled_at, descendant_count)
    values (ns.id, lifecycle.namespace_full_path(ns.id), ns.type, ns.parent_id, ns.traversal_ids,
            ns.deletion_scheduled_by, ns.deletion_scheduled_at, total);
    delete from lifecycle.namespaces d where d.traversal_ids >= ns.traversal_ids and d.traversal_ids < upper_bound;
  else
    if lifecycle.state_operation(ns.state) is distinct from 'hard_delete' then
      if not ns.state = any ((lifecycle.event_rule('deletion_start')).from_states) then
        perform lifecycle.namespace_change_state(ns_id, null, 'schedule_deletion', null, reason, null, null, 'bridge');
      end if;
      perform lifecycle.namespace_change_state(ns_id, null, 'deletion_start', null, reason, null, null, 'bridge');
    end if;
    loop
      select h.done into done from lifecycle.namespace_hard_delete(ns_id, null) h;
      exit when done;
    end loop;
  end if;
  if raised then
    perform lifecycle.transaction_flag_lower('legacy_tree_deleting');
  end if;
end
$$;
