-- An actor's effective access level on the namespace whose path is traversal_ids, as one row: the
-- one statement of the rule namespace_access_level returns. Memberships are inherited down the
-- tree, so it is the highest level held on any namespace of the path (one primary-key probe per
-- level), 0 when the actor is no member anywhere on it.
--
-- A SQL function returning a row set, with no SET clause, not SECURITY DEFINER: a caller that names
-- it in FROM inlines its query into its own statement (transition_refusal reads it in the same
-- statement as the guards' lookups; a statement of its own, through namespace_access_level, would
-- be an executor start and a function call per change). The callers' settings (seq scans off) then
-- plan it. Only the owner's functions call it (EXECUTE revoked from PUBLIC), and PostgreSQL
-- inlines it for a role that may execute it.
create or replace function lifecycle.namespace_access_level_row(traversal_ids bigint[], actor_id bigint)
returns table (access_level smallint)
language sql
stable
begin atomic
  select coalesce(max(m.access_level), 0)::smallint
    from lifecycle.namespace_members m
   where m.namespace_id = any (namespace_access_level_row.traversal_ids)
     and m.user_id = namespace_access_level_row.actor_id;
end;
