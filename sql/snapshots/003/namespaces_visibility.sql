-- Visibility on every write path (create, set, move): never more visible than the parent (NS002);
-- never less visible than a descendant (NS003, naming it). Only a decrease looks down the tree,
-- through namespaces_visible_idx: the cost is the subtree's more visible rows, never the subtree.
create or replace function lifecycle.namespaces_visibility()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  own_rank smallint;
  parent_visibility text;
  parent_rank smallint;
  depth int := pg_catalog.cardinality(new.traversal_ids);
  hit_id bigint;
  hit_visibility text;
begin
  if tg_op = 'UPDATE' and new.visibility = old.visibility and new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  select v.rank into own_rank from lifecycle.visibility_levels v where v.name = new.visibility;
  if new.parent_id is not null then
    select p.visibility, v.rank into parent_visibility, parent_rank
      from lifecycle.namespaces p
      join lifecycle.visibility_levels v on v.name = p.visibility
     where p.id = new.parent_id;
    if own_rank > parent_rank then
      raise exception using errcode = 'NS002',
        message = pg_catalog.format('a namespace cannot be more visible than its parent %s, which is %s',
                                    lifecycle.namespace_full_path(new.parent_id), parent_visibility),
        detail = pg_catalog.format('namespace_id=%s visibility=%s parent_id=%s parent_visibility=%s', new.id,
                                   new.visibility, new.parent_id, parent_visibility),
        hint = pg_catalog.format('Choose %s or less, or make %s more visible first.', parent_visibility,
                                 lifecycle.namespace_full_path(new.parent_id));
    end if;
  end if;
  if tg_op = 'UPDATE' and own_rank < (select v.rank from lifecycle.visibility_levels v where v.name = old.visibility) then
    select d.id, d.visibility into hit_id, hit_visibility
      from lifecycle.namespaces d
     where d.visibility <> 'private'
       and d.visibility = any (array(select v.name from lifecycle.visibility_levels v where v.rank > own_rank))
       and d.traversal_ids > new.traversal_ids
       and d.traversal_ids < new.traversal_ids[1:depth - 1] || (new.traversal_ids[depth] + 1)
     limit 1;
    if found then
      raise exception using errcode = 'NS003',
        message = pg_catalog.format('descendant %s is %s, more visible than %s', lifecycle.namespace_full_path(hit_id),
                                    hit_visibility, new.visibility),
        detail = pg_catalog.format('namespace_id=%s visibility=%s descendant_id=%s descendant_visibility=%s', new.id,
                                   new.visibility, hit_id, hit_visibility),
        hint = pg_catalog.format('Make %s %s or less first.', lifecycle.namespace_full_path(hit_id), new.visibility);
    end if;
  end if;
  return new;
end
$$;

create or replace trigger namespaces_2_visibility
  before insert or update of visibility, parent_id on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_visibility();
