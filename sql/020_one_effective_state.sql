-- One implementation of the effective state (docs/design.md §2): the API's answer to a change
-- (namespace_change_state) took it from effective_state_of, a PL/pgSQL copy of the rule with SET
-- clauses, kept since 009 while the API function was a SQL wrapper around it. Since 016
-- namespace_effective_state is the plain, inlinable form; the answer reads it, and the copy goes.

{{ template "snapshots/020/namespace_change_state.sql" . }}
drop function lifecycle.effective_state_of(bigint);

---- create above / drop below ----

{{ template "snapshots/009/effective_state_of.sql" . }}
revoke all on function lifecycle.effective_state_of(bigint) from public;
{{ template "snapshots/014/namespace_change_state.sql" . }}
