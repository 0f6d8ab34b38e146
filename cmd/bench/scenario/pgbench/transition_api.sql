-- One state change through the API: lifecycle.namespace_event with the event that applies to the
-- target's state ({{on_event}} from active, {{off_event}} back). Each client has its own targets.
\set slot :client_id * :per_client + random(0, :per_client - 1)
select e.changed
  from lifecycle_bench.targets t
  join lifecycle.namespaces n on n.id = t.id
 cross join lateral lifecycle.namespace_event(t.id, case when n.state = 0 then '{{on_event}}' else '{{off_event}}' end, t.actor) e
 where t.slot = :slot;
