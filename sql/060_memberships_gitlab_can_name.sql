-- Memberships only of namespaces GitLab's members can name (issue 26, points 4, 6 and 7). The
-- members bridge refused a membership of an organization, but wrote one of a user's personal
-- namespace back as a GroupMember whose source is no Group: GitLab never reads such a row as a
-- membership (GroupMember belongs to a Group; a personal namespace's owner is its owner_id), while
-- the lifecycle gave the user authority there and the check, seeing both sides agree, said
-- nothing. The bridge now names the lifecycle's types that a members row with source_type
-- Namespace speaks for (namespace_types; cmd/adopt's GitLab preset: array['group']); a project's
-- namespace is named by its Project rows as before. A membership of any other namespace is refused
-- (NS010, with a hint) while the bridge is installed, a members row naming one is no membership,
-- and the check reports one the lifecycle has. The organization's case is the same rule.
--
-- A bridge already installed keeps what it did: its namespace_types are every type that holds
-- others and is not only ever a root (organizations were refused before, every other type held).
-- To narrow it to GitLab's groups, run cmd/adopt -preset gitlab again (it adds its bridges again
-- when they differ from its own) or drop the bridge and add it with namespace_types; the check
-- then reports the memberships of personal namespaces the lifecycle has (docs/adoption.md).
--
-- Locks: ACCESS EXCLUSIVE on lifecycle.legacy_members_bridges, a table of at most one row, taken
-- first: the write-back trigger reads it at each membership write, which waits for this
-- transaction (no lock on namespace_members, whose trigger function is replaced in place).

lock table lifecycle.legacy_members_bridges in access exclusive mode;

alter table lifecycle.legacy_members_bridges add column namespace_types text[];
update lifecycle.legacy_members_bridges b
   set namespace_types = (select pg_catalog.array_agg(t.name order by t.name) from lifecycle.namespace_types t
                           where lifecycle.namespace_type_can_be_parent(t.name) and not lifecycle.namespace_type_root_only(t.name));
-- Accepted (sql/README.md, Migrations without stalls): at most one row, filled just above.
-- squawk-ignore adding-not-nullable-field
alter table lifecycle.legacy_members_bridges alter column namespace_types set not null;
comment on column lifecycle.legacy_members_bridges.namespace_types is
  'The types of the namespaces a members row with source_type Namespace names (GitLab: group); projects'' namespaces are named by Project rows.';

{{ template "functions/legacy_members_statement.sql" . }}
{{ template "triggers/legacy_members_state.sql" . }}
drop function lifecycle.legacy_members_bridge_add(regclass, regclass);
{{ template "snapshots/060/legacy_members_bridge_add.sql" . }}
revoke all on function lifecycle.legacy_members_bridge_add(regclass, regclass, text[]) from public;

---- create above / drop below ----

lock table lifecycle.legacy_members_bridges in access exclusive mode;

drop function lifecycle.legacy_members_bridge_add(regclass, regclass, text[]);
{{ template "snapshots/047/legacy_members_bridge_add.sql" . }}
revoke all on function lifecycle.legacy_members_bridge_add(regclass, regclass) from public;
{{ template "snapshots/053/legacy_members_state.sql" . }}
{{ template "snapshots/053/legacy_members_statement.sql" . }}
alter table lifecycle.legacy_members_bridges drop column namespace_types;
