-- A legacy UPDATE of what a tree-bridged row says of a namespace (docs/design.md §10.3), compared
-- with the lifecycle's tree and carried by the API, judged as the writing role's call on behalf of
-- the bridge's actor (its authority is the writer's, no more: the functions read the calling role):
--   * a new parent is a move: a transfer request to it (accepted at once when the actor also owns
--     the target, else NS005), executed in the same transaction (namespace_transfer_execute: the
--     target's rules, NS002, NS006, NS010, and the subtree lowered to a less visible parent); a
--     failed move is the legacy statement's refusal, with the move's code;
--   * a path that is not what the lifecycle path became from it (legacy_path_matches: GitLab's
--     `Docs` is the lifecycle's `docs`) is a rename (namespace_rename: NS006, NS008, read-only
--     states) to the lifecycle path it becomes, with the redirects of the legacy path;
--   * a new name is the name (lifecycle_app's UPDATE of it: the name rules, NS010);
--   * a new visibility is namespace_set_visibility's (NS002, NS003).
-- A namespace the lifecycle does not know is left alone (not imported yet); a changed type is
-- NS010. In this order, so a project moved and renamed in one statement lands under its new parent
-- with its new path.
create or replace function lifecycle.legacy_tree_update(b lifecycle.legacy_tree_bridges, ns_id bigint, parent_id bigint, type text,
                                             path text, name text, visibility text)
returns void
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  caller name := coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user);
  ns lifecycle.namespaces;
  request record;
  moved record;
  failure text;
begin
  select * into ns from lifecycle.namespaces n where n.id = ns_id;
  if not found then
    return;
  end if;
  if type is distinct from ns.type then
    raise exception using errcode = 'NS010', message = pg_catalog.format('a %s cannot become a %s', ns.type, coalesce(type, 'namespace of no known type')),
      detail = pg_catalog.format('namespace_id=%s type=%s legacy_type=%s source=%s', ns_id, ns.type, type, b.source),
      hint = 'Delete the row and insert another (a hard delete and a creation).';
  end if;

  if parent_id is distinct from ns.parent_id then
    if parent_id is null then
      raise exception using errcode = 'NS010', message = 'a namespace does not move to the root',
        detail = pg_catalog.format('namespace_id=%s parent_id=%s source=%s', ns_id, ns.parent_id, b.source),
        hint = 'Transfers move namespaces below another group.';
    end if;
    if not pg_catalog.has_function_privilege(caller, 'lifecycle.namespace_transfer_request(bigint, bigint, bigint)', 'EXECUTE') then
      raise exception using errcode = 'NS005', message = pg_catalog.format('role %s may not move namespaces, through a legacy tree bridge neither', caller),
        detail = pg_catalog.format('namespace_id=%s role=%s', ns_id, caller), hint = 'Write as a member of lifecycle_app (or lifecycle_worker).';
    end if;
    select * into request from lifecycle.namespace_transfer_request(ns_id, parent_id, b.actor_id) r;
    if request.status <> 'accepted' then
      raise exception using errcode = 'NS005',
        message = pg_catalog.format('the legacy tree bridge''s actor %s may not accept namespaces below %s', b.actor_id,
                                    lifecycle.namespace_full_path(parent_id)),
        detail = pg_catalog.format('namespace_id=%s to_parent_id=%s actor_id=%s source=%s', ns_id, parent_id, b.actor_id, b.source),
        hint = 'Give the bridge''s actor the transfer_accept level on the new parent (lifecycle.operation_policies).';
    end if;
    select * into moved from lifecycle.namespace_transfer_execute(ns_id) m;
    if moved.outcome <> 'completed' then
      select t.last_error into failure from lifecycle.transfer_requests t where t.id = request.request_id;
      raise exception using errcode = coalesce(pg_catalog.substring(failure, '^(NS[0-9]{3})'), 'NS010'),
        message = pg_catalog.format('the move below %s failed: %s', lifecycle.namespace_full_path(parent_id), failure),
        detail = pg_catalog.format('namespace_id=%s to_parent_id=%s source=%s', ns_id, parent_id, b.source),
        hint = 'The legacy row keeps its parent; fix what the move met and write it again.';
    end if;
    select * into ns from lifecycle.namespaces n where n.id = ns_id;
  end if;

  if not lifecycle.legacy_path_matches(path, ns.path, ns.id) then
    if not pg_catalog.has_function_privilege(caller, 'lifecycle.namespace_rename(bigint, text, bigint)', 'EXECUTE') then
      raise exception using errcode = 'NS005', message = pg_catalog.format('role %s may not rename namespaces, through a legacy tree bridge neither', caller),
        detail = pg_catalog.format('namespace_id=%s role=%s', ns_id, caller), hint = 'Write as a member of lifecycle_app (or lifecycle_worker).';
    end if;
    perform lifecycle.namespace_rename(ns_id, lifecycle.legacy_tree_final_path(path, ns.parent_id, ns_id), b.actor_id);
    perform lifecycle.legacy_path_redirect(ns_id, path, b.actor_id);
  end if;

  if name is distinct from ns.name then
    if not pg_catalog.has_column_privilege(caller, 'lifecycle.namespaces', 'name', 'UPDATE') then
      raise exception using errcode = 'NS005', message = pg_catalog.format('role %s may not rename namespaces, through a legacy tree bridge neither', caller),
        detail = pg_catalog.format('namespace_id=%s role=%s', ns_id, caller), hint = 'Write as a member of lifecycle_app (or lifecycle_worker).';
    end if;
    update lifecycle.namespaces n set name = legacy_tree_update.name, updated_at = pg_catalog.now() where n.id = ns_id;
  end if;

  if visibility is not null and visibility is distinct from ns.visibility then
    if not pg_catalog.has_function_privilege(caller, 'lifecycle.namespace_set_visibility(bigint, text, bigint)', 'EXECUTE') then
      raise exception using errcode = 'NS005',
        message = pg_catalog.format('role %s may not change visibilities, through a legacy tree bridge neither', caller),
        detail = pg_catalog.format('namespace_id=%s role=%s', ns_id, caller), hint = 'Write as a member of lifecycle_app (or lifecycle_worker).';
    end if;
    perform lifecycle.namespace_set_visibility(ns_id, visibility, b.actor_id);
  end if;
end
$$;
