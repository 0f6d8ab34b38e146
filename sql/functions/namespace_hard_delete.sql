-- One bounded batch of a hard delete (docs/design.md §5): the namespace must be deletion_in_progress
-- (NS001). Each call removes up to batch_size (default lifecycle.settings.hard_delete_batch_size)
-- of its descendants, in descending traversal_ids order: a namespace's descendants sort after it,
-- so each goes before its parent. The last call records a snapshot of the root in
-- lifecycle.deleted_namespaces (full path, type, who scheduled it and when, descendant count) and
-- removes the root. Progress {done, total, below} is kept in the root's state_metadata (below: the
-- traversal_ids of the last row removed, where the next batch starts), so a delete interrupted at
-- any point resumes where it stopped, and each batch reads only the rows it deletes: the index of
-- traversal_ids read backwards from below, never the dead entries of the batches before it (which
-- made a batch cost the whole subtree, and a hard delete the square of it). The subtree is counted
-- once, at the first call, and checked empty once, when a batch finds nothing more below its
-- cursor (a row that appeared behind it, which the rules do not let happen, starts the walk over).
-- Calling it again after the end returns done without doing anything. Memberships, details,
-- redirects and transfer requests go with their namespaces; history stays.
--
-- Each call is one transaction's worth: the sweeper and the syncer call it until done, each call
-- committed on its own (from SQL: CALL lifecycle.namespace_hard_delete_all(id)).
create or replace function lifecycle.namespace_hard_delete(namespace_id bigint, batch_size int default null)
returns table (deleted bigint, remaining bigint, done boolean)
language plpgsql
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  depth int;
  upper_bound bigint[];
  md jsonb;
  total bigint;
  done_before bigint;
  below bigint[];
  removed bigint;
  last_removed bigint[];
begin
  if namespace_id is null then
    raise exception using errcode = 'NS010', message = 'namespace_id is required', hint = 'Pass the id of the namespace to delete.';
  end if;
  batch_size := coalesce(batch_size, (select s.hard_delete_batch_size from lifecycle.settings s));
  if batch_size < 1 then
    raise exception using errcode = 'NS010', message = 'batch_size must be at least 1',
      detail = pg_catalog.format('batch_size=%s', batch_size), hint = 'Pass a positive batch size, or null for the setting.';
  end if;
  if not exists (select from lifecycle.namespaces n where n.id = namespace_hard_delete.namespace_id)
     and exists (select from lifecycle.deleted_namespaces d where d.namespace_id = namespace_hard_delete.namespace_id) then
    return query select 0::bigint, 0::bigint, true;
    return;
  end if;
  ns := lifecycle.namespace_lock(namespace_id);
  if ns.state <> lifecycle.state_code('deletion_in_progress') then
    raise exception using errcode = 'NS001',
      message = pg_catalog.format('cannot hard-delete a namespace that is %s', lifecycle.state_name(ns.state)),
      detail = pg_catalog.format('namespace_id=%s state=%s', ns.id, lifecycle.state_name(ns.state)),
      hint = 'Schedule the deletion, then start it (deletion_start): only deletion_in_progress is removed.';
  end if;

  depth := pg_catalog.cardinality(ns.traversal_ids);
  upper_bound := ns.traversal_ids[1:depth - 1] || (ns.traversal_ids[depth] + 1);
  select d.state_metadata into md from lifecycle.namespace_details d where d.namespace_id = ns.id for update;
  total := (md #>> '{progress,total}')::bigint;
  done_before := coalesce((md #>> '{progress,done}')::bigint, 0);
  below := coalesce((select pg_catalog.array_agg(x::bigint) from pg_catalog.jsonb_array_elements_text(md #> '{progress,below}') x),
                    upper_bound);
  if total is null then
    select count(*) into total from lifecycle.namespaces d
     where d.traversal_ids > ns.traversal_ids and d.traversal_ids < upper_bound;
  end if;

  -- The next batch_size rows below the cursor, descendants before their ancestors.
  with doomed as (
    select d.id from lifecycle.namespaces d
     where d.traversal_ids > ns.traversal_ids and d.traversal_ids < below
     order by d.traversal_ids desc
     limit batch_size
  ), gone as (
    delete from lifecycle.namespaces d using doomed where d.id = doomed.id returning d.traversal_ids
  )
  select count(*), pg_catalog.min(gone.traversal_ids) into removed, last_removed from gone;

  -- A full batch short of the total has more below it. Otherwise the walk has reached the root,
  -- unless a row appeared behind the cursor (checked once: the walk then starts over from the top).
  if removed = batch_size and done_before + removed < total then
    below := last_removed;
  elsif exists (select from lifecycle.namespaces d where d.traversal_ids > ns.traversal_ids and d.traversal_ids < upper_bound) then
    below := case when removed = batch_size then last_removed else upper_bound end;
  else
    below := null;
  end if;
  if below is not null then
    -- (lifecycle.details_record is the state record's: a client's value must not spare this write
    -- its check, namespace_details_validate.)
    perform pg_catalog.set_config('lifecycle.details_record', '', true);
    update lifecycle.namespace_details d
       set state_metadata = d.state_metadata || pg_catalog.jsonb_build_object(
             'progress', pg_catalog.jsonb_build_object('done', least(done_before + removed, total), 'total', total,
                                                       'below', pg_catalog.to_jsonb(below)))
     where d.namespace_id = ns.id;
    return query select removed, greatest(total - done_before - removed, 1), false;
    return;
  end if;

  insert into lifecycle.deleted_namespaces (namespace_id, full_path, type, parent_id, traversal_ids,
                                            deletion_scheduled_by, deletion_scheduled_at, descendant_count)
  values (ns.id, lifecycle.namespace_full_path(ns.id), ns.type, ns.parent_id, ns.traversal_ids,
          ns.deletion_scheduled_by, ns.deletion_scheduled_at, total);
  delete from lifecycle.namespaces d where d.id = ns.id;
  return query select removed + 1, 0::bigint, true;
end
$$;

comment on function lifecycle.namespace_hard_delete(bigint, int) is
  'One batch of a hard delete (descendants before their ancestors); call until done. Errors: NS001 NS004 NS010.';
