-- A lower bound for any design of the transition, not part of the product: the least a state
-- change doing the product's work in PostgreSQL costs. Measured by hand (docs/benchmarks.md,
-- "What bounds it", under "Transitions: missed"), against the floor of the same run; never called by
-- cmd/bench.
--
-- It takes the same locks (shared advisory keys on the ancestors, the row, the row's own key),
-- reads the same rules (event sources, matrix, policy, guards, the actor's access level) in one
-- statement, and writes the row, the history row and the details row in one statement with the
-- row triggers bypassed, then emits a fact without a MAC or a full path. It keeps no metadata
-- merge rules, no refusal messages, no answer beyond changed, and trusts its caller: a
-- prototype for measuring, run as a superuser in the bench database only.
--
-- Load it into a kept bench database (BENCH_KEEP=1 make bench) with psql -f, then run
-- transition_bound.pgbench.sql with pgbench beside the floor's script (see docs/benchmarks.md).
create or replace function lifecycle_bench.transition_bound(nid bigint, ev_name text, actor bigint)
returns boolean
language plpgsql
security definer
set search_path to ''
set plan_cache_mode to force_generic_plan
as $$
declare
  p bigint[];
  d int;
  cur smallint;
  tgt smallint;
  ok boolean;
  lvl smallint;
  req smallint;
  anc bigint;
  des bigint;
  upd bigint;
  noted text;
begin
  select n.traversal_ids into p from lifecycle.namespaces n where n.id = nid;
  d := pg_catalog.cardinality(p);
  select pg_catalog.count(pg_catalog.pg_advisory_xact_lock_shared(lifecycle.namespace_lock_key(a)))::text
    into noted from pg_catalog.unnest(p[1:d - 1]) a;
  select n.state into cur from lifecycle.namespaces n where n.id = nid and n.traversal_ids = p for no key update;
  noted := pg_catalog.pg_advisory_xact_lock(lifecycle.namespace_lock_key(nid))::text;
  select e.target_state,
         exists (select from lifecycle.state_transitions t where t.from_state = cur and t.to_state = e.target_state),
         (select coalesce(max(m.access_level), 0) from lifecycle.namespace_members m
           where m.namespace_id = any (p) and m.user_id = actor),
         coalesce((select pp.min_access_level from lifecycle.transition_policies pp where pp.to_state = e.target_state), 50),
         (select x.id from lifecycle.namespaces x
           where x.id = any (p[1:d - 1]) and x.state <> 0
             and x.state in (select g.forbidden_state from lifecycle.transition_guards g
                              where g.from_state = cur and g.to_state = e.target_state and g.scope = 'ancestor')
           limit 1),
         (select y.id from lifecycle.namespaces y
           where y.state <> 0
             and y.state in (select g.forbidden_state from lifecycle.transition_guards g
                              where g.from_state = cur and g.to_state = e.target_state and g.scope = 'descendant')
             and y.traversal_ids > p and y.traversal_ids < p[1:d - 1] || (p[d] + 1)
           limit 1)
    into tgt, ok, lvl, req, anc, des
    from lifecycle.events e
    join lifecycle.event_sources s on s.event = e.name and s.from_state = cur
   where e.name = ev_name;
  if not coalesce(ok, false) or lvl < req or anc is not null or des is not null then
    raise exception 'refused';
  end if;
  -- The row triggers bypassed, as for the import: this function did their work.
  noted := pg_catalog.set_config('lifecycle.importing', 'on', true);
  with u as (update lifecycle.namespaces n set state = tgt, updated_at = pg_catalog.now(), state_changes = n.state_changes + 1
              where n.id = nid returning n.id),
       h as (insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
             select u.id, cur, tgt, ev_name, actor, 'api', '{}', pg_catalog.now() from u returning id),
       dd as (update lifecycle.namespace_details x
                 set state_metadata = x.state_metadata || pg_catalog.jsonb_build_object('last_updated_at', pg_catalog.now(),
                                                                                       'last_changed_by_user_id', actor)
               where x.namespace_id = nid returning 1)
  select h.id into upd from h, dd;
  noted := pg_catalog.set_config('lifecycle.importing', '', true);
  noted := pg_catalog.pg_logical_emit_message(true, 'nslifecycle.fact',
    pg_catalog.jsonb_build_object('namespace_id', nid, 'traversal_ids', p, 'actor_id', actor, 'state_update_id', upd)::text)::text;
  return true;
end
$$;
