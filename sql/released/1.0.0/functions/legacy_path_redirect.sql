-- Keep a legacy path resolving to the namespace it named (docs/design.md §10.1, §10.3), when the
-- lifecycle path it became differs: a redirect of kind import from the exact legacy path below the
-- parent's full path when it has capitals (case kept: namespace_resolve looks it up as given
-- before it folds case, so a user `ACME` beside a group `acme` stays the user's), and one from its
-- lowercase form unless a live sibling holds that (resolution folds case: `acme` names the group).
-- Nothing when the lowercase legacy path is the lifecycle path (`Docs` became `docs`: resolution
-- finds it by folding case). Called by the tree bridges after a creation or a rename they carry.
create or replace function lifecycle.legacy_path_redirect(ns_id bigint, legacy text, actor_id bigint)
returns void
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  parent_path text;
  new_path text;
begin
  select * into ns from lifecycle.namespaces n where n.id = ns_id;
  if not found or legacy = ns.path then
    return;
  end if;
  parent_path := coalesce(lifecycle.namespace_full_path(ns.parent_id) || '/', '');
  new_path := lifecycle.namespace_full_path(ns.id);
  if legacy <> pg_catalog.lower(legacy) and pg_catalog.lower(legacy) <> ns.path then
    insert into lifecycle.namespace_redirects (old_full_path, namespace_id, kind, actor_id, new_full_path)
    values (parent_path || legacy, ns.id, 'import', actor_id, new_path);
  end if;
  if pg_catalog.lower(legacy) <> ns.path
     and not exists (select from lifecycle.namespaces n
                      where coalesce(n.parent_id, 0) = coalesce(ns.parent_id, 0) and n.path = pg_catalog.lower(legacy)
                        and lifecycle.state_path_live(n.state)) then
    insert into lifecycle.namespace_redirects (old_full_path, namespace_id, kind, actor_id, new_full_path)
    values (parent_path || pg_catalog.lower(legacy), ns.id, 'import', actor_id, new_path);
  end if;
end
$$;

comment on function lifecycle.legacy_path_redirect(bigint, text, bigint) is
  'Redirects (kind import) from a legacy path, exact and lowercase, to the namespace it became.';
