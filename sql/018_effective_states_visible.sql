-- lifecycle.effective_states_apply waits until the source transactions it is told of are visible
-- (docs/design.md §4): logical decoding hands out a commit a moment before the primary's new
-- snapshots show it, and rows recomputed within that moment stayed wrong until the next change
-- (found by make stress on a loaded machine). The syncer passes the transactions' ids.

-- Its new argument makes it another function.
drop function lifecycle.effective_states_apply(jsonb[]);
{{ template "snapshots/018/effective_states_apply.sql" . }}
revoke all on function lifecycle.effective_states_apply(jsonb[], bigint[]) from public;
grant execute on function lifecycle.effective_states_apply(jsonb[], bigint[]) to lifecycle_worker;

---- create above / drop below ----

drop function lifecycle.effective_states_apply(jsonb[], bigint[]);
{{ template "snapshots/015/effective_states_apply.sql" . }}
revoke all on function lifecycle.effective_states_apply(jsonb[]) from public;
grant execute on function lifecycle.effective_states_apply(jsonb[]) to lifecycle_worker;
