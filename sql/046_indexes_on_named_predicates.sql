---- tern: disable-tx ----
-- The partial indexes of lifecycle.namespaces and its type checks ask the named predicates of 045,
-- as the queries do: an index's predicate and a query's match because both inline the same
-- function. namespaces_stateful_idx asks state_sets_effective, the effective state's form of
-- state_is_own (namespaces_own_state_idx, the descendant guards'), so that neither implies the
-- other and a guard is never planned on it (028).
--
-- Outside a transaction, statement by statement, every one safe to run again (sql/README.md,
-- Migrations without stalls): each index is built CONCURRENTLY beside the old one under another
-- name, which it takes once the old is gone, so paths stay unique and the readers keep an index
-- throughout; each check is added NOT VALID in the same statement that drops the one it
-- replaces (one brief ACCESS EXCLUSIVE lock, which the migrator's lock timeout bounds), so rows
-- are checked throughout, then validated, which blocks no one.

drop index concurrently if exists lifecycle.namespaces_live_path_key_next;
create unique index concurrently if not exists namespaces_live_path_key_next
  on lifecycle.namespaces (coalesce(parent_id, 0), path) where lifecycle.state_path_live(state);
drop index concurrently if exists lifecycle.namespaces_live_path_key;
alter index lifecycle.namespaces_live_path_key_next rename to namespaces_live_path_key;

drop index concurrently if exists lifecycle.namespaces_own_state_idx_next;
create index concurrently if not exists namespaces_own_state_idx_next
  on lifecycle.namespaces (state, traversal_ids) where lifecycle.state_is_own(state);
drop index concurrently if exists lifecycle.namespaces_own_state_idx;
alter index lifecycle.namespaces_own_state_idx_next rename to namespaces_own_state_idx;

drop index concurrently if exists lifecycle.namespaces_stateful_idx_next;
create index concurrently if not exists namespaces_stateful_idx_next
  on lifecycle.namespaces (id) include (state) where lifecycle.state_sets_effective(state);
drop index concurrently if exists lifecycle.namespaces_stateful_idx;
alter index lifecycle.namespaces_stateful_idx_next rename to namespaces_stateful_idx;
comment on index lifecycle.namespaces_stateful_idx is
  'The own states on a path, for namespace_effective_state (id = any (traversal_ids) and state_sets_effective(state)). The predicate is state_sets_effective, not state_is_own (the same codes as a bit test), so that the descendant guards (state_is_own, namespaces_own_state_idx) can never be planned on it.';

drop index concurrently if exists lifecycle.namespaces_deletion_scheduled_idx_next;
create index concurrently if not exists namespaces_deletion_scheduled_idx_next
  on lifecycle.namespaces (deletion_scheduled_at) where lifecycle.state_deletion_adjourned(state);
drop index concurrently if exists lifecycle.namespaces_deletion_scheduled_idx;
alter index lifecycle.namespaces_deletion_scheduled_idx_next rename to namespaces_deletion_scheduled_idx;

alter table lifecycle.namespaces
  drop constraint if exists namespaces_type_check,
  drop constraint if exists namespaces_type_known,
  add constraint namespaces_type_known check (lifecycle.namespace_type_known(type)) not valid;
alter table lifecycle.namespaces validate constraint namespaces_type_known;
alter table lifecycle.namespaces
  drop constraint if exists namespaces_organization_is_root,
  drop constraint if exists namespaces_root_only_type_is_root,
  add constraint namespaces_root_only_type_is_root
    check (parent_id is null or not lifecycle.namespace_type_root_only(type)) not valid;
alter table lifecycle.namespaces validate constraint namespaces_root_only_type_is_root;

---- create above / drop below ----

---- tern: disable-tx ----
-- The same way back: 001's, 002's, 003's and 028's literals.
alter table lifecycle.namespaces
  drop constraint if exists namespaces_root_only_type_is_root,
  drop constraint if exists namespaces_organization_is_root,
  add constraint namespaces_organization_is_root check (type <> 'organization' or parent_id is null) not valid;
alter table lifecycle.namespaces validate constraint namespaces_organization_is_root;
alter table lifecycle.namespaces
  drop constraint if exists namespaces_type_known,
  drop constraint if exists namespaces_type_check,
  add constraint namespaces_type_check check (type in ('organization', 'group', 'project', 'user')) not valid;
alter table lifecycle.namespaces validate constraint namespaces_type_check;

drop index concurrently if exists lifecycle.namespaces_deletion_scheduled_idx_next;
create index concurrently if not exists namespaces_deletion_scheduled_idx_next
  on lifecycle.namespaces (deletion_scheduled_at) where state = 2;
drop index concurrently if exists lifecycle.namespaces_deletion_scheduled_idx;
alter index lifecycle.namespaces_deletion_scheduled_idx_next rename to namespaces_deletion_scheduled_idx;

drop index concurrently if exists lifecycle.namespaces_stateful_idx_next;
create index concurrently if not exists namespaces_stateful_idx_next
  on lifecycle.namespaces (id) include (state) where state > 0;
drop index concurrently if exists lifecycle.namespaces_stateful_idx;
alter index lifecycle.namespaces_stateful_idx_next rename to namespaces_stateful_idx;
comment on index lifecycle.namespaces_stateful_idx is
  'The own states on a path, for namespace_effective_state (id = any (traversal_ids) and state > 0). The predicate is state > 0, not state <> 0, so that the descendant guards (state <> 0, namespaces_own_state_idx) can never be planned on it.';

drop index concurrently if exists lifecycle.namespaces_own_state_idx_next;
create index concurrently if not exists namespaces_own_state_idx_next
  on lifecycle.namespaces (state, traversal_ids) where state <> 0;
drop index concurrently if exists lifecycle.namespaces_own_state_idx;
alter index lifecycle.namespaces_own_state_idx_next rename to namespaces_own_state_idx;

drop index concurrently if exists lifecycle.namespaces_live_path_key_next;
create unique index concurrently if not exists namespaces_live_path_key_next
  on lifecycle.namespaces (coalesce(parent_id, 0), path) where state <> 2 and state <> 4;
drop index concurrently if exists lifecycle.namespaces_live_path_key;
alter index lifecycle.namespaces_live_path_key_next rename to namespaces_live_path_key;
