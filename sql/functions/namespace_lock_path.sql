-- THE GLOBAL LOCK ORDER. Every function and trigger that locks rows of the lifecycle schema takes
-- them in this order, so concurrent lifecycle operations queue behind each other instead of
-- deadlocking. Every lock an operation waits on is a row lock on a table only the schema's owner
-- may lock (FOR SHARE and FOR UPDATE need UPDATE privilege, which no role is granted on these
-- tables), or a row only its functions insert: no session outside them can take one, so none can
-- make an operation wait but by changing what the operation changes (docs/reliability.md). Not
-- advisory locks: their keys are shown to every session in pg_locks, and any session may take them.
--
--   0. a transfer request, FOR UPDATE (transfer_request_lock): accept, decline, cancel, expiry and
--      the move serialise on it, before they touch any namespace; an import batch's row of
--      lifecycle.lock_rows, FOR UPDATE (namespace_import_batch, namespace_import_finish: one import
--      at a time);
--   0.5. while legacy bridges exist (docs/design.md §10.2), the namespace's rows in the bridged
--      legacy tables that speak for it, FOR NO KEY UPDATE (FOR UPDATE for an existence bridge's),
--      tables in oid order (legacy_bridge_lock, called by namespace_lock): an application's legacy
--      UPDATE holds its row before its bridge trigger takes steps 1 and 2, so the API takes the
--      row before them too, and a legacy write and an API change of one namespace queue instead
--      of deadlocking, in either order. Not taken again inside that trigger (its statement holds
--      its row already). Not covered: a raw UPDATE of state (it holds the namespace's row before
--      its trigger runs); an application INSERT of an existence bridge's row racing an API change
--      that writes the same row (no row to lock yet); a transaction that writes two bridged
--      tables of one namespace in another order; a legacy write of a namespace in
--      transfer_in_progress meeting the transfer's functions, which hold step 0 first. Each may end
--      in 40P01 for one of them, nothing half-done;
--   1. namespaces on a path, root first, shared (this function): each one's lock row, its
--      lifecycle.namespace_details row, FOR KEY SHARE. A change below an ancestor holds it, so the
--      ancestor cannot change state, move, be renamed or change visibility until that change
--      commits: each of those takes its own lock row FOR UPDATE first (step 2). Guards that look
--      up or down the tree are therefore checked against committed, stable rows. A move locks the
--      old and the new path in one call; an INSERT locks its parent's path
--      (namespaces_traversal_ids_maintain). The details row, not the namespace's own row, because
--      lifecycle_app may lock namespace rows (it may UPDATE their name, and FOR UPDATE needs no
--      more): on the details rows, which it may only read, it can hold nothing. Row locks live in
--      the rows, so a bulk INSERT below thousands of parents fills no shared lock table. Each lock
--      writes the row's lock bits (a small WAL record, a multixact when changes share an ancestor):
--      the cost was measured against shared advisory keys (docs/benchmarks.md, Transitions);
--   2. the namespace being changed: its row FOR NO KEY UPDATE (namespace_lock, or its UPDATE),
--      then its lock row FOR UPDATE (namespace_lock, in the statement that locks the row; this
--      function with exclusive for a root's organization probe, for a raw UPDATE of state by the
--      gate, namespaces_state_gate, and for a move by
--      namespace_transfer_execute). Only the namespace a statement names takes its lock row: the
--      rows a move rewrites below it (traversal_ids, the visibility it lowers) are covered by
--      their ancestor's, held exclusively;
--   3. the name "path below parent" (namespace_lock_sibling_path), a claim row in
--      lifecycle.path_claims, when a path becomes live (create, rename, move, restore);
--   4. that namespace's namespace_details row, updated by the state record (the gate; locked since
--      step 2 when the state changes);
--   5. inserts only (history, redirects), which take no row locks that others wait on;
--   6. lifecycle.effective_states: its row in lifecycle.lock_rows, FOR KEY SHARE at the end of a
--      DELETE of namespaces (namespaces_effective_states), FOR UPDATE for the syncer's update and a
--      rebuild (effective_states_apply, effective_states_refresh), which lock nothing else: they
--      wait for each other, never in a cycle.
--
-- An organization moving to another cluster (docs/scaling.md, Cells) is held like a change of the
-- organization itself: organization_move_out_start takes its row and lock row (step 2) and marks
-- it in lifecycle.organization_moves before it commits. Every change in the organization passes
-- here, and every write of a membership, a webhook or a name takes the same lock and makes the
-- same check (organization_moving_guard), so each one either commits before the mark (the move
-- waits for it, and exports it) or takes its locks after it and is refused, after its locks, with
-- NS011 (organization_moving_check). Without moves this costs one probe of an empty table.
--
-- A raw UPDATE (the schema owner's alone) takes the changed row (2) before its trigger takes the
-- path (1). Two raw UPDATEs or a raw UPDATE and an API call can then wait on each other in rare
-- interleavings; PostgreSQL's deadlock detector ends one of them (SQLSTATE 40P01) with nothing
-- half-done. A raw UPDATE of path or visibility takes no lock row: it holds nothing against
-- changes below it. Clients should use the API functions, which follow the order exactly.
create or replace function lifecycle.namespace_lock_path(ids bigint[], exclusive boolean default false)
returns void
language plpgsql
-- Definer: row locks need a privilege no client role has on lifecycle.namespace_details.
security definer
set search_path to ''
-- Plans are cached for the session (PL/pgSQL). Seq scans off: a generic plan made while the table
-- was small (a fresh database filled by one large INSERT) would otherwise keep scanning the whole
-- table for these id lists as it grows, making that INSERT quadratic; with them off, it is the
-- index plan from the start. JIT off: with seq scans off, a one-row table looks expensive enough
-- to compile, which costs milliseconds. And always the generic plan: left to choose, the plan
-- cache judged it dearer than a plan for the actual ids and planned afresh on every call.
set enable_seqscan to off
set jit to off
set plan_cache_mode to force_generic_plan
as $$
begin
  if exclusive then
    perform 1 from lifecycle.namespace_details d where d.namespace_id = any (ids) for update of d;
  else
    -- Root first: callers pass paths in traversal_ids order, and rows are locked in the order the
    -- sort returns them. PERFORM reads every row, so every row is locked.
    perform 1
       from pg_catalog.unnest(ids) with ordinality as p (id, pos)
       join lifecycle.namespace_details d on d.namespace_id = p.id
      order by p.pos
        for key share of d;
  end if;
  -- After the locks: a mark committed while this waited for them is seen (a new snapshot).
  if exists (select from lifecycle.organization_moves m where m.organization_id = any (ids) and m.direction = 'out'
                                                                and m.finished_at is null) then
    perform lifecycle.organization_moving_check(ids);
  end if;
end
$$;

comment on function lifecycle.namespace_lock_path(bigint[], boolean) is
  'Locks the given namespaces'' lock rows (their namespace_details rows): FOR KEY SHARE, root first (step 1 of the global lock order: a path), or FOR UPDATE (step 2: the namespace changed, after its row).';
