-- lifecycle.effective_states kept by the changes, not recomputed whole (docs/design.md §4): the
-- materialized view becomes a table with the same name and columns, which the syncer keeps from
-- the facts it records (effective_states_apply: only the subtrees a change can have touched,
-- O(subtree) each), so the view's lag follows the changes, not the tree; a deleted namespace's row
-- goes in the deleting transaction (namespaces_effective_states). The recursive definition
-- stays as the reference (effective_states_computed), and effective_states_verify compares the
-- kept rows with it. namespace_effective_states_below is the set-based, always fresh form for one
-- subtree.

{{ template "snapshots/015/namespace_effective_states_below.sql" . }}

drop function lifecycle.effective_states_refresh();
drop materialized view lifecycle.effective_states;

-- The reference: the same recursive walk the view was, from every root.
create view lifecycle.effective_states_computed as
{{ template "snapshots/002/effective_states_query.sql" . }};

comment on view lifecycle.effective_states_computed is
  'The definition of lifecycle.effective_states (recursive, from every root): the reference the kept table is verified against.';

create table lifecycle.effective_states (
  namespace_id bigint primary key,
  state text not null,
  effective_state text not null,
  inherited_from_namespace_id bigint,
  self_or_ancestor_archived boolean not null,
  self_or_ancestor_deletion_scheduled boolean not null,
  read_only boolean not null,
  full_path text not null
);

comment on table lifecycle.effective_states is
  'Effective state of every namespace for bulk reads, kept by the syncer change by change (lags by the syncer''s delay); namespace_effective_state is always fresh.';

-- Rows of a hard-deleted subtree are found by the deleted root's full path (effective_states_apply).
create index effective_states_full_path_idx on lifecycle.effective_states (full_path text_pattern_ops);

insert into lifecycle.effective_states select * from lifecycle.effective_states_computed;

{{ template "snapshots/015/effective_states_write.sql" . }}
{{ template "snapshots/015/effective_states_refresh.sql" . }}
{{ template "snapshots/015/effective_states_apply.sql" . }}
{{ template "snapshots/015/namespaces_effective_states.sql" . }}
{{ template "functions/effective_states_verify.sql" . }}

revoke all on all functions in schema lifecycle from public;
grant select on lifecycle.effective_states, lifecycle.effective_states_computed to lifecycle_app, lifecycle_worker;
grant execute on function lifecycle.namespace_effective_states_below(bigint) to lifecycle_app, lifecycle_worker;
grant execute on function
  lifecycle.effective_states_refresh(),
  lifecycle.effective_states_apply(jsonb[]),
  lifecycle.effective_states_verify()
  to lifecycle_worker;

---- create above / drop below ----

drop trigger namespaces_effective_states on lifecycle.namespaces;
drop function lifecycle.namespaces_effective_states();
drop function lifecycle.effective_states_verify();
drop function lifecycle.effective_states_apply(jsonb[]);
drop function lifecycle.effective_states_refresh();
drop function lifecycle.effective_states_write(bigint[]);
drop table lifecycle.effective_states;
drop view lifecycle.effective_states_computed;
drop function lifecycle.namespace_effective_states_below(bigint);

-- 002's materialized view, as it was.
create materialized view lifecycle.effective_states as
{{ template "snapshots/002/effective_states_query.sql" . }};
-- The view is made just above, in this transaction: no one reads it yet.
-- squawk-ignore require-concurrent-index-creation
create unique index effective_states_namespace_id_idx on lifecycle.effective_states (namespace_id);
{{ template "snapshots/002/effective_states_refresh.sql" . }}

revoke all on all functions in schema lifecycle from public;
grant select on lifecycle.effective_states to lifecycle_app, lifecycle_worker;
grant execute on function lifecycle.effective_states_refresh() to lifecycle_worker;
