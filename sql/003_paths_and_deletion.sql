-- Lifecycle operations, part 1 (docs/design.md §5): settings, path rules and uniqueness among live siblings,
-- rename with redirects and a rate limit, path resolution, visibility, and the soft-delete rules
-- (who scheduled it and when, restore refused when the path was taken or the grace period is over,
-- delete now when settings allow).

-- ---------------------------------------------------------------------------------------------
-- Settings: one row, validated (NS010).
-- ---------------------------------------------------------------------------------------------

create table lifecycle.settings (
  singleton boolean primary key default true check (singleton),
  -- Days a scheduled deletion waits before the sweeper deletes it (the grace period for restore).
  deletion_adjourned_period_days int not null default 7,
  -- How long a transfer request stays pending before it expires.
  transfer_request_ttl interval not null default '7 days',
  -- At most rename_limit path changes per namespace within rename_window.
  rename_limit int not null default 5,
  rename_window interval not null default '30 days',
  -- Namespaces the sweeper claims per batch, and rows one hard-delete batch removes.
  sweep_batch_size int not null default 100,
  hard_delete_batch_size int not null default 1000,
  -- Whether owners may skip the grace period (deletion_scheduled → deletion_in_progress).
  delete_now_allowed boolean not null default true,
  updated_at timestamptz not null default pg_catalog.now()
);

comment on table lifecycle.settings is 'Operational settings, one row; every change is validated (NS010).';

insert into lifecycle.settings default values;

-- ---------------------------------------------------------------------------------------------
-- Paths and visibility
-- ---------------------------------------------------------------------------------------------

create table lifecycle.reserved_paths (
  path text primary key,
  -- top_level: refused for namespaces without a parent (they would shadow routes); any: everywhere.
  scope text not null check (scope in ('top_level', 'any')),
  reason text not null
);

insert into lifecycle.reserved_paths (path, scope, reason)
select p, 'top_level', 'route of the host application'
  from unnest(array['admin', 'api', 'assets', 'dashboard', 'explore', 'groups', 'help', 'login',
                    'logout', 'new', 'oauth', 'profile', 'projects', 'public', 'search', 'settings',
                    'signup', 'uploads', 'users']) p
union all
select p, 'any', 'reserved for the product''s own routes'
  from unnest(array['badges', 'blob', 'raw', 'tree', 'edit', 'deleted']) p;

create table lifecycle.visibility_levels (
  name text primary key,
  rank smallint not null unique
);

comment on table lifecycle.visibility_levels is
  'Visibility levels by rank: a namespace is never more visible (higher rank) than its parent.';

insert into lifecycle.visibility_levels (name, rank) values ('private', 0), ('internal', 10), ('public', 20);

alter table lifecycle.namespaces drop constraint namespaces_visibility_check;
-- Accepted (sql/README.md, Migrations without stalls): the path rules come to 001's table in one
-- transaction with their triggers; the check reads it under SHARE ROW EXCLUSIVE (writes wait, reads
-- go on).
alter table lifecycle.namespaces
  -- squawk-ignore constraint-missing-not-valid, adding-foreign-key-constraint
  add constraint namespaces_visibility_fkey foreign key (visibility) references lifecycle.visibility_levels (name);

-- Paths are unique among live siblings; a namespace pending deletion (deletion_scheduled 2,
-- deletion_in_progress 4: lifecycle.states.pending_deletion) frees its path. Index predicates must
-- be constants, hence the codes. Roots share one namespace of paths (parent 0).
-- Accepted (sql/README.md, Migrations without stalls): this index and the two below come with the
-- path rules in one transaction (writes wait for the builds, reads go on).
-- squawk-ignore require-concurrent-index-creation
create unique index namespaces_live_path_key
  on lifecycle.namespaces (coalesce(parent_id, 0), path)
  where state <> 2 and state <> 4;

-- "Is any descendant more visible than X": only the non-private rows of a subtree are visited.
-- squawk-ignore require-concurrent-index-creation
create index namespaces_visible_idx on lifecycle.namespaces (visibility, traversal_ids) where visibility <> 'private';

-- Who scheduled a deletion and when; the sweep reads them by age.
alter table lifecycle.namespaces
  add column deletion_scheduled_at timestamptz,
  add column deletion_scheduled_by bigint;

-- squawk-ignore require-concurrent-index-creation
create index namespaces_deletion_scheduled_idx on lifecycle.namespaces (deletion_scheduled_at) where state = 2;

-- Old full paths: a request for one resolves to the namespace (and a descendant's old path, by
-- its longest redirected prefix, to that descendant). Rows go with their namespace.
create table lifecycle.namespace_redirects (
  id bigint generated always as identity primary key,
  old_full_path text not null,
  namespace_id bigint not null references lifecycle.namespaces (id) on delete cascade,
  kind text not null check (kind in ('rename', 'transfer')),
  actor_id bigint,
  new_full_path text not null,
  created_at timestamptz not null default pg_catalog.now()
);

