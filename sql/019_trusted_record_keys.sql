-- The state record's own keys are not validated again (docs/design.md §4.4): every change of
-- state rewrote the details row and walked the whole document against the JSON schema, although
-- the record builds its keys (the time, the actor, state names) from values it has checked.
-- namespace_details_validate now walks the document only when something else in it changed, or
-- when anyone but the record writes it.

{{ template "snapshots/019/namespace_details_validate.sql" . }}
{{ template "snapshots/019/namespaces_state_record.sql" . }}

---- create above / drop below ----

{{ template "snapshots/014/namespaces_state_record.sql" . }}
{{ template "snapshots/013/namespace_details_validate.sql" . }}
