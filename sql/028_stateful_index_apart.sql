---- tern: disable-tx ----
-- The descendant guard of a transition reads within the namespace's subtree, whatever the
-- statistics say. Its statement (transition_refusal: state <> 0, state = any (forbidden), the
-- subtree's range) matched the predicate of two partial indexes: namespaces_own_state_idx (state,
-- traversal_ids), which bounds it by the forbidden states and the range, and
-- namespaces_stateful_idx (id) include (state), which it can only read whole. With statistics from
-- before a bulk write of states (no own state anywhere), the planner costs both as empty and took
-- the second: its generic plan, cached for the session, then read every namespace with an own
-- state on every transition. On a tree of 100k namespaces analyzed before any state, two rounds
-- each: one UPDATE archiving 40,000 projects ran 257-270 s (each archive read those before it) and
-- scheduling 1,000 more 11.6-20.0 s; with this, 14.8-25.2 s and 0.36-0.59 s.
-- namespaces_stateful_idx now says state > 0 (codes are 0 to 63, so the same rows), which
-- state <> 0 does not imply, so the guard cannot use it; namespace_effective_state, its reader,
-- says state > 0. (With such statistics the guard may still read the subtree's range,
-- namespaces_traversal_ids_idx, rather than only its forbidden states: bounded by the subtree, and
-- gone at the next ANALYZE.)
--
-- Outside a transaction (issue 25): in one, the rebuild held an ACCESS EXCLUSIVE lock from its
-- DROP INDEX to its commit, and every client, readers included, stalled 0.9-1.8 s at 1M namespaces
-- (19 s behind one 20 s reader). tern runs this file statement by statement, so the index is built
-- and dropped CONCURRENTLY, reads and writes going on: the new one beside the old under another
-- name, which it takes once the old is gone, so the path's states always have an index. The
-- migrator retries the file from the top after a failure anywhere, so every statement may run
-- again: the first drops the new index a failed build left INVALID (or a finished one, rebuilt).

drop index concurrently if exists lifecycle.namespaces_stateful_idx_next;
create index concurrently if not exists namespaces_stateful_idx_next on lifecycle.namespaces (id) include (state) where state > 0;
drop index concurrently if exists lifecycle.namespaces_stateful_idx;
alter index lifecycle.namespaces_stateful_idx_next rename to namespaces_stateful_idx;
comment on index lifecycle.namespaces_stateful_idx is
  'The own states on a path, for namespace_effective_state (id = any (traversal_ids) and state > 0). The predicate is state > 0, not state <> 0, so that the descendant guards (state <> 0, namespaces_own_state_idx) can never be planned on it.';

-- tern splits this file at every semicolon outside quotes, and a SQL-standard body has semicolons
-- of its own: the function goes in through one dollar-quoted EXECUTE.
do $do$ begin execute $fn${{ template "snapshots/028/namespace_effective_state.sql" . }}$fn$; end $do$;

---- create above / drop below ----

---- tern: disable-tx ----
-- The same way back (see above): 021's predicate and function.
drop index concurrently if exists lifecycle.namespaces_stateful_idx_next;
create index concurrently if not exists namespaces_stateful_idx_next on lifecycle.namespaces (id) include (state) where state <> 0;
drop index concurrently if exists lifecycle.namespaces_stateful_idx;
alter index lifecycle.namespaces_stateful_idx_next rename to namespaces_stateful_idx;
do $do$ begin execute $fn${{ template "snapshots/021/namespace_effective_state.sql" . }}$fn$; end $do$;
