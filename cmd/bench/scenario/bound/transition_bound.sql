-- A lower bound for any design of the transition, not part of the product: the least a state
-- change doing the product's work in PostgreSQL costs. Measured by hand (docs/benchmarks.md,
-- "What bounds it", under "Transitions: missed"), against the API in the same database; never
-- called by cmd/bench.
--
-- It takes the same locks in the same order (the ancestors' lock rows shared, root first; the row
-- and its lock row; the probe of organization_moves after them), reads the same rules (event
-- sources, matrix, policy, guards, the actor's access level) and the ancestors' paths in one
-- statement, and writes the row, the history row, the details row and the fact (with its full
-- path) in one statement with the row triggers bypassed. It keeps no metadata merge rules, no
-- refusal messages, no answer beyond changed, and trusts its caller: a prototype for measuring,
-- run as a superuser in a bench database only.
--
-- Load it into a kept bench database (BENCH_KEEP=1 make bench) with psql -f, then run
-- transition_bound.pgbench.sql with pgbench beside the API's script, or count its instructions
-- (docs/benchmarks.md says how).

create or replace function lifecycle_bench.transition_bound(nid bigint, ev_name text, actor bigint)
returns boolean
language plpgsql
security definer
set search_path to ''
set enable_seqscan to off
set jit to off
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
  paths text;
  upd bigint;
  noted text;
begin
  select n.traversal_ids into p from lifecycle.namespaces n where n.id = nid;
  d := pg_catalog.cardinality(p);
  perform 1
     from pg_catalog.unnest(p[1:d - 1]) with ordinality as a (id, pos)
     join lifecycle.namespace_details x on x.namespace_id = a.id
    order by a.pos
      for key share of x;
  select n.state into cur
    from lifecycle.namespaces n
    join lifecycle.namespace_details x on x.namespace_id = n.id
   where n.id = nid and n.traversal_ids = p
     for no key update of n
     for update of x;
  if exists (select from lifecycle.organization_moves m where m.organization_id = any (p) and m.direction = 'out'
                                                          and m.finished_at is null) then
    raise exception 'moving';
  end if;
  select e.target_state,
         exists (select from lifecycle.state_transitions t where t.from_state = cur and t.to_state = e.target_state),
         (select coalesce(max(m.access_level), 0) from lifecycle.namespace_members m
           where m.namespace_id = any (p) and m.user_id = actor),
         coalesce((select pp.min_access_level from lifecycle.transition_policies pp where pp.to_state = e.target_state), 50),
         (select x.id from lifecycle.namespaces x
           where x.id = any (p[1:d - 1])
             and x.state in (select g.forbidden_state from lifecycle.transition_guards g
                              where g.from_state = cur and g.to_state = e.target_state and g.scope = 'ancestor')
           limit 1),
         (select y.id from lifecycle.namespaces y
           where lifecycle.state_is_own(y.state)
             and y.state in (select g.forbidden_state from lifecycle.transition_guards g
                              where g.from_state = cur and g.to_state = e.target_state and g.scope = 'descendant')
             and y.traversal_ids > p and y.traversal_ids < p[1:d - 1] || (p[d] + 1)
           limit 1),
         (select pg_catalog.string_agg(z.path, '/' order by pg_catalog.cardinality(z.traversal_ids))
            from lifecycle.namespaces z where z.id = any (p))
    into tgt, ok, lvl, req, anc, des, paths
    from lifecycle.events e
    join lifecycle.event_sources s on s.event = e.name and s.from_state = cur
   where e.name = ev_name;
  if not coalesce(ok, false) or lvl < req or anc is not null or des is not null then
    raise exception 'refused';
  end if;
  -- The row triggers' work bypassed, as the import bypasses it (they return at once): this function
  -- did it. (Not session_replication_role: setting it resets every cached plan of the session.)
  noted := lifecycle.transaction_flag_raise('importing')::text || pg_catalog.set_config('lifecycle.importing', 'on', true);
  with u as (update lifecycle.namespaces n set state = tgt, updated_at = pg_catalog.now(), state_changes = n.state_changes + 1
              where n.id = nid returning n.id),
       h as (insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
             select u.id, cur, tgt, ev_name, actor, 'api', '{}', pg_catalog.now() from u returning id),
       dd as (update lifecycle.namespace_details x
                 set state_metadata = x.state_metadata || pg_catalog.jsonb_build_object('last_updated_at', pg_catalog.now(),
                                                                                       'last_changed_by_user_id', actor)
               where x.namespace_id = nid returning 1),
       f as (insert into lifecycle.facts (action, namespace_id, traversal_ids, full_path, actor_id, details)
             select 'namespace_state_changed', nid, p, paths, actor, pg_catalog.jsonb_build_object('state_update_id', h.id)
               from h)
  select h.id into upd from h, dd;
  noted := lifecycle.transaction_flag_lower('importing')::text || pg_catalog.set_config('lifecycle.importing', '', true);
  return true;
end
$$;
