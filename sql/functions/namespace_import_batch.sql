-- One batch of an import (docs/design.md §10): up to max_rows queued rows of the lowest level left
-- (namespace_import_prepare), all of whose parents are in lifecycle.namespaces by now, judged
-- set-based against those parents and one another, the valid ones written with their ids, states,
-- legacy dates and actors, the others left staged with a code and a reason. Returns what it
-- imported and rejected, and how many rows are still queued.
--
-- The rules a staged row must meet, first failure wins:
--   NS010 an id outside 1 to 2^62 - 1 (see below), or outside the cluster's id range when one is
--         set (lifecycle.id_range); an id already in use; an unknown type; an
--         organization with a parent; a project as parent; deeper than namespace_max_depth(); an
--         unknown visibility; a name name_refusal refuses; no path; a path with a control or
--         bidirectional formatting character (character_refusal: refused, not normalised); an
--         unknown state or preserved_state; transfer_in_progress (its move cannot be imported:
--         finish or cancel it first); a preserved_state that is not a permanent state, or not one
--         the matrix leads from to the staged state
--   NS013 two legacy rows of the namespace name different parents (legacy_parent_id, when
--         given, is not parent_id: GitLab's namespaces.parent_id of a project's namespace against
--         projects.namespace_id); imported under either, it would be in one place here and in
--         another for the legacy code
--   NS004 a parent neither in lifecycle.namespaces nor importable (rejected itself: "below
--         rejected row N")
--   NS002 more visible than its parent
--   NS006 a path (as it is, valid) that a live sibling holds, or a legacy path equal to one case aside
-- A legacy path the path rules refuse (mixed case, characters outside the slug, a reserved name)
-- is normalised (path_normalised), with the namespace's id appended when the result is reserved or
-- taken, and redirects (kind import) keep the legacy path resolving, lowercase and, when folding
-- case would lead elsewhere, exact. So every imported row obeys the rules new writes obey.
--
-- Ids: 0 and below are refused because 0 is the "no parent" key of the sibling paths
-- (coalesce(parent_id, 0) in namespaces_live_path_key and the statements that probe it; the
-- namespaces_id_range constraint keeps every id above it). 2^62 and above are refused because the
-- identity sequence moves past every imported id and must leave the application's INSERTs room
-- (at least 2^62 ids), and because the guards compute a subtree's upper bound as the last id + 1,
-- which overflows at 2^63 - 1.
--
-- What an imported row gets: the staged id (the identity sequence moves past it), traversal_ids
-- from its parent, its state with a history row from active (actor state_changed_by, time
-- state_changed_at, source import, metadata reason "imported") for any state but active and
-- creation_in_progress (an initial state), deletion_scheduled_at/_by from the same columns (the
-- sweeper's dates are the legacy ones; a deletion_in_progress staged without a date keeps none:
-- GitLab's immediate deletion has no schedule, and a date made up from created_at would be one
-- the legacy data never said), updated_at = state_changed_at, and its details row
-- (last_updated_at, last_changed_by_user_id, previous_state, preserved_state). previous_state is
-- what the API's calls leave there: the state the way from active passes last (deletion_scheduled
-- before deletion_in_progress, the preserved state before a temporary one: the matrix's way from
-- the preserved state, straight or through one temporary state), which a failed hard
-- delete returns to (deletion_failed; active there would end the deletion instead of requeuing
-- it). The row triggers of a plain INSERT do not fire for it: it arrives with its traversal_ids,
-- which only the schema's owner may write, and with lifecycle.importing set and its flag raised
-- (transaction_flag_raise: a client that sets the setting alone is refused, settings_confirmed);
-- everything they check is checked above, set-based. No fact per row: one namespaces_imported
-- fact per batch, so an import notifies no one.
--
-- Locks, in the global order (namespace_lock_path): the import's row of lifecycle.lock_rows (one
-- import at a time), the parents' paths shared (step 1: none moves, changes state or is deleted
-- under the batch), then a claim of every path the batch makes live (step 3), after which the
-- verdicts are checked again: a creation that committed in between keeps its path (NS006 for the
-- staged row), one that comes later waits for this batch and is refused.
create or replace function lifecycle.namespace_import_batch(max_rows int)
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
  replica boolean := false;
  after_id bigint;
  from_id bigint;
  taken bigint;
  left_before bigint;
  left_after bigint;
  path_ids bigint[];
  locked_ids bigint[];
  claims tid[];
  skip_rechecks boolean;
  -- The state of a namespace without one of its own (active): where every imported row's way starts.
  no_own_state smallint;
  -- The ids a row may have: 1 to 2^62 - 1, within the cluster's id range when one is set (the
  -- identity sequence moves past the imported ids: none may take it outside the range).
  lowest_id bigint := 1;
  highest_id bigint := 4611686018427387903;
