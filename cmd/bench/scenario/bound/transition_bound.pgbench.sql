-- The bound (transition_bound.sql) on the transitions scenario's targets, as transition_api.sql
-- calls the API: archive from active, unarchive back.
\set slot :client_id * :per_client + random(0, :per_client - 1)
select lifecycle_bench.transition_bound(t.id, case when n.state = 0 then 'archive' else 'unarchive' end, t.actor)
  from lifecycle_bench.targets t
  join lifecycle.namespaces n on n.id = t.id
 where t.slot = :slot;
