-- Set the states of bridged namespaces from the legacy data (docs/design.md §10; the design's
-- iteration 4), the way the import sets imported states: a namespace still active whose legacy
-- data puts it in bridged states gets the one they add up to (the highest rank of
-- lifecycle.legacy_bridge_states: deletion_in_progress, else deletion_scheduled, else maintenance,
-- else archived; a permanent state, archived, beside a temporary one becomes the state a restore
-- returns to), one history row from active with the legacy actor
-- and time (source import), the legacy dates the sweeper reads (a deletion's date is its
-- schedule's: a deletion running without one, GitLab's pending_delete without a mark, keeps none,
-- as the import keeps none), its details (previous_state as
-- the import writes it: the state the way from active passes, deletion_scheduled before
-- deletion_in_progress, so that a failed hard delete is requeued, else the preserved state before
-- another temporary one), and no fact of its
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
  perform 'PRAGMA:TABLE: lifecycle_backfill (ns bigint, from_state smallint, state smallint, passed smallint, preserved text, at timestamptz, deletion_at timestamptz, actor bigint, refusal jsonb)';
  -- A backfill earlier in the same transaction left its table.
  drop table if exists pg_temp.lifecycle_backfill;
  -- Per namespace, each bridged state that holds (its latest time and actor), ranked; the top one
  -- is its state, a permanent one below it what a restore returns to. A deletion's date is the
  -- adjourned deletion's, else the running one's.
  create temporary table lifecycle_backfill on commit drop as
  select f.ns, n.state as from_state, f.state, way.passed,
         case when f.top_permanent then (lifecycle.state_names())[n.state] else coalesce(f.held_permanent, (lifecycle.state_names())[n.state]) end
           as preserved,
         coalesce(f.top_at, pg_catalog.now()) as at,
         case when f.adjourned then coalesce(f.adjourned_at, f.running_at, pg_catalog.now()) else f.running_at end as deletion_at,
         f.top_actor as actor
    from (select g.ns,
                 (pg_catalog.array_agg(g.state order by g.rank desc))[1] as state,
                 (pg_catalog.array_agg(g.permanent order by g.rank desc))[1] as top_permanent,
                 (pg_catalog.array_agg(g.at order by g.rank desc))[1] as top_at,
                 (pg_catalog.array_agg(g.actor order by g.rank desc))[1] as top_actor,
                 (pg_catalog.array_agg(g.name order by g.rank desc) filter (where g.permanent))[1] as held_permanent,
                 bool_or(lifecycle.state_deletion_adjourned(g.state)) as adjourned,
                 max(g.at) filter (where lifecycle.state_deletion_adjourned(g.state)) as adjourned_at,
                 max(g.at) filter (where not lifecycle.state_path_live(g.state) and not lifecycle.state_deletion_adjourned(g.state))
                   as running_at
            from (select r.namespace_id as ns, b.state, x.rank, s.name, s.permanent, max(r.at) as at, max(r.actor) as actor
                    from lifecycle.legacy_bridge_rows() r
                    join lifecycle.legacy_bridges b on b.id = r.bridge_id
                    join lifecycle.legacy_bridge_states x on x.state = b.state
                    join lifecycle.states s on s.code = b.state
                   where r.holds
                   group by 1, 2, 3, 4, 5) g
           group by g.ns) f
    join lifecycle.namespaces n on n.id = f.ns and not lifecycle.state_is_own(n.state)
    -- The way from active: straight there, else through the one state the matrix passes.
    left join lateral (select t.from_state as passed
                         from lifecycle.state_transitions t
                         join lifecycle.state_transitions u on u.from_state = n.state and u.to_state = t.from_state
                        where t.to_state = f.state
                          and not exists (select from lifecycle.state_transitions d where d.from_state = n.state and d.to_state = f.state)
                        order by t.from_state
                        limit 1) way on true;
  alter table pg_temp.lifecycle_backfill add column refusal jsonb;

  perform lifecycle.transaction_flag_raise('importing'), pg_catalog.set_config('lifecycle.importing', 'on', true);
  for candidate in
    select f.ns, f.from_state, f.state, f.passed, f.at, f.deletion_at, f.actor
      from pg_temp.lifecycle_backfill f
      join lifecycle.namespaces n on n.id = f.ns
     order by pg_catalog.cardinality(n.traversal_ids) desc, f.ns
  loop
    ns := lifecycle.namespace_lock(candidate.ns);
    if ns.state is distinct from candidate.from_state then
      -- Changed since the candidates were read: its own state stands.
      delete from pg_temp.lifecycle_backfill f where f.ns = candidate.ns;
      continue;
    end if;
    steps := case when candidate.passed is null then array[ns.state, candidate.state]
                  else array[ns.state, candidate.passed, candidate.state] end;
    refused_code := null;
    for i in 1 .. pg_catalog.cardinality(steps) - 1 loop
      select r.code, r.message, r.detail into refused_code, refused_message, refused_detail
        from lifecycle.transition_refusal(ns.id, ns.traversal_ids, steps[i], steps[i + 1], null, null) r
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
     where n.id = candidate.ns and n.state = candidate.from_state and s.code = candidate.state;
  end loop;
  insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
  select f.ns, f.from_state, f.state, null, f.actor, 'import', '{"reason": "legacy data"}', f.at
    from pg_temp.lifecycle_backfill f
   where f.refusal is null
   order by f.ns;
  update lifecycle.namespace_details d
     set state_metadata = d.state_metadata
           || pg_catalog.jsonb_build_object('last_updated_at', f.at, 'last_changed_by_user_id', f.actor,
                                            'previous_state', case when s.permanent then lifecycle.state_name(f.from_state)
                                                                   else coalesce(lifecycle.state_name(f.passed), f.preserved) end)
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
