-- Memberships the API writes, as GitLab would make them (issue 26, point 6). A membership added
-- through the product for a user who had asked GitLab for access to the same group or project got
-- a second members row beside the request, which GitLab (a Member validation: one row of a user
-- per source) never has; the write-back now approves the request instead, as
-- Members::CreatorService does. A membership of an organization was written to members as a
-- GroupMember of a namespace GitLab does not have (and one its own namespaces sequence may later
-- hand out to a group); it is now refused with NS010 while the members bridge is installed, no
-- members row naming one is a membership, and the check reports one the lifecycle has.

{{ template "snapshots/053/legacy_members_statement.sql" . }}
{{ template "snapshots/053/legacy_members_state.sql" . }}

---- create above / drop below ----

{{ template "snapshots/047/legacy_members_state.sql" . }}
-- 049's version says create, not create or replace: replaced in place (its grants stay).
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/049/legacy_members_statement.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
