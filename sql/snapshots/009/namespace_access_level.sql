-- An actor's effective access level on the namespace whose path is traversal_ids: memberships are
-- inherited down the tree, so it is the highest level held on any namespace of the path (one
-- primary-key probe per level). 0 when the actor is no member anywhere on it.
create or replace function lifecycle.namespace_access_level(traversal_ids bigint[], actor_id bigint)
returns smallint
language plpgsql
stable
set search_path to ''
-- Its plan is cached for the session (PL/pgSQL). Seq scans off: a generic plan made while the
-- table was small (a fresh database filled by one large INSERT) would otherwise stay a scan of the
-- whole table for this id list as it grows, making that INSERT quadratic.
set enable_seqscan to off
-- With seq scans off, a query that can only scan (a one-row table) looks expensive enough to be
-- JIT-compiled, which costs milliseconds: never worth it for these lookups.
set jit to off
as $$
begin
  return (select coalesce(max(m.access_level), 0)::smallint
            from lifecycle.namespace_members m
           where m.namespace_id = any (namespace_access_level.traversal_ids)
             and m.user_id = namespace_access_level.actor_id);
end
$$;
