-- Why namespace_id cannot move below to_parent_id now, or no row: checked at request, at accept and
-- again by the move itself. The target must exist (NS004); a type that is not transferable
-- (organizations, user namespaces) does not move, one that cannot be a parent (a project) takes
-- no children (lifecycle.namespace_types), the target must not be the current parent nor lie inside
-- the moving subtree, and no namespace of the subtree may end up deeper than
-- lifecycle.namespace_max_depth() (NS010); the target and all its ancestors must have no own state
-- (NS002); no live child of the target may have the namespace's path (NS006). A target less
-- visible than the namespace is no refusal: the move lowers the subtree to the target's visibility
-- (namespaces_visibility), as GitLab does.
create or replace function lifecycle.transfer_target_refusal(namespace_id bigint, to_parent_id bigint)
returns table (code text, message text, detail text, hint text)
language plpgsql
stable
set search_path to ''
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  target lifecycle.namespaces;
  blocker bigint;
  blocker_state text;
  height int;
begin
  select * into ns from lifecycle.namespaces n where n.id = namespace_id;
  select * into target from lifecycle.namespaces n where n.id = to_parent_id;
  if target.id is null then
    code := 'NS004'; message := 'target namespace not found';
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s', namespace_id, to_parent_id);
    hint := 'Pass the id of an existing group or organization as the new parent.';
    return next; return;
  end if;
  if not lifecycle.namespace_type_transferable(ns.type) then
    code := 'NS010'; message := pg_catalog.format('a namespace of type %s cannot be transferred', ns.type);
    detail := pg_catalog.format('namespace_id=%s type=%s', namespace_id, ns.type);
    hint := 'Transfer its groups and projects instead.';
    return next; return;
  end if;
  if not lifecycle.namespace_type_can_be_parent(target.type) then
    code := 'NS010'; message := pg_catalog.format('a %s cannot be a new parent', target.type);
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s to_parent_type=%s', namespace_id, to_parent_id, target.type);
    hint := pg_catalog.format('Choose a namespace of a type that takes children: %s.',
                              (select pg_catalog.string_agg(t.name, ', ' order by t.name)
                                 from lifecycle.namespace_types t where t.can_be_parent));
    return next; return;
  end if;
  if target.id = ns.parent_id then
    code := 'NS010'; message := 'the namespace is already below this parent';
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s', namespace_id, to_parent_id);
    hint := 'Choose another parent.';
    return next; return;
  end if;
  if ns.id = any (target.traversal_ids) then
    code := 'NS010'; message := 'a namespace cannot move below itself or its own descendant';
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s', namespace_id, to_parent_id);
    hint := 'Choose a parent outside the namespace''s subtree.';
    return next; return;
  end if;
  -- The subtree's deepest row lands at depth(target) + 1 + its height. Only a move to a deeper
  -- level can cross the limit (every row is within it now), so only that scans the subtree.
  if pg_catalog.cardinality(target.traversal_ids) + 1 > pg_catalog.cardinality(ns.traversal_ids) then
    select max(pg_catalog.cardinality(d.traversal_ids)) - pg_catalog.cardinality(ns.traversal_ids)
      into height
      from lifecycle.namespaces d
     where d.traversal_ids >= ns.traversal_ids
       and d.traversal_ids < ns.traversal_ids[1:pg_catalog.cardinality(ns.traversal_ids) - 1]
                             || (ns.traversal_ids[pg_catalog.cardinality(ns.traversal_ids)] + 1);
    if pg_catalog.cardinality(target.traversal_ids) + 1 + height > lifecycle.namespace_max_depth() then
      code := 'NS010';
      message := pg_catalog.format('moving below %s would place namespaces deeper than %s levels',
                                   lifecycle.namespace_full_path(target.id), lifecycle.namespace_max_depth());
      detail := pg_catalog.format('namespace_id=%s to_parent_id=%s deepest_level_after_move=%s max_depth=%s', namespace_id,
                                  to_parent_id, pg_catalog.cardinality(target.traversal_ids) + 1 + height,
                                  lifecycle.namespace_max_depth());
      hint := 'Choose a parent higher in the tree.';
      return next; return;
    end if;
  end if;
  select a.id, s.name into blocker, blocker_state
    from lifecycle.namespaces a
    join lifecycle.states s on s.code = a.state
   where a.id = any (target.traversal_ids) and lifecycle.state_is_own(a.state)
   order by pg_catalog.cardinality(a.traversal_ids) desc
   limit 1;
  if found then
    code := 'NS002';
    message := pg_catalog.format('cannot move below %s: %s is %s', lifecycle.namespace_full_path(target.id),
                                 lifecycle.namespace_full_path(blocker), blocker_state);
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s blocking_namespace_id=%s blocking_state=%s',
                                namespace_id, to_parent_id, blocker, blocker_state);
    hint := 'The new parent and all its ancestors must be active.';
    return next; return;
  end if;
  select n.id into blocker
    from lifecycle.namespaces n
   where n.parent_id = target.id and n.path = ns.path and lifecycle.state_path_live(n.state);
  if found then
    code := 'NS006';
    message := pg_catalog.format('path %s/%s is taken', lifecycle.namespace_full_path(target.id), ns.path);
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s path=%s taken_by_namespace_id=%s', namespace_id,
                                to_parent_id, ns.path, blocker);
    hint := 'Rename the namespace (or the one holding the path) first.';
    return next; return;
  end if;
end
$$;
