-- What lifecycle.namespace_effective_state returns (docs/design.md §2), computed: the own state of the
-- nearest namespace on the path self → root that has one, else active; the namespace it comes from
-- when that is an ancestor; and the path-wide flags the nearest rule hides. One pass over
-- traversal_ids, a primary-key probe per level: O(depth).
--
-- PL/pgSQL, so its plan is cached for the session: as a SQL function with a SET clause the query
-- was planned on every call, which cost more than the lookups. (The API function stays SQL and
-- calls this: PL/pgSQL cannot have a parameter and a result column both named namespace_id.) Seq
-- scans off, so the cached generic plan stays the index plan however small the table was when it
-- was made. Not granted to anyone: the API functions call it as their owner.
create function lifecycle.effective_state_of(id bigint)
returns table (
  namespace_id bigint,
  state text,
  effective_state text,
  inherited_from_namespace_id bigint,
  self_or_ancestor_archived boolean,
  self_or_ancestor_deletion_scheduled boolean,
  read_only boolean
)
language plpgsql
stable
set search_path to ''
set enable_seqscan to off
-- With seq scans off, a query that can only scan (a one-row table) looks expensive enough to be
-- JIT-compiled, which costs milliseconds: never worth it for these lookups.
set jit to off
as $$
#variable_conflict use_column
begin
  return query
  select n.id,
         own.name,
         coalesce(p.stateful_names[1], 'active'),
         nullif(p.stateful_ids[1], n.id),
         p.archived,
         p.pending_deletion,
         p.read_only
    from lifecycle.namespaces n
    join lifecycle.states own on own.code = n.state
   cross join lateral (
     -- Nearest first: the path's namespaces with an own state, deepest first.
     select pg_catalog.array_agg(a.id order by t.depth desc) filter (where a.state <> 0) as stateful_ids,
            pg_catalog.array_agg(s.name order by t.depth desc) filter (where a.state <> 0) as stateful_names,
            coalesce(bool_or(s.name = 'archived'), false) as archived,
            coalesce(bool_or(s.pending_deletion), false) as pending_deletion,
            coalesce(bool_or(s.read_only), false) as read_only
       from pg_catalog.unnest(n.traversal_ids) with ordinality as t(id, depth)
       join lifecycle.namespaces a on a.id = t.id
       join lifecycle.states s on s.code = a.state
   ) p
   where n.id = effective_state_of.id;
end
$$;
