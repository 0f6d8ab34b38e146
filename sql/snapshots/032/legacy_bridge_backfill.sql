-- Set the states of bridged namespaces from the legacy data (docs/design.md §10; the design's
-- iteration 4), the way the import sets imported states: a namespace still active whose legacy
-- data puts it in bridged states gets the one they add up to (deletion_in_progress, else
-- deletion_scheduled, else maintenance, else archived; archived beside a deletion or maintenance
-- becomes the state a restore returns to), one history row from active with the legacy actor
-- and time (source import), the legacy dates the sweeper reads, its details, and no fact of its
-- own: one namespaces_imported fact for the backfill, so nobody is notified. The rows' triggers
-- do not fire (lifecycle.importing is set, as for the import): a backfill is a set-based
-- statement over every active namespace with legacy states. Namespaces with a state of their own
-- are left alone (lifecycle.legacy_bridge_check reports any disagreement). Returns how many
-- namespaces got a state.
create or replace function lifecycle.legacy_bridge_backfill()
returns bigint
language plpgsql
security definer
set search_path to ''
set jit to off
as $$
declare
  changed bigint;
begin
  -- For plpgsql_check (a no-op at run time): the table made below.
  perform 'PRAGMA:TABLE: lifecycle_backfill (ns bigint, state smallint, preserved text, at timestamptz, actor bigint)';
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

  perform lifecycle.transaction_flag_raise('importing'), pg_catalog.set_config('lifecycle.importing', 'on', true);
  update lifecycle.namespaces n
     set state = f.state, state_changes = n.state_changes + 1, updated_at = f.at,
         deletion_scheduled_at = case when f.state in (2, 4) then f.at end,
         deletion_scheduled_by = case when f.state in (2, 4) then f.actor end
    from pg_temp.lifecycle_backfill f
   where n.id = f.ns and n.state = 0;
  get diagnostics changed = row_count;
  insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
  select f.ns, 0, f.state, null, f.actor, 'import', '{"reason": "legacy data"}', f.at
    from pg_temp.lifecycle_backfill f
   order by f.ns;
  update lifecycle.namespace_details d
     set state_metadata = d.state_metadata
           || pg_catalog.jsonb_build_object('last_updated_at', f.at, 'last_changed_by_user_id', f.actor,
                                            'previous_state', 'ancestor_inherited')
           || case when f.state = 1 then '{}'::jsonb else pg_catalog.jsonb_build_object('preserved_state', f.preserved) end
    from pg_temp.lifecycle_backfill f
   where d.namespace_id = f.ns;
  perform lifecycle.transaction_flag_lower('importing'), pg_catalog.set_config('lifecycle.importing', '', true);

  if changed > 0 then
    perform lifecycle.fact_emit('namespaces_imported', null, '{}'::bigint[], null, null,
      pg_catalog.jsonb_build_object('backfill', true, 'imported', changed,
        'states', (select pg_catalog.jsonb_object_agg(s.name, c.n)
                     from (select f.state, count(*) as n from pg_temp.lifecycle_backfill f group by 1) c
                     join lifecycle.states s on s.code = c.state)));
  end if;
  return changed;
end
$$;

comment on function lifecycle.legacy_bridge_backfill() is
  'Give active bridged namespaces the states their legacy data says, as an import does (no notifications); returns how many.';
