-- One bounded batch of a hard delete (docs/design.md §5): the namespace must be deletion_in_progress
-- (NS001). Each call removes up to batch_size (default lifecycle.settings.hard_delete_batch_size)
-- of its descendants, deepest first, so a parent never goes before its children; the last call
-- records a snapshot of the root in lifecycle.deleted_namespaces (full path, type, who scheduled
-- it and when, descendant count) and removes the root. Progress {done, total} is kept in the
-- root's state_metadata, so a delete interrupted at any point resumes where it stopped; calling
-- it again after the end returns done without doing anything. Memberships, details, redirects and
-- transfer requests go with their namespaces; history stays.
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
  removed bigint;
  left_over bigint;
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
  if total is null then
    select count(*) into total from lifecycle.namespaces d
     where d.traversal_ids > ns.traversal_ids and d.traversal_ids < upper_bound;
  end if;

  -- Deepest first: when a row is in the batch, every deeper row of the subtree is too, so no row
  -- goes before its children.
  with doomed as (
    select d.id from lifecycle.namespaces d
     where d.traversal_ids > ns.traversal_ids and d.traversal_ids < upper_bound
     order by pg_catalog.cardinality(d.traversal_ids) desc, d.id
     limit batch_size
  ), gone as (
    delete from lifecycle.namespaces d using doomed where d.id = doomed.id returning 1
  )
  select count(*) into removed from gone;

  select count(*) into left_over from lifecycle.namespaces d
   where d.traversal_ids > ns.traversal_ids and d.traversal_ids < upper_bound;

  if left_over > 0 then
    -- (lifecycle.details_record is the state record's: a client's value must not spare this write
    -- its check, namespace_details_validate.)
    perform pg_catalog.set_config('lifecycle.details_record', '', true);
    update lifecycle.namespace_details d
       set state_metadata = d.state_metadata || pg_catalog.jsonb_build_object(
             'progress', pg_catalog.jsonb_build_object('done', total - left_over, 'total', total))
     where d.namespace_id = ns.id;
    return query select removed, left_over, false;
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
  'One batch of a hard delete (deepest first); call until done. Errors: NS001 NS004 NS010.';
