-- The floor: the same row UPDATE and history INSERT, raw, on tables without triggers (no matrix,
-- guards, locks, metadata or facts), in one statement like the API call.
\set slot :client_id * :per_client + random(0, :per_client - 1)
with t as (select id, actor from lifecycle_bench.targets where slot = :slot),
     u as (update lifecycle_bench.namespaces n
              set state = case when n.state = 0 then {{on_state}} else 0 end, updated_at = now()
             from t
            where n.id = t.id
        returning n.id, n.state, t.actor)
insert into lifecycle_bench.state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata)
select u.id, case when u.state = 0 then {{on_state}} else 0 end, u.state,
       case when u.state = 0 then '{{off_event}}' else '{{on_event}}' end, u.actor, 'sql', '{}'
  from u;
