-- A legacy INSERT of a namespace a tree bridge speaks for (docs/design.md §10.3): the namespace is
-- created with the legacy id, below its legacy parent, with the lifecycle path its legacy path
-- becomes (legacy_tree_final_path; redirects keep the legacy one resolving, legacy_path_redirect),
-- its name and visibility, by the same INSERT and triggers as any creation (path rules, NS006,
-- NS002 above the parent's visibility, the fact namespace_created). The writing role needs what a
-- creation needs (INSERT on lifecycle.namespaces, as lifecycle_app has), else NS005. A namespace
-- the lifecycle has already (the write-back of a creation made through the API) is compared
-- instead (legacy_tree_update). A parent the lifecycle does not know yet leaves the row alone: the
-- bridge is inert until its parent is imported, as for every namespace not imported yet. The
-- identity sequence of lifecycle.namespaces moves past the legacy id, so an id the lifecycle hands
-- out later is not one the legacy data used.
create or replace function lifecycle.legacy_tree_create(b lifecycle.legacy_tree_bridges, ns_id bigint, parent_id bigint, type text,
                                             path text, name text, visibility text)
returns void
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  caller name := coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user);
  final text;
begin
  if exists (select from lifecycle.namespaces n where n.id = ns_id) then
    perform lifecycle.legacy_tree_update(b, ns_id, parent_id, type, path, name, visibility);
    return;
  end if;
  if parent_id is not null and not exists (select from lifecycle.namespaces n where n.id = parent_id) then
    return;
  end if;
  if not pg_catalog.has_column_privilege(caller, 'lifecycle.namespaces', 'path', 'INSERT') then
    raise exception using errcode = 'NS005',
      message = pg_catalog.format('role %s may not create namespaces, through a legacy tree bridge neither', caller),
      detail = pg_catalog.format('namespace_id=%s role=%s source=%s', ns_id, caller, b.source),
      hint = 'Write the legacy rows that a tree bridge carries over as a member of lifecycle_app (or lifecycle_worker).';
  end if;
  final := lifecycle.legacy_tree_final_path(path, parent_id, ns_id);
  insert into lifecycle.namespaces (id, parent_id, type, path, name, visibility)
  values (ns_id, parent_id, type, final, name, coalesce(visibility, 'private'));
  if ns_id >= (select s.last_value from lifecycle.namespaces_id_seq s) then
    perform pg_catalog.setval('lifecycle.namespaces_id_seq', ns_id);
  end if;
  perform lifecycle.legacy_path_redirect(ns_id, path, b.actor_id);
end
$$;