begin
  -- For plpgsql_check (no-ops at run time): the queue namespace_import_prepare makes, and the
  -- tables below make.
  perform 'PRAGMA:TABLE: lifecycle_import_queue (level int, like lifecycle.namespace_imports)';
  perform 'PRAGMA:TABLE: lifecycle_import_progress (level int, cursor_id bigint, queued bigint)';
  perform 'PRAGMA:TABLE: lifecycle_import_parents (id bigint)';
  perform 'PRAGMA:TABLE: lifecycle_import_verdicts (id bigint, parent_id bigint, type text, path text, name text, visibility text, state_name text, state smallint, state_permanent boolean, state_pending boolean, preserved smallint, preserved_name text, passed smallint, changed_at timestamptz, staged_at timestamptz, changed_by bigint, created_at timestamptz, parent_path bigint[], legacy_path boolean, final_path text, code text, reason text)';
  if max_rows is null or max_rows < 1 then
    raise exception using errcode = 'NS010', message = 'max_rows must be at least 1',
      detail = pg_catalog.format('max_rows=%s', max_rows), hint = 'Pass a positive batch size.';
  end if;
  perform lifecycle.namespace_import_tables_check();
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_queue') is null
     or pg_catalog.to_regclass('pg_temp.lifecycle_import_progress') is null then
    raise exception using errcode = 'NS010', message = 'no import is prepared in this session',
      hint = 'Call lifecycle.namespace_import_prepare() first, or use lifecycle.namespace_import_apply() or CALL lifecycle.namespace_import_run().';
  end if;
  skip_rechecks := lifecycle.namespace_import_skips_rechecks();
  select s.code into no_own_state from lifecycle.states s where not lifecycle.state_is_own(s.code) order by s.code limit 1;
  select greatest(r.first_id, lowest_id), least(r.last_id, highest_id) into lowest_id, highest_id from lifecycle.id_range r;
  if not found then
    lowest_id := 1; highest_id := 4611686018427387903;
  end if;
  perform 1 from lifecycle.lock_rows l where l.name = 'namespace import' for update;

  -- The queue is read in (level, id) order from where the last batch stopped (its progress row,
  -- which only the import writes), not emptied as it goes; one level per batch, so a row's parent
  -- was imported by an earlier batch, never the same one.
  select p.level, p.cursor_id, p.queued into lvl, after_id, left_before from pg_temp.lifecycle_import_progress p;
  select q.level, q.id into lvl, from_id
    from pg_temp.lifecycle_import_queue q
   where (q.level, q.id) > (lvl, after_id)
   order by q.level, q.id
   limit 1;
  if not found then
    return query select 0::bigint, 0::bigint, 0::bigint;
    return;
  end if;

  -- An earlier batch of this transaction's (namespace_import_apply runs several in one).
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_verdicts') is not null then
    drop table pg_temp.lifecycle_import_verdicts;
    drop table pg_temp.lifecycle_import_parents;
  end if;
  -- Step 1: the batch's parents and their ancestors, shared. (Every lookup of a big table below
  -- goes by its index for the batch's ids, whatever the planner's statistics say of a table that
  -- grows by the batch: an array, or a lateral probe kept from being flattened into a join by
  -- offset 0.)
  create temporary table lifecycle_import_parents on commit drop as
  select distinct q.parent_id as id
    from (select q.parent_id from pg_temp.lifecycle_import_queue q
           where q.level = lvl and q.id >= from_id order by q.id limit max_rows) q
   where q.parent_id is not null;
  analyze pg_temp.lifecycle_import_parents;
  -- A move committed between reading the paths and locking them changes a path: then lock the
  -- new one too (the ones held stay held). The paths are read again once locked and compared as a
  -- whole (array_agg(distinct) gives them sorted): asking of each id whether it is one of those
  -- locked (<> all) was a scan of the array an id, quadratic in the batch's ancestors (0.75 s of a
  -- 100k adoption's 5.4 s of batches).
  select pg_catalog.array_agg(distinct a.id) into path_ids
    from lifecycle.namespaces n
   cross join pg_catalog.unnest(n.traversal_ids) as a (id)
   where n.id = any (array(select p.id from pg_temp.lifecycle_import_parents p));
  loop
    perform lifecycle.namespace_lock_path(coalesce(path_ids, '{}'));
    locked_ids := path_ids;
    select pg_catalog.array_agg(distinct a.id) into path_ids
      from lifecycle.namespaces n
     cross join pg_catalog.unnest(n.traversal_ids) as a (id)
     where n.id = any (array(select p.id from pg_temp.lifecycle_import_parents p));
    exit when path_ids is not distinct from locked_ids;
  end loop;

  -- Every verdict in one statement, over the rows and what their parents are now (committed
  -- and locked): the row rules, first failure wins; then the path each valid row gets. A valid
  -- legacy path is kept; one the rules refuse is normalised, and takes the id as a suffix when the
  -- result is still refused (reserved), a live sibling holds it, or an earlier live row of the batch
  -- does (a valid path before a normalised one, then by id); a valid path held so is a real
  -- duplicate (NS006). Only live rows (not pending deletion) hold a path among their siblings.
  create temporary table lifecycle_import_verdicts on commit drop as
  with staged as (
    select s.id, s.parent_id, s.legacy_parent_id, s.type, s.path, s.name,
           coalesce(s.visibility, 'private') as visibility,
           coalesce(s.state, 'active') as state_name,
           st.code as state, st.permanent as state_permanent, coalesce(st.pending_deletion, false) as state_pending,
           ps.code as preserved, ps.permanent as preserved_permanent, s.preserved_state as preserved_name,
           way.passed,
           coalesce(s.state_changed_at, s.created_at, pg_catalog.now()) as changed_at, s.state_changed_at as staged_at,
           s.state_changed_by as changed_by,
           coalesce(s.created_at, pg_catalog.now()) as created_at,
           v.rank as own_rank,
           p.id as parent_found, p.type as parent_type, p.traversal_ids as parent_path, pv.rank as parent_rank,
           p.visibility as parent_visibility,
           used.id is not null as id_used,
           lifecycle.name_refusal(s.name) as name_refused,
           lp.legacy_path
      from (select q.* from pg_temp.lifecycle_import_queue q
             where q.level = lvl and q.id >= from_id order by q.id limit max_rows) s
      left join lifecycle.states st on st.name = case when s.state = 'active' then 'ancestor_inherited'
                                                       else coalesce(s.state, 'ancestor_inherited') end
      left join lifecycle.states ps on ps.name = case when s.preserved_state = 'active' then 'ancestor_inherited'
                                                      else s.preserved_state end
      -- The state the way from the preserved state (active without one) to a temporary state passes
      -- last: the preserved state when the matrix leads straight there, else the one temporary state
      -- it passes (deletion_scheduled before deletion_in_progress); null when there is no way. For a
      -- permanent state, active.
      cross join lateral (select case
                                   when st.permanent then no_own_state
                                   when exists (select from lifecycle.state_transitions t
                                                 where t.from_state = coalesce(ps.code, no_own_state) and t.to_state = st.code)
                                     then coalesce(ps.code, no_own_state)
                                   else (select t.from_state
                                           from lifecycle.state_transitions t
                                           join lifecycle.state_transitions u
                                             on u.from_state = coalesce(ps.code, no_own_state) and u.to_state = t.from_state
                                          where t.to_state = st.code and not lifecycle.state_permanent(t.from_state)
                                            and not lifecycle.state_being_created(t.from_state)
                                          order by t.from_state limit 1)
                                 end as passed
                          offset 0) way
      left join lifecycle.visibility_levels v on v.name = coalesce(s.visibility, 'private')
      left join lateral (select n.id, n.type, n.traversal_ids, n.visibility
                           from lifecycle.namespaces n where n.id = s.parent_id offset 0) p on true
      left join lifecycle.visibility_levels pv on pv.name = p.visibility
      left join lateral (select n.id from lifecycle.namespaces n where n.id = s.id offset 0) used on true
      -- Computed once per row (offset 0: not copied into every expression that reads it).
      cross join lateral (select lifecycle.path_slug_refusal(s.path) is not null
                                   or exists (select from lifecycle.reserved_paths r
                                               where r.path = s.path and (r.scope = 'any' or s.parent_id is null)) as legacy_path
                          offset 0) lp
  ), judged as materialized (
    -- The first rule a row breaks, as "code:reason" (one CASE: cheaper per row than a list of rules).
    select r.*,
           case when r.legacy_path then lifecycle.path_normalised(r.path) else r.path end as wanted_path,
           case
       when r.id < 1 or r.id > 4611686018427387903
         then 'NS010:' || pg_catalog.format('namespace id %s is outside 1 to 4611686018427387903 (2^62 - 1)', r.id)
       when r.id < lowest_id or r.id > highest_id
         then 'NS010:' || pg_catalog.format('namespace id %s is outside this cluster''s id range, %s to %s', r.id, lowest_id, highest_id)
       when r.id_used then 'NS010:' || pg_catalog.format('namespace id %s is in use', r.id)
       when r.type is null or not lifecycle.namespace_type_known(r.type)
         then 'NS010:' || pg_catalog.format('unknown type %L', r.type)
       when lifecycle.namespace_type_root_only(r.type) and r.parent_id is not null
         then 'NS010:' || pg_catalog.format('an %s has no parent', r.type)
       when r.legacy_parent_id is not null and r.legacy_parent_id is distinct from r.parent_id
         then 'NS013:' || pg_catalog.format('its legacy rows name two parents, %s and %s', coalesce(r.parent_id::text, 'none'),
                                            r.legacy_parent_id)
       when r.parent_id is not null and r.parent_found is null then 'NS004:' ||
         coalesce((select pg_catalog.format('below rejected row %s (%s: %s)', j.id, j.reject_code, j.reject_reason)
                     from lifecycle.namespace_imports j where j.id = r.parent_id and j.reject_code is not null),
                  pg_catalog.format('parent %s is neither a namespace nor importable', r.parent_id))
       when not lifecycle.namespace_type_can_be_parent(r.parent_type)
         then 'NS010:' || pg_catalog.format('a %s cannot have children', r.parent_type)
       when pg_catalog.cardinality(r.parent_path) >= max_depth then 'NS010:' || pg_catalog.format('deeper than %s levels', max_depth)
       when r.own_rank is null then 'NS010:' || pg_catalog.format('unknown visibility %L', r.visibility)
       when r.own_rank > r.parent_rank
         then 'NS002:' || pg_catalog.format('%s, more visible than its parent (%s)', r.visibility, r.parent_visibility)
       when r.name_refused is not null then 'NS010:' || r.name_refused
       when r.path is null or r.path = '' then 'NS010:path is required'
       -- (A valid slug holds no such character: only a legacy path is asked.)
       when r.legacy_path and lifecycle.character_refusal('path', r.path) is not null
         then 'NS010:' || lifecycle.character_refusal('path', r.path)
       when r.state is null then 'NS010:' || pg_catalog.format('unknown state %L', r.state_name)
       when lifecycle.state_operation(r.state) = 'transfer'
         then 'NS010:a transfer in progress cannot be imported: finish or cancel it first'
       when r.preserved_name is not null and r.preserved is null
         then 'NS010:' || pg_catalog.format('unknown preserved_state %L', r.preserved_name)
       when not r.state_permanent and r.preserved is not null and not r.preserved_permanent
         then 'NS010:' || pg_catalog.format('preserved_state %s is not a permanent state', r.preserved_name)
       when not r.state_permanent and not lifecycle.state_being_created(r.state) and r.passed is null
         then 'NS010:' || pg_catalog.format('%s cannot have been reached from %s', r.state_name, coalesce(r.preserved_name, 'active'))
     end as verdict
      from staged r
  ), pathed as (
    select j.*, pg_catalog.split_part(j.verdict, ':', 1) as code, pg_catalog.substr(j.verdict, 7) as reason,
           -- A valid path as staged that a live namespace holds is a real clash (NS006), and so is a
           -- legacy path equal to one, case aside: resolution folds case, so the live namespace
           -- holds that path too (GitLab refuses it as well).
           j.verdict is null and not j.state_pending and live.held
             and (not j.legacy_path or j.wanted_path = pg_catalog.lower(j.path)) as path_held,
           j.verdict is null and j.legacy_path
             and (exists (select from lifecycle.reserved_paths r
                           where r.path = j.wanted_path and (r.scope = 'any' or j.parent_id is null))
                  or (not j.state_pending and live.held and j.wanted_path <> pg_catalog.lower(j.path))) as must_suffix
      from judged j
      -- Whether a live sibling holds the wanted path: one probe of namespaces_live_path_key per
      -- row (a lateral with a limit: never a hashed subplan over the whole, growing table).
      cross join lateral (select exists (select from lifecycle.namespaces n
                                          where coalesce(n.parent_id, 0) = coalesce(j.parent_id, 0) and n.path = j.wanted_path
                                            and lifecycle.state_path_live(n.state) limit 1) as held
                          offset 0) live
  ), clashing as (
    -- Live rows of the batch that want a path another live row of it wants below the same parent:
    -- the first (a valid path before a normalised one, then by id) keeps it. Rare, so found by
    -- grouping, and only those rows are ranked.
    select x.id, x.rank_on_path, x.path_holder
      from (select p.id,
                   pg_catalog.row_number() over w as rank_on_path,
                   pg_catalog.first_value(p.id) over w as path_holder
              from pathed p
              join (select coalesce(d.parent_id, 0) as parent, d.wanted_path
                      from pathed d
                     where d.code is null and not d.state_pending and not d.must_suffix and not d.path_held
                     group by 1, 2 having count(*) > 1) dup
                on dup.parent = coalesce(p.parent_id, 0) and dup.wanted_path = p.wanted_path
             where p.code is null and not p.state_pending and not p.must_suffix and not p.path_held
            window w as (partition by coalesce(p.parent_id, 0), p.wanted_path order by p.legacy_path, p.id)) x
  ), ranked as (
    select p.*, c.rank_on_path, c.path_holder
      from pathed p
      left join clashing c on c.id = p.id
  )
  select r.id, r.parent_id, r.type, r.path, r.name, r.visibility, r.state_name, r.state, r.state_permanent,
         r.state_pending, r.preserved, r.preserved_name, r.passed, r.changed_at, r.staged_at, r.changed_by, r.created_at, r.parent_path,
         r.legacy_path,
         case when r.code is not null then null
              when r.must_suffix or (r.rank_on_path > 1 and r.legacy_path)
                then pg_catalog.regexp_replace(pg_catalog.left(r.wanted_path, 99 - pg_catalog.length(r.id::text)), '[^a-z0-9]+$', '')
                     || '-' || r.id
              else r.wanted_path end as final_path,
         case when r.code is null and (r.path_held or (r.rank_on_path > 1 and not r.legacy_path)) then 'NS006'
              else r.code end as code,
         case when r.code is null and r.path_held
                then pg_catalog.format('path %s is taken by a live sibling', r.wanted_path)
              when r.code is null and r.rank_on_path > 1 and not r.legacy_path
                then pg_catalog.format('path %s is staged twice below one parent (row %s has it)', r.wanted_path, r.path_holder)
              else r.reason end as reason
    from ranked r;
  select count(*), max(b.id) into taken, after_id from pg_temp.lifecycle_import_verdicts b;
  left_after := left_before - taken;
  update pg_temp.lifecycle_import_progress p set level = lvl, cursor_id = after_id, queued = left_after;

  -- Step 3: claim every path the batch makes live (as namespace_lock_sibling_path does one by
  -- one), in one order. A creation that committed since the verdicts holds its path; one still
  -- running is waited for; one that starts now waits for this batch.
  with claimed as (
    insert into lifecycle.path_claims as c (parent_id, path)
    select b.parent_id, b.final_path
      from pg_temp.lifecycle_import_verdicts b
     where b.code is null and not b.state_pending
     order by b.parent_id, b.final_path
    on conflict do nothing
    returning c.ctid)
  select pg_catalog.array_agg(claimed.ctid) into claims from claimed;
  delete from lifecycle.path_claims c where c.ctid = any (claims);
  -- Checked again under the claims: a path a live namespace holds after all (a creation committed
  -- since the verdicts, or a normalised path with its suffix, by bad luck): NS006.
  update pg_temp.lifecycle_import_verdicts b
     set code = 'NS006', reason = pg_catalog.format('path %s is taken by a live sibling', b.final_path)
   where b.code is null and not b.state_pending
     and exists (select from lifecycle.namespaces n
                  where coalesce(n.parent_id, 0) = coalesce(b.parent_id, 0) and n.path = b.final_path
                    and lifecycle.state_path_live(n.state));

  -- The rows: no INSERT trigger fires for them (traversal_ids given, lifecycle.importing set).
  noted := lifecycle.transaction_flag_raise('importing')::text || pg_catalog.set_config('lifecycle.importing', 'on', true);
  -- Foreign keys would check each row again for a parent and a namespace checked above (and
  -- locked): when the schema's owner may (a superuser), the batch's writes skip them, and every
  -- trigger, in replica mode, until they are done. Otherwise they run; the outcome is the same.
  -- lifecycle.import_skip_rechecks = off keeps them (the tests run both ways).
  if skip_rechecks then
    begin
      noted := pg_catalog.set_config('session_replication_role', 'replica', true);
      replica := true;
    exception when insufficient_privilege then
      replica := false;
    end;
  end if;
  insert into lifecycle.namespaces (id, parent_id, type, path, name, visibility, state, traversal_ids, created_at,
                                    updated_at, deletion_scheduled_at, deletion_scheduled_by, state_changes)
  select b.id, b.parent_id, b.type, b.final_path, b.name, b.visibility, b.state,
         coalesce(b.parent_path, '{}') || b.id, b.created_at, b.changed_at,
         case when lifecycle.state_deletion_adjourned(b.state) then b.changed_at when b.state_pending then b.staged_at end,
         case when b.state_pending then b.changed_by end,
         case when lifecycle.state_is_own(b.state) and not lifecycle.state_being_created(b.state) then 1 else 0 end
    from pg_temp.lifecycle_import_verdicts b
   where b.code is null
   order by b.id;
  get diagnostics n_imported = row_count;

  insert into lifecycle.namespace_details (namespace_id, state_metadata)
  select b.id,
         pg_catalog.jsonb_build_object('last_updated_at', b.changed_at, 'last_changed_by_user_id', b.changed_by)
         || case when not lifecycle.state_is_own(b.state) or lifecycle.state_being_created(b.state) then '{}'::jsonb
                 else pg_catalog.jsonb_build_object('previous_state', (lifecycle.state_names())[b.passed]) end
         || case when b.state_permanent or lifecycle.state_being_created(b.state) then '{}'::jsonb
                 else pg_catalog.jsonb_build_object('preserved_state', (lifecycle.state_names())[coalesce(b.preserved, no_own_state)]) end
    from pg_temp.lifecycle_import_verdicts b
   where b.code is null;

  insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
  select b.id, no_own_state, b.state, null, b.changed_by, 'import', '{"reason": "imported"}', b.changed_at
    from pg_temp.lifecycle_import_verdicts b
   where b.code is null and lifecycle.state_is_own(b.state) and not lifecycle.state_being_created(b.state)
   order by b.id;

  -- The legacy path keeps resolving (lowercased, as namespace_resolve looks it up) when the
  -- normalised one differs by more than case, unless a live sibling holds that lowercase path
  -- (two legacy paths that differed only by case): that one resolves there.
  insert into lifecycle.namespace_redirects (old_full_path, namespace_id, kind, actor_id, new_full_path)
  select coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '') || pg_catalog.lower(b.path), b.id, 'import', null,
         coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '') || b.final_path
    from pg_temp.lifecycle_import_verdicts b
   where b.code is null and b.legacy_path and pg_catalog.lower(b.path) <> b.final_path
     and not exists (select from lifecycle.namespaces n
                      where coalesce(n.parent_id, 0) = coalesce(b.parent_id, 0) and n.path = pg_catalog.lower(b.path)
                        and lifecycle.state_path_live(n.state))
     -- Never a path that resolves today to a namespace this batch did not import (a redirect
     -- would take it over).
     and not exists (select from lifecycle.namespace_resolve(coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '')
                                                               || pg_catalog.lower(b.path)) r
                      where r.namespace_id <> b.id
                        and not exists (select from pg_temp.lifecycle_import_verdicts v where v.id = r.namespace_id and v.code is null));
  -- And from the exact legacy path, case kept, when it has capitals and folding them would not
  -- lead here (a user ACME beside a group acme; projects Docs and docs): namespace_resolve looks
  -- a path up as given first (legacy_path_redirect, for the tree bridges, does the same).
  insert into lifecycle.namespace_redirects (old_full_path, namespace_id, kind, actor_id, new_full_path)
  select coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '') || b.path, b.id, 'import', null,
         coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '') || b.final_path
    from pg_temp.lifecycle_import_verdicts b
   where b.code is null and b.legacy_path and b.path <> pg_catalog.lower(b.path) and pg_catalog.lower(b.path) <> b.final_path
     and not exists (select from lifecycle.namespace_resolve(coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '') || b.path) r
                      where r.namespace_id <> b.id
                        and not exists (select from pg_temp.lifecycle_import_verdicts v where v.id = r.namespace_id and v.code is null));
  noted := lifecycle.transaction_flag_lower('importing')::text || pg_catalog.set_config('lifecycle.importing', '', true);
  if replica then
    noted := pg_catalog.set_config('session_replication_role', 'origin', true);
  end if;

  delete from lifecycle.namespace_imports s
   where s.id = any (array(select b.id from pg_temp.lifecycle_import_verdicts b where b.code is null));
  update lifecycle.namespace_imports s set reject_code = b.code, reject_reason = b.reason
    from pg_temp.lifecycle_import_verdicts b
   where s.id = b.id and b.code is not null
     and s.id = any (array(select r.id from pg_temp.lifecycle_import_verdicts r where r.code is not null));
  get diagnostics n_rejected = row_count;

  if n_imported > 0 then
    -- New namespaces of the application get ids past every imported one.
    perform pg_catalog.setval('lifecycle.namespaces_id_seq',
      greatest((select s.last_value from lifecycle.namespaces_id_seq s), (select max(b.id) from pg_temp.lifecycle_import_verdicts b where b.code is null)));
    select min(b.id), max(b.id) into first_id, last_id from pg_temp.lifecycle_import_verdicts b where b.code is null;
    select pg_catalog.jsonb_object_agg(c.state_name, c.n) into states
      from (select b.state_name, count(*) as n from pg_temp.lifecycle_import_verdicts b where b.code is null group by 1) c;
    -- One fact for the batch: the audit records the import; no owner is notified, no webhook sent.
    perform lifecycle.fact_emit('namespaces_imported', null, '{}'::bigint[], null, null,
      pg_catalog.jsonb_build_object('imported', n_imported, 'rejected', n_rejected, 'level', lvl,
                                    'first_id', first_id, 'last_id', last_id, 'states', states));
  end if;
  return query select n_imported, n_rejected, left_after;
end
$$;
