-- The memberships' check in one pass at 1M namespaces (issue 26, point 7). legacy_members_check
-- read lifecycle.legacy_members, a set-returning function: its two million rows at 1M namespaces
-- came out of a tuplestore (spilled to disk) in no order, and were hashed against
-- lifecycle.namespace_members (at 1M namespaces, 2M memberships: 6.70 s of backend CPU, more than
-- twice the states and tree together). The definition of a membership is now a statement
-- (legacy_members_statement) that legacy_members runs as before and the check runs inside its own
-- statement, sorted once in the order of namespace_members' primary key and merge-joined to it
-- (4.38 s at 1M). What either reports is unchanged (tests/legacy_members_bridge/).

{{ template "snapshots/049/legacy_members_statement.sql" . }}
{{ template "functions/legacy_members.sql" . }}
{{ template "snapshots/049/legacy_members_check.sql" . }}
revoke all on function lifecycle.legacy_members_statement(regclass, regclass, boolean) from public;

---- create above / drop below ----

-- 041's versions say create, not create or replace: replaced in place (their grants stay).
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/041/legacy_members_check.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/041/legacy_members.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
drop function lifecycle.legacy_members_statement(regclass, regclass, boolean);
