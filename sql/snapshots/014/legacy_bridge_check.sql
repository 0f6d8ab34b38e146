-- Where the legacy data and the states disagree (docs/design.md §10): one row per namespace and
-- bridged state on which they differ, naming a bridge's table (one saying "in the state" when the
-- legacy data does), what the legacy data says ("archived" or "not archived") and the
-- namespace's state. Empty when they all agree. Reads every bridged table and every namespace:
-- for checks, not for a request path.
create function lifecycle.legacy_bridge_check()
returns table (namespace_id bigint, source regclass, legacy_says text, state text)
language sql
stable
security definer
set search_path to ''
as $$
  select v.ns, b.source,
         case when v.legacy_on then s.name else 'not ' || s.name end,
         ns_state.name
    from (select r.namespace_id as ns, b.state, bool_or(r.holds) as legacy_on,
                 (pg_catalog.array_agg(r.bridge_id order by r.holds desc, r.bridge_id))[1] as bridge_id
            from lifecycle.legacy_bridge_rows() r
            join lifecycle.legacy_bridges b on b.id = r.bridge_id
           group by 1, 2) v
    join lifecycle.namespaces n on n.id = v.ns
    join lifecycle.states ns_state on ns_state.code = n.state
    join lifecycle.states s on s.code = v.state
    join lifecycle.legacy_bridges b on b.id = v.bridge_id
    left join lifecycle.namespace_details d on d.namespace_id = n.id
   where v.legacy_on <> lifecycle.legacy_bridge_says(v.state, n.state, d.state_metadata ->> 'preserved_state')
   order by v.ns, v.state
$$;

comment on function lifecycle.legacy_bridge_check() is
  'Every disagreement between the bridged legacy data and the states (empty when they agree).';
