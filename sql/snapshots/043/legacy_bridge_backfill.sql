-- Set the states of bridged namespaces from the legacy data (docs/design.md §10; the design's
-- iteration 4), the way the import sets imported states: a namespace still active whose legacy
-- data puts it in bridged states gets the one they add up to (deletion_in_progress, else
-- deletion_scheduled, else maintenance, else archived; archived beside a deletion or maintenance
-- becomes the state a restore returns to), one history row from active with the legacy actor
-- and time (source import), the legacy dates the sweeper reads (a deletion's date is its
-- schedule's: a deletion running without one, GitLab's pending_delete without a mark, keeps none,
-- as the import keeps none), its details (previous_state as
-- the import writes it: deletion_scheduled before deletion_in_progress, so that a failed hard
-- delete is requeued, the preserved state before another temporary one), and no fact of its
-- own: one namespaces_imported fact for the backfill, so nobody is notified. The rows' triggers
-- do not fire (lifecycle.importing is set, as for the import). Namespaces with a state of their
-- own are left alone (lifecycle.legacy_bridge_check reports any disagreement).
--
-- Every state is judged first by the rules of every change (transition_refusal, the one place of
-- them: the matrix, by way of the state a path from active passes, such as deletion_scheduled
-- before deletion_in_progress, and the ancestor and descendant guards), as the system: the
-- backfill acts for no user, so only lifecycle_worker members and superusers may run it (NS005
-- before anything else otherwise). Each namespace is locked as a change locks it
-- (namespace_lock) and judged against the tree as it then is, deepest first, with the states
-- already backfilled below it: the order in which the legacy states could have been reached (an
-- archived group with archived projects: the projects first). A namespace the rules refuse (a
-- group whose legacy data schedules its deletion while a project below it is
-- creation_in_progress: NS003) keeps its state; it is returned in refusals (namespace_id, state,
-- code, message, detail), and lifecycle.legacy_bridge_check keeps reporting it until the legacy
-- data or the tree changes. Row by row: a backfill is rare, and each verdict must see the ones
-- before it. Returns how many namespaces got a state, how many were refused, and the refusals.
create or replace function lifecycle.legacy_bridge_backfill()
returns table (backfilled bigint, refused bigint, refusals jsonb)
language plpgsql
security definer
set search_path to ''
set jit to off
as $$
declare
  candidate record;
  ns lifecycle.namespaces;
  refused_code text;
  refused_message text;
  refused_detail text;
  steps smallint[];
