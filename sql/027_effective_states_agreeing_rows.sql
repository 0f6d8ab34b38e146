-- A rebuild of lifecycle.effective_states that changes nothing writes nothing: effective_states_write
-- compares the rows before its INSERT, where ON CONFLICT's WHERE locked every row that agreed (a WAL
-- record and a dirtied page each: 5.5 MB of WAL for a rebuild of 100,000 rows that changed none,
-- read by every logical slot before the changes committed after it; docs/benchmarks/history.md).

{{ template "snapshots/027/effective_states_write.sql" . }}

---- create above / drop below ----

drop function lifecycle.effective_states_write(bigint[]);
{{ template "snapshots/015/effective_states_write.sql" . }}
revoke all on function lifecycle.effective_states_write(bigint[]) from public;