create index namespace_redirects_old_full_path_idx on lifecycle.namespace_redirects (old_full_path, id);
-- The rename rate limit counts a namespace's renames in a window.
create index namespace_redirects_namespace_id_idx on lifecycle.namespace_redirects (namespace_id, kind, created_at);

-- Minimum effective access level for operations that are not state transitions.
create table lifecycle.operation_policies (
  operation text primary key,
  min_access_level smallint not null default 50 check (min_access_level in (10, 20, 30, 40, 50)),
  description text not null
);

insert into lifecycle.operation_policies (operation, min_access_level, description) values
  ('rename', 50, 'Change the path (and name) of a namespace.'),
  ('change_visibility', 50, 'Change the visibility of a namespace.'),
  ('transfer_request', 50, 'Offer a namespace to a new parent (on the namespace).'),
  ('transfer_accept', 50, 'Accept or decline an offered namespace (on the new parent).'),
  ('transfer_cancel', 50, 'Cancel a pending request (on the namespace; the requester always may).');

-- ---------------------------------------------------------------------------------------------
-- Functions and triggers
-- ---------------------------------------------------------------------------------------------

{{ template "snapshots/003/settings_refusal.sql" . }}
{{ template "snapshots/003/path_refusal.sql" . }}
{{ template "snapshots/003/namespace_lock_sibling_path.sql" . }}
{{ template "functions/actor_refusal.sql" . }}
{{ template "functions/read_only_refusal.sql" . }}
{{ template "snapshots/003/namespace_walk.sql" . }}
{{ template "snapshots/003/namespace_resolve.sql" . }}
{{ template "snapshots/003/namespace_rename.sql" . }}
{{ template "snapshots/003/namespace_set_visibility.sql" . }}
{{ template "triggers/settings_validate.sql" . }}
{{ template "snapshots/003/namespaces_paths.sql" . }}
{{ template "snapshots/003/namespaces_visibility.sql" . }}

-- The soft-delete rules join the gate: transition_refusal learns the grace period (NS007), the
-- delete-now setting (NS005) and a restore into a taken path (NS006); the gate records who
-- scheduled a deletion and when.
{{ template "snapshots/003/transition_refusal.sql" . }}
{{ template "snapshots/003/namespaces_state_gate.sql" . }}

revoke all on all functions in schema lifecycle from public;

grant select on lifecycle.settings, lifecycle.reserved_paths, lifecycle.visibility_levels,
  lifecycle.namespace_redirects, lifecycle.operation_policies
  to lifecycle_app, lifecycle_worker;
grant execute on function
  lifecycle.namespace_resolve(text),
  lifecycle.namespace_rename(bigint, text, bigint),
  lifecycle.namespace_set_visibility(bigint, text, bigint)
  to lifecycle_app, lifecycle_worker;

---- create above / drop below ----

revoke all on lifecycle.settings, lifecycle.reserved_paths, lifecycle.visibility_levels,
  lifecycle.namespace_redirects, lifecycle.operation_policies
  from lifecycle_app, lifecycle_worker;

drop trigger namespaces_2_visibility on lifecycle.namespaces;
drop trigger namespaces_2_paths on lifecycle.namespaces;
drop trigger settings_validate on lifecycle.settings;
drop function lifecycle.namespaces_visibility();
drop function lifecycle.namespaces_paths();
drop function lifecycle.settings_validate();
drop function lifecycle.namespace_set_visibility(bigint, text, bigint);
drop function lifecycle.namespace_rename(bigint, text, bigint);
drop function lifecycle.namespace_resolve(text);
drop function lifecycle.namespace_walk(text[]);
drop function lifecycle.read_only_refusal(bigint, text);
drop function lifecycle.actor_refusal(bigint, bigint[], bigint, smallint, text);
drop function lifecycle.namespace_lock_sibling_path(bigint, text);
drop function lifecycle.path_refusal(text, bigint);
drop function lifecycle.settings_refusal(lifecycle.settings);

-- 002's versions of the gate and its rules.
{{ template "snapshots/002/transition_refusal.sql" . }}
{{ template "snapshots/002/namespaces_state_gate.sql" . }}

drop table lifecycle.operation_policies;
drop table lifecycle.namespace_redirects;
-- Accepted (sql/README.md, Migrations without stalls): down to 002, in the transaction that takes
-- the path rules away (its DROP TRIGGERs above hold ACCESS EXCLUSIVE on namespaces already).
-- squawk-ignore require-concurrent-index-deletion
drop index lifecycle.namespaces_deletion_scheduled_idx;
alter table lifecycle.namespaces drop column deletion_scheduled_by, drop column deletion_scheduled_at;
-- squawk-ignore require-concurrent-index-deletion
drop index lifecycle.namespaces_visible_idx;
-- squawk-ignore require-concurrent-index-deletion
drop index lifecycle.namespaces_live_path_key;
alter table lifecycle.namespaces drop constraint namespaces_visibility_fkey;
alter table lifecycle.namespaces
  -- squawk-ignore constraint-missing-not-valid
  add constraint namespaces_visibility_check check (visibility in ('private', 'internal', 'public'));
drop table lifecycle.visibility_levels;
drop table lifecycle.reserved_paths;
drop table lifecycle.settings;
