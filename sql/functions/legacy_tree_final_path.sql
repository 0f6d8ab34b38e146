-- The lifecycle path a legacy path becomes below parent_id for namespace ns_id (docs/design.md
-- §10.3), as the import makes it: the path itself when the path rules accept it (one a live sibling
-- holds is then the writer's NS006, as for any creation or rename); else its normalised form
-- (path_normalised: GitLab's `Docs`, `John.Doe`, `my project`), with the id appended when that is
-- reserved or a live sibling holds it. A path equal, case aside, to a live sibling's is refused
-- like the exact one (NS006), as GitLab refuses it: resolution folds case, so `acme/Platform`
-- names the live `acme/platform`, and a namespace with that legacy path would take it over. A path
-- with a control or bidirectional formatting character is refused (NS010), not normalised.
create or replace function lifecycle.legacy_tree_final_path(legacy text, parent_id bigint, ns_id bigint)
returns text
language plpgsql
stable
set search_path to ''
as $$
#variable_conflict use_variable
declare
  wanted text;
  refusal text;
  taken_by bigint;
begin
  if legacy is null or legacy = '' then
    raise exception using errcode = 'NS010', message = 'invalid path', detail = pg_catalog.format('namespace_id=%s path is empty', ns_id),
      hint = 'Give the legacy row a path.';
  end if;
  if lifecycle.path_refusal(legacy, parent_id) is null then
    return legacy;
  end if;
  refusal := lifecycle.character_refusal('path', legacy);
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid path', detail = refusal,
      hint = 'Remove control and bidirectional formatting characters from the legacy path.';
  end if;
  select n.id into taken_by
    from lifecycle.namespaces n
   where coalesce(n.parent_id, 0) = coalesce(parent_id, 0) and n.path = pg_catalog.lower(legacy)
     and lifecycle.state_path_live(n.state) and n.id <> ns_id;
  if found then
    raise exception using errcode = 'NS006',
      message = pg_catalog.format('path %s is taken', coalesce(lifecycle.namespace_full_path(parent_id) || '/', '') || pg_catalog.lower(legacy)),
      detail = pg_catalog.format('namespace_id=%s legacy_path=%s taken_by_namespace_id=%s', ns_id, legacy, taken_by),
      hint = 'Paths are unique among siblings whatever their case: choose another path.';
  end if;
  wanted := lifecycle.path_normalised(legacy);
  if lifecycle.path_refusal(wanted, parent_id) is not null
     or exists (select from lifecycle.namespaces n
                 where coalesce(n.parent_id, 0) = coalesce(parent_id, 0) and n.path = wanted
                   and lifecycle.state_path_live(n.state) and n.id <> ns_id) then
    return lifecycle.legacy_path_suffixed(legacy, ns_id);
  end if;
  return wanted;
end
$$;

comment on function lifecycle.legacy_tree_final_path(text, bigint, bigint) is
  'The lifecycle path a legacy path becomes: itself when valid, else normalised (with the id when reserved or taken).';
