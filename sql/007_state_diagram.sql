-- The state machine as a diagram, drawn from the tables that define it (docs/states.md).
{{ template "functions/state_diagram.sql" . }}

revoke all on function lifecycle.state_diagram() from public;
grant execute on function lifecycle.state_diagram() to lifecycle_app, lifecycle_worker;

---- create above / drop below ----

drop function lifecycle.state_diagram();