begin
  if not lifecycle.caller_may_act_as_system() then
    raise exception using errcode = 'NS005', message = 'only the system may backfill states from the legacy data',
      detail = pg_catalog.format('role=%s', coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user)),
      hint = 'Run lifecycle.legacy_bridge_backfill() as a member of lifecycle_worker.';
  end if;
  -- For plpgsql_check (a no-op at run time): the table made below.
  perform 'PRAGMA:TABLE: lifecycle_backfill (ns bigint, state smallint, preserved text, at timestamptz, deletion_at timestamptz, actor bigint, refusal jsonb)';
  -- A backfill earlier in the same transaction left its table.
  drop table if exists pg_temp.lifecycle_backfill;
  create temporary table lifecycle_backfill on commit drop as
  select f.ns,
         case when f.in_progress then 4::smallint when f.scheduled then 2::smallint when f.maintained then 6::smallint
              else 1::smallint end as state,
         case when f.archived and (f.in_progress or f.scheduled or f.maintained) then 'archived' else 'ancestor_inherited' end
           as preserved,
         coalesce(case when f.in_progress then f.in_progress_at when f.scheduled then f.scheduled_at
                       when f.maintained then f.maintained_at else f.archived_at end, pg_catalog.now()) as at,
         case when f.scheduled then coalesce(f.scheduled_at, f.in_progress_at, pg_catalog.now()) else f.in_progress_at end as deletion_at,
         case when f.in_progress then f.in_progress_by when f.scheduled then f.scheduled_by
              when f.maintained then f.maintained_by else f.archived_by end as actor
    from (select r.namespace_id as ns,
                 bool_or(r.holds and b.state = 1) as archived, max(r.at) filter (where r.holds and b.state = 1) as archived_at,
                 max(r.actor) filter (where r.holds and b.state = 1) as archived_by,
                 bool_or(r.holds and b.state = 2) as scheduled, max(r.at) filter (where r.holds and b.state = 2) as scheduled_at,
                 max(r.actor) filter (where r.holds and b.state = 2) as scheduled_by,
                 bool_or(r.holds and b.state = 4) as in_progress, max(r.at) filter (where r.holds and b.state = 4) as in_progress_at,
                 max(r.actor) filter (where r.holds and b.state = 4) as in_progress_by,
                 bool_or(r.holds and b.state = 6) as maintained, max(r.at) filter (where r.holds and b.state = 6) as maintained_at,
                 max(r.actor) filter (where r.holds and b.state = 6) as maintained_by
            from lifecycle.legacy_bridge_rows() r
            join lifecycle.legacy_bridges b on b.id = r.bridge_id
           group by 1
          having bool_or(r.holds)) f
    join lifecycle.namespaces n on n.id = f.ns and n.state = 0;
  alter table pg_temp.lifecycle_backfill add column refusal jsonb;

  perform lifecycle.transaction_flag_raise('importing'), pg_catalog.set_config('lifecycle.importing', 'on', true);
  for candidate in
    select f.ns, f.state, f.at, f.deletion_at, f.actor
      from pg_temp.lifecycle_backfill f
      join lifecycle.namespaces n on n.id = f.ns
     order by pg_catalog.cardinality(n.traversal_ids) desc, f.ns
  loop
    ns := lifecycle.namespace_lock(candidate.ns);
    if ns.state <> 0 then
      -- Changed since the candidates were read: its own state stands.
      delete from pg_temp.lifecycle_backfill f where f.ns = candidate.ns;
      continue;
    end if;
    -- The way from active: straight there, else through the one state the matrix passes.
    steps := case
      when exists (select from lifecycle.state_transitions t where t.from_state = 0 and t.to_state = candidate.state)
        then array[0, candidate.state]::smallint[]
      else array[0, (select t.from_state from lifecycle.state_transitions t
                       join lifecycle.state_transitions u on u.from_state = 0 and u.to_state = t.from_state
                      where t.to_state = candidate.state order by t.from_state limit 1), candidate.state]::smallint[]
    end;
    refused_code := null;
    for i in 1 .. pg_catalog.cardinality(steps) - 1 loop
      select r.code, r.message, r.detail into refused_code, refused_message, refused_detail
        from lifecycle.transition_refusal(ns.id, ns.traversal_ids, coalesce(steps[i], 0::smallint),
                                          coalesce(steps[i + 1], candidate.state), null, null) r
       limit 1;
      exit when refused_code is not null;
    end loop;
    if refused_code is not null then
      update pg_temp.lifecycle_backfill f
         set refusal = pg_catalog.jsonb_build_object('namespace_id', candidate.ns, 'state', lifecycle.state_name(candidate.state),
                                                     'code', refused_code, 'message', refused_message, 'detail', refused_detail)
       where f.ns = candidate.ns;
      continue;
    end if;
    -- Applied now, so the namespaces above it are judged with it.
    update lifecycle.namespaces n
       set state = candidate.state, state_changes = n.state_changes + 1, updated_at = candidate.at,
           deletion_scheduled_at = case when s.pending_deletion then candidate.deletion_at end,
           deletion_scheduled_by = case when s.pending_deletion then candidate.actor end
      from lifecycle.states s
     where n.id = candidate.ns and n.state = 0 and s.code = candidate.state;
  end loop;
  insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
  select f.ns, 0, f.state, null, f.actor, 'import', '{"reason": "legacy data"}', f.at
    from pg_temp.lifecycle_backfill f
   where f.refusal is null
   order by f.ns;
  update lifecycle.namespace_details d
     set state_metadata = d.state_metadata
           || pg_catalog.jsonb_build_object('last_updated_at', f.at, 'last_changed_by_user_id', f.actor,
                                            'previous_state', case when s.permanent then 'ancestor_inherited'
                                                                   when f.state = 4 then 'deletion_scheduled'
                                                                   else f.preserved end)
           || case when s.permanent then '{}'::jsonb else pg_catalog.jsonb_build_object('preserved_state', f.preserved) end
    from pg_temp.lifecycle_backfill f
    join lifecycle.states s on s.code = f.state
   where d.namespace_id = f.ns and f.refusal is null;
  perform lifecycle.transaction_flag_lower('importing'), pg_catalog.set_config('lifecycle.importing', '', true);

  select count(*) filter (where f.refusal is null), count(*) filter (where f.refusal is not null),
         coalesce(pg_catalog.jsonb_agg(f.refusal order by f.ns) filter (where f.refusal is not null), '[]'::jsonb)
    into backfilled, refused, refusals
    from pg_temp.lifecycle_backfill f;
  if backfilled > 0 then
    perform lifecycle.fact_emit('namespaces_imported', null, '{}'::bigint[], null, null,
      pg_catalog.jsonb_build_object('backfill', true, 'imported', backfilled,
        'states', (select pg_catalog.jsonb_object_agg(s.name, c.n)
                     from (select f.state, count(*) as n from pg_temp.lifecycle_backfill f where f.refusal is null group by 1) c
                     join lifecycle.states s on s.code = c.state)));
  end if;
  return next;
end
$$;

comment on function lifecycle.legacy_bridge_backfill() is
  'Give active bridged namespaces the states their legacy data says, as an import does (no notifications), each judged by the rules first; returns how many got a state, how many were refused, and the refusals.';
