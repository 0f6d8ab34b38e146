-- lifecycle.effective_states follows the work, not its square (issue 24): one INSERT of 50,000
-- projects made the syncer's update run 14 minutes, while every later change waited behind it.
-- effective_states_write dropped the roots below other roots with a NOT EXISTS the planner ran as
-- a nested loop over the roots for each root (the unnest of an array parameter is estimated at 10
-- rows), and then walked each root's subtree in a call of its own (about half a millisecond even
-- for a leaf). namespace_effective_states_below_any does both for all the roots in one statement
-- whose every step is linear in the roots plus their subtrees, whatever the estimates (a sort and a
-- window drop the nested roots, the context from above is computed once per parent, one walk down
-- from all of them); namespace_effective_states_below becomes that for one id, so the walk is
-- written once. docs/benchmarks.md has the figures.

{{ template "snapshots/034/namespace_effective_states_below_any.sql" . }}
{{ template "functions/namespace_effective_states_below.sql" . }}
{{ template "functions/effective_states_write.sql" . }}

revoke all on function lifecycle.namespace_effective_states_below_any(bigint[]) from public;
grant execute on function lifecycle.namespace_effective_states_below_any(bigint[]) to lifecycle_app, lifecycle_worker;

---- create above / drop below ----

{{ template "snapshots/027/effective_states_write.sql" . }}
-- 015's version says create, not create or replace, and grants depend on it: replaced in place,
-- before the function it now calls goes.
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/015/namespace_effective_states_below.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
drop function lifecycle.namespace_effective_states_below_any(bigint[]);
