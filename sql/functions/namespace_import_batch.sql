-- One batch of an import (docs/design.md §10): up to max_rows queued rows of the lowest level left
-- (namespace_import_prepare), all of whose parents are in lifecycle.namespaces by now, judged
-- set-based against those parents and one another, the valid ones written with their ids, states,
-- legacy dates and actors, the others left staged with a code and a reason. Returns what it
-- imported and rejected, and how many rows are still queued.
--
-- The rules a staged row must meet, first failure wins:
--   NS010 an id already in use; an unknown type; an organization with a parent; a project as
--         parent; deeper than namespace_max_depth(); an unknown visibility; a name name_refusal
--         refuses; no path; an unknown state or preserved_state; transfer_in_progress (its move
--         cannot be imported: finish or cancel it first); a preserved_state that is not a
--         permanent state, or not one the matrix leads from to the staged state
--   NS004 a parent neither in lifecycle.namespaces nor importable (rejected itself: "below
--         rejected row N")
--   NS002 more visible than its parent
--   NS006 a path (as it is, valid) that a live sibling holds
-- A legacy path the path rules refuse (mixed case, characters outside the slug, a reserved name)
-- is normalised (path_normalised), with the namespace's id appended when the result is reserved or
-- taken, and a redirect (kind import) keeps the legacy path resolving. So every imported row obeys
-- the rules new writes obey.
--
-- What an imported row gets: the staged id (the identity sequence moves past it), traversal_ids
-- from its parent, its state with a history row from active (actor state_changed_by, time
-- state_changed_at, source import, metadata reason "imported") for any state but active and
-- creation_in_progress (an initial state), deletion_scheduled_at/_by from the same columns (the
-- sweeper's dates are the legacy ones), updated_at = state_changed_at, and its details row
-- (last_updated_at, last_changed_by_user_id, previous_state, preserved_state). The row triggers of
-- a plain INSERT do not fire for it: it arrives with its traversal_ids, which only the schema's
-- owner may write, and with lifecycle.importing set (which the INSERT triggers refuse to see on a
-- client's row); everything they check is checked above, set-based. No fact per row: one
-- namespaces_imported fact per batch, so an import notifies no one.
--
-- Locks, in the global order (namespace_lock_path): the import's own key (one import at a time),
-- the parents FOR SHARE (step 1: none moves or is deleted under the batch), then the key of all
-- sibling paths exclusively (step 3: every other path-making write waits for this batch, a moment,
-- and none races it).
create function lifecycle.namespace_import_batch(max_rows int)
returns table (imported bigint, rejected bigint, queued bigint)
language plpgsql
security definer
set search_path to ''
-- One batch is thousands of rows: hash joins, not the index nested loops the hot path wants.
set jit to off
as $$
#variable_conflict use_column
declare
  lvl int;
  max_depth constant int := lifecycle.namespace_max_depth();
  noted text;
  n_imported bigint;
  n_rejected bigint;
  first_id bigint;
  last_id bigint;
  states jsonb;
begin
  if max_rows is null or max_rows < 1 then
    raise exception using errcode = 'NS010', message = 'max_rows must be at least 1',
      detail = pg_catalog.format('max_rows=%s', max_rows), hint = 'Pass a positive batch size.';
  end if;
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_queue') is null then
    raise exception using errcode = 'NS010', message = 'no import is prepared in this session',
      hint = 'Call lifecycle.namespace_import_prepare() first, or use lifecycle.namespace_import_apply() or CALL lifecycle.namespace_import_run().';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('lifecycle namespace import', 0));

  select min(q.level) into lvl from pg_temp.lifecycle_import_queue q;
  if lvl is null then
    return query select 0::bigint, 0::bigint, 0::bigint;
    return;
  end if;

  drop table if exists pg_temp.lifecycle_import_batch;
  create temporary table lifecycle_import_batch on commit drop as
  select s.id, s.parent_id, s.type, s.path, s.name,
         coalesce(s.visibility, 'private') as visibility,
         coalesce(s.state, 'active') as state_name,
         st.code as state, st.permanent as state_permanent, st.pending_deletion as state_pending,
         case when s.preserved_state = 'active' then 0::smallint else ps.code end as preserved,
         ps.permanent as preserved_permanent,
         coalesce(s.state_changed_at, s.created_at, pg_catalog.now()) as changed_at,
         s.state_changed_by as changed_by,
         coalesce(s.created_at, pg_catalog.now()) as created_at,
         s.preserved_state as preserved_name,
         v.rank as own_rank,
         p.id as parent_found, p.type as parent_type, p.traversal_ids as parent_path, pv.rank as parent_rank,
         p.visibility as parent_visibility,
         lifecycle.path_refusal(s.path, s.parent_id) is not null as legacy_path,
         null::text as final_path,
         null::text as code,
         null::text as reason
    from (select q.id from pg_temp.lifecycle_import_queue q where q.level = lvl order by q.id limit max_rows) b
    join lifecycle.namespace_imports s on s.id = b.id
    left join lifecycle.states st on st.name = case when s.state = 'active' then 'ancestor_inherited'
                                                     else coalesce(s.state, 'ancestor_inherited') end
    left join lifecycle.states ps on ps.name = case when s.preserved_state = 'active' then 'ancestor_inherited'
                                                    else s.preserved_state end
    left join lifecycle.visibility_levels v on v.name = coalesce(s.visibility, 'private')
    left join lifecycle.namespaces p on p.id = s.parent_id
    left join lifecycle.visibility_levels pv on pv.name = p.visibility;
  -- The queue's rows of this batch are taken, whatever their verdict (a row fixed later is queued
  -- again by the next prepare).
  delete from pg_temp.lifecycle_import_queue q using pg_temp.lifecycle_import_batch b where q.id = b.id;

  -- Step 1: the parents, root first, FOR SHARE.
  perform 1 from lifecycle.namespaces n
   where n.id in (select b.parent_id from pg_temp.lifecycle_import_batch b)
   order by n.traversal_ids
     for share of n;
  -- Step 3: every sibling path.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('lifecycle sibling paths (all)', 0));

  -- The row rules, first failure wins.
  update pg_temp.lifecycle_import_batch b
     set (code, reason) = (select r.code, r.reason from (values
       (1, case
          when b.id is null then 'id is required'
          when exists (select from lifecycle.namespaces n where n.id = b.id)
            then pg_catalog.format('namespace id %s is in use', b.id)
          when b.type is null or b.type not in ('organization', 'group', 'project', 'user')
            then pg_catalog.format('unknown type %L', b.type)
          when b.type = 'organization' and b.parent_id is not null then 'an organization has no parent'
        end, 'NS010'),
       (2, case when b.parent_id is not null and b.parent_found is null then
          coalesce((select pg_catalog.format('below rejected row %s (%s: %s)', r.id, r.reject_code, r.reject_reason)
                      from lifecycle.namespace_imports r where r.id = b.parent_id and r.reject_code is not null),
                   pg_catalog.format('parent %s is neither a namespace nor importable', b.parent_id))
        end, 'NS004'),
       (3, case
          when b.parent_type = 'project' then 'a project cannot have children'
          when pg_catalog.cardinality(b.parent_path) >= max_depth
            then pg_catalog.format('deeper than %s levels', max_depth)
          when b.own_rank is null then pg_catalog.format('unknown visibility %L', b.visibility)
        end, 'NS010'),
       (4, case when b.own_rank > b.parent_rank
          then pg_catalog.format('%s, more visible than its parent (%s)', b.visibility, b.parent_visibility) end, 'NS002'),
       (5, case
          when lifecycle.name_refusal(b.name) is not null then lifecycle.name_refusal(b.name)
          when b.path is null or b.path = '' then 'path is required'
          when b.state is null then pg_catalog.format('unknown state %L', b.state_name)
          when b.state = 5 then 'a transfer in progress cannot be imported: finish or cancel it first'
          when b.preserved_name is not null and b.preserved is null
            then pg_catalog.format('unknown preserved_state %L', b.preserved_name)
          when not b.state_permanent and b.preserved is not null and not b.preserved_permanent
            then pg_catalog.format('preserved_state %s is not a permanent state', b.preserved_name)
          when b.state in (2, 4, 6) and not exists (
                 select from lifecycle.state_transitions t
                  where t.from_state = coalesce(b.preserved, 0)
                    and t.to_state = case when b.state = 4 then 2 else b.state end)
            then pg_catalog.format('%s cannot have been reached from %s', b.state_name, coalesce(b.preserved_name, 'active'))
        end, 'NS010')
     ) r(rule, reason, code) where r.reason is not null order by r.rule limit 1);

  -- Paths. A valid legacy path is kept; one the rules refuse is normalised, and takes the id as a
  -- suffix when the result is still refused (reserved) or a live sibling holds it. Only live rows
  -- (not pending deletion) hold a path among their siblings.
  update pg_temp.lifecycle_import_batch b
     set final_path = case when b.legacy_path then lifecycle.path_normalised(b.path) else b.path end
   where b.code is null;
  update pg_temp.lifecycle_import_batch b
     set final_path = pg_catalog.regexp_replace(pg_catalog.left(b.final_path, 99 - pg_catalog.length(b.id::text)), '[^a-z0-9]+$', '')
                      || '-' || b.id
   where b.code is null and b.legacy_path
     and (lifecycle.path_refusal(b.final_path, b.parent_id) is not null
          or (not b.state_pending and exists (
                select from lifecycle.namespaces n
                 where coalesce(n.parent_id, 0) = coalesce(b.parent_id, 0) and n.path = b.final_path
                   and n.state <> 2 and n.state <> 4)));
  -- Two live rows of the batch on one path below one parent: the first (a valid path before a
  -- normalised one, then by id) keeps it; a later normalised one takes its id as suffix, a later
  -- valid one is a real duplicate (NS006).
  update pg_temp.lifecycle_import_batch b
     set final_path = case when b.legacy_path
                        then pg_catalog.regexp_replace(pg_catalog.left(b.final_path, 99 - pg_catalog.length(b.id::text)), '[^a-z0-9]+$', '')
                             || '-' || b.id
                        else b.final_path end,
         code = case when b.legacy_path then null else 'NS006' end,
         reason = case when b.legacy_path then null
                       else pg_catalog.format('path %s is staged twice below one parent (row %s has it)', b.final_path, d.holder) end
    from (select x.id, pg_catalog.row_number() over w as rn, pg_catalog.first_value(x.id) over w as holder
            from pg_temp.lifecycle_import_batch x
           where x.code is null and not x.state_pending
          window w as (partition by coalesce(x.parent_id, 0), x.final_path order by x.legacy_path, x.id)) d
   where d.id = b.id and d.rn > 1;
  -- A path a live namespace holds (a valid legacy path, or a suffixed one by bad luck): NS006.
  update pg_temp.lifecycle_import_batch b
     set code = 'NS006',
         reason = pg_catalog.format('path %s is taken by a live sibling', b.final_path)
   where b.code is null and not b.state_pending
     and exists (select from lifecycle.namespaces n
                  where coalesce(n.parent_id, 0) = coalesce(b.parent_id, 0) and n.path = b.final_path
                    and n.state <> 2 and n.state <> 4);

  -- The rows: no INSERT trigger fires for them (traversal_ids given, lifecycle.importing set).
  noted := pg_catalog.set_config('lifecycle.importing', 'on', true);
  insert into lifecycle.namespaces (id, parent_id, type, path, name, visibility, state, traversal_ids, created_at,
                                    updated_at, deletion_scheduled_at, deletion_scheduled_by, state_changes)
  select b.id, b.parent_id, b.type, b.final_path, b.name, b.visibility, b.state,
         coalesce(b.parent_path, '{}') || b.id, b.created_at, b.changed_at,
         case when b.state in (2, 4) then b.changed_at end, case when b.state in (2, 4) then b.changed_by end,
         case when b.state in (0, 3) then 0 else 1 end
    from pg_temp.lifecycle_import_batch b
   where b.code is null
   order by b.id;
  get diagnostics n_imported = row_count;

  insert into lifecycle.namespace_details (namespace_id, state_metadata)
  select b.id,
         pg_catalog.jsonb_build_object('last_updated_at', b.changed_at, 'last_changed_by_user_id', b.changed_by)
         || case when b.state in (0, 3) then '{}'::jsonb
                 else pg_catalog.jsonb_build_object('previous_state', 'ancestor_inherited') end
         || case when b.state_permanent or b.state = 3 then '{}'::jsonb
                 else pg_catalog.jsonb_build_object('preserved_state',
                        case coalesce(b.preserved, 0) when 0 then 'ancestor_inherited' else b.preserved_name end) end
    from pg_temp.lifecycle_import_batch b
   where b.code is null;

  insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
  select b.id, 0, b.state, null, b.changed_by, 'import', '{"reason": "imported"}', b.changed_at
    from pg_temp.lifecycle_import_batch b
   where b.code is null and b.state not in (0, 3)
   order by b.id;

  -- The legacy path keeps resolving (lowercased, as namespace_resolve looks it up) when the
  -- normalised one differs by more than case.
  insert into lifecycle.namespace_redirects (old_full_path, namespace_id, kind, actor_id, new_full_path)
  select coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '') || pg_catalog.lower(b.path), b.id, 'import', null,
         coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '') || b.final_path
    from pg_temp.lifecycle_import_batch b
   where b.code is null and b.legacy_path and pg_catalog.lower(b.path) <> b.final_path;
  noted := pg_catalog.set_config('lifecycle.importing', '', true);

  delete from lifecycle.namespace_imports s using pg_temp.lifecycle_import_batch b where s.id = b.id and b.code is null;
  update lifecycle.namespace_imports s set reject_code = b.code, reject_reason = b.reason
    from pg_temp.lifecycle_import_batch b
   where s.id = b.id and b.code is not null;
  get diagnostics n_rejected = row_count;

  if n_imported > 0 then
    -- New namespaces of the application get ids past every imported one.
    perform pg_catalog.setval('lifecycle.namespaces_id_seq',
      greatest((select s.last_value from lifecycle.namespaces_id_seq s), (select max(b.id) from pg_temp.lifecycle_import_batch b where b.code is null)));
    select min(b.id), max(b.id) into first_id, last_id from pg_temp.lifecycle_import_batch b where b.code is null;
    select pg_catalog.jsonb_object_agg(c.state_name, c.n) into states
      from (select b.state_name, count(*) as n from pg_temp.lifecycle_import_batch b where b.code is null group by 1) c;
    -- One fact for the batch: the audit records the import; no owner is notified, no webhook sent.
    perform lifecycle.fact_emit('namespaces_imported', null, '{}'::bigint[], null, null,
      pg_catalog.jsonb_build_object('imported', n_imported, 'rejected', n_rejected, 'level', lvl,
                                    'first_id', first_id, 'last_id', last_id, 'states', states));
  end if;
  return query select n_imported, n_rejected, (select count(*) from pg_temp.lifecycle_import_queue);
end
$$;
