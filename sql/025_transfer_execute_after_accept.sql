-- A move called while a new transfer of the same namespace is being accepted (the syncer runs one
-- for every transfer_started it reads, older ones of the namespace included after a restart) no
-- longer ends that transfer as failed: it reads the namespace as locked, and returns 'noop' when
-- an accept committed after it looked for the accepted request (docs/design.md §5).

{{ template "snapshots/025/namespace_transfer_execute.sql" . }}

---- create above / drop below ----

{{ template "snapshots/017/namespace_transfer_execute.sql" . }}
