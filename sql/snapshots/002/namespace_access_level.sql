-- An actor's effective access level on the namespace whose path is traversal_ids: memberships are
-- inherited down the tree, so it is the highest level held on any namespace of the path (one
-- primary-key probe per level). 0 when the actor is no member anywhere on it.
create or replace function lifecycle.namespace_access_level(traversal_ids bigint[], actor_id bigint)
returns smallint
language sql
stable
set search_path to ''
-- Planned afresh on every call: a plan cached while the table was small (a fresh database filled
-- by one large INSERT) would keep scanning the whole table for these id lists, making the INSERT
-- quadratic; a fresh plan sees the current size and takes the index.
set plan_cache_mode to force_custom_plan
as $$
  select coalesce(max(m.access_level), 0)::smallint
    from lifecycle.namespace_members m
   where m.namespace_id = any (namespace_access_level.traversal_ids)
     and m.user_id = namespace_access_level.actor_id
$$;
