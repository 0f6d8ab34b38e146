-- The import's last step analyzes lifecycle.namespaces, so the transitions that follow a bulk
-- import are planned with statistics that show its rows and own states (namespace_import_finish).

{{ template "functions/namespace_import_finish.sql" . }}

---- create above / drop below ----

drop function lifecycle.namespace_import_finish();
{{ template "snapshots/013/namespace_import_finish.sql" . }}
revoke all on function lifecycle.namespace_import_finish() from public;
grant execute on function lifecycle.namespace_import_finish() to lifecycle_worker;
