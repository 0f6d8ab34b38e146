-- End the members bridge of a table (docs/adoption.md, Memberships): its triggers go (members',
-- and namespace_members' write-back with the last bridge: legacy_bridge_unhook); GitLab's rows and
-- the lifecycle's memberships stay as they are. Returns how many bridges were dropped (0 or 1).
create or replace function lifecycle.legacy_members_bridge_drop(members regclass)
returns int
language sql
set search_path to ''
return lifecycle.legacy_bridge_unhook('lifecycle.legacy_members_bridges', members, 'lifecycle_legacy_members',
                                      'lifecycle.namespace_members', 'namespace_members_legacy');

comment on function lifecycle.legacy_members_bridge_drop(regclass) is
  'End the members bridge of a table (its trigger); returns how many.';
