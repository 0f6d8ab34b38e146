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
-- gone at the next ANALYZE.) Building the index reads the table once under a ShareLock: writes
-- wait, reads go on.

drop index lifecycle.namespaces_stateful_idx;
create index namespaces_stateful_idx on lifecycle.namespaces (id) include (state) where state > 0;
comment on index lifecycle.namespaces_stateful_idx is
  'The own states on a path, for namespace_effective_state (id = any (traversal_ids) and state > 0). The predicate is state > 0, not state <> 0, so that the descendant guards (state <> 0, namespaces_own_state_idx) can never be planned on it.';

{{ template "functions/namespace_effective_state.sql" . }}

---- create above / drop below ----

{{ template "snapshots/021/namespace_effective_state.sql" . }}
drop index lifecycle.namespaces_stateful_idx;
create index namespaces_stateful_idx on lifecycle.namespaces (id) include (state) where state <> 0;
