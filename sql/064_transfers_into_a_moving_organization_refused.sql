-- A transfer into an organization that is moving to another cluster is refused with NS011 at
-- request and at accept (transfer_target_refusal), as every write to the organization is: it
-- failed at execution, leaving a failed request check_invariants reported.
{{ template "functions/transfer_target_refusal.sql" . }}
{{ template "functions/namespace_transfer_request.sql" . }}

---- create above / drop below ----

{{ template "released/1.0.0/functions/transfer_target_refusal.sql" . }}
{{ template "released/1.0.0/functions/namespace_transfer_request.sql" . }}
