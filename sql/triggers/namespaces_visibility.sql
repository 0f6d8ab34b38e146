-- Visibility on every write path (create, set, move): never more visible than the parent, never
-- less visible than a descendant. Only a decrease looks down the tree, through
-- namespaces_visible_idx: the cost is the subtree's more visible rows, never the subtree.
--
-- An unknown visibility is refused (NS010). A create or a change more visible than the parent is
-- refused (NS002); a decrease below a more visible descendant is refused (NS003, naming it). A
-- move (a transfer) follows GitLab instead: a namespace moved below a less visible parent takes the
-- parent's visibility, and so does every namespace of its subtree that is more visible, in the
-- same statement as the move (docs/design.md §5). A move never raises a visibility. The lowering is recorded as one visibility_changed fact
-- on the moved namespace, with the number of namespaces lowered, and left in the setting
-- lifecycle.visibility_lowered ("<id>:<count>") for the transfer's history row.
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
  lowered bigint;
  noted text;
begin
  if tg_op = 'UPDATE' and new.visibility = old.visibility and new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  select v.rank into own_rank from lifecycle.visibility_levels v where v.name = new.visibility;
  if own_rank is null then
    raise exception using errcode = 'NS010', message = pg_catalog.format('unknown visibility %L', new.visibility),
      detail = pg_catalog.format('namespace_id=%s visibility=%s', new.id, new.visibility),
      hint = (select 'Known visibilities: ' || pg_catalog.string_agg(v.name, ', ' order by v.rank) || '.'
                from lifecycle.visibility_levels v);
  end if;
  if new.parent_id is not null then
    select p.visibility, v.rank into parent_visibility, parent_rank
      from lifecycle.namespaces p
      join lifecycle.visibility_levels v on v.name = p.visibility
     where p.id = new.parent_id;
    if own_rank > parent_rank and tg_op = 'UPDATE' and new.parent_id is distinct from old.parent_id then
      -- A move below a less visible parent. The subtree still has its old traversal_ids (the
      -- cascade runs after this row); its rows are lowered in one statement, which their own run
      -- of this trigger recognises by lifecycle.visibility_lowering: the whole subtree goes to the
      -- same cap, so none is checked against a descendant not lowered yet, and none emits a fact
      -- of its own.
      noted := pg_catalog.set_config('lifecycle.visibility_lowering', new.id::text, true);
      with done as (
        update lifecycle.namespaces d
           set visibility = parent_visibility, updated_at = pg_catalog.now()
         where d.visibility <> 'private'
           and d.visibility = any (array(select v.name from lifecycle.visibility_levels v where v.rank > parent_rank))
           and d.traversal_ids > old.traversal_ids
           and d.traversal_ids < old.traversal_ids[1:pg_catalog.cardinality(old.traversal_ids) - 1]
                                 || (old.traversal_ids[pg_catalog.cardinality(old.traversal_ids)] + 1)
        returning 1)
      select count(*) into lowered from done;
      noted := pg_catalog.set_config('lifecycle.visibility_lowering', '', true)
            || pg_catalog.set_config('lifecycle.visibility_lowered', new.id || ':' || (lowered + 1), true);
      -- The facts trigger fires only for columns the UPDATE names, and a move names parent_id:
      -- the moved namespace's fact is emitted here (it commits or rolls back with the move).
      perform lifecycle.fact_emit('visibility_changed', new.id, new.traversal_ids,
        coalesce(lifecycle.namespace_full_path(new.parent_id) || '/', '') || new.path,
        nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint,
        pg_catalog.jsonb_build_object('from', old.visibility, 'to', parent_visibility, 'reason', 'transfer',
                                      'parent_id', new.parent_id, 'namespaces_lowered', lowered + 1));
      new.visibility := parent_visibility;
      return new;
    end if;
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
  -- A row lowered with its whole subtree by a move (above) is not checked against its descendants:
  -- they are lowered by the same statement. Recognised by the marker and by running one trigger
  -- level down (inside the move's trigger), which no client statement can fake.
  if tg_op = 'UPDATE' and own_rank < (select v.rank from lifecycle.visibility_levels v where v.name = old.visibility)
     and not (pg_catalog.pg_trigger_depth() > 1
              and coalesce(pg_catalog.current_setting('lifecycle.visibility_lowering', true), '') = any (old.traversal_ids::text[])) then
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

-- A plain INSERT fires the _insert trigger; the import's rows, written with lifecycle.importing
-- set, do not: the import checks them set-based (namespace_import_batch). (A client that sets it
-- is refused: settings_confirmed.) Updates fire the other one.
create or replace trigger namespaces_2_visibility
  before update of visibility, parent_id on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_visibility();

create or replace trigger namespaces_2_visibility_insert
  before insert on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_visibility();
