-- The whole check under 10 s at 1M namespaces (issue 26, point 7). legacy_bridge_check ran the
-- states' and tree's statement, then legacy_members_check's, one after the other in one process
-- (at 1M GitLab namespaces and 2M memberships 5.5-5.9 s of backend CPU, 27-31 s of wall time on
-- the loaded 2-core machine). It now runs the memberships inside its own statement
-- (legacy_bridge_check_statement builds it), a union whose parts (the namespaces with their bridged
-- rows, each tree-bridged table's rows the lifecycle lacks, the memberships) run side by side in
-- parallel workers; what each part reads and reports is unchanged (tests/legacy_bridge_check/,
-- tests/legacy_members_bridge/). Neither check plans a nested loop any more: on GitLab's tables
-- not analyzed yet (right after they were loaded) the memberships' check read projects again for
-- each members row.

{{ template "functions/legacy_bridge_check_statement.sql" . }}
revoke all on function lifecycle.legacy_bridge_check_statement() from public;
{{ template "functions/legacy_members_check.sql" . }}
{{ template "functions/legacy_bridge_check.sql" . }}

---- create above / drop below ----

{{ template "snapshots/049/legacy_members_check.sql" . }}
{{ template "snapshots/043/legacy_bridge_check.sql" . }}
drop function lifecycle.legacy_bridge_check_statement();
