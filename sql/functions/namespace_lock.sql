-- Locks a namespace for a change, in the global order (namespace_lock_path): a namespace in
-- transfer first holds its accepted transfer request (step 0: any way out of transfer_in_progress
-- closes the request, namespaces_state_gate, and accept, cancel and the move take the request
-- before the namespace), then, while legacy bridges exist, its legacy rows (step 0.5,
-- legacy_bridge_lock: an application's legacy write holds its row before it needs the namespace;
-- not again inside that write's own bridge trigger, legacy_bridge_applying, which holds its row and
-- would otherwise queue behind other legacy rows of the namespace), then its ancestors' lock rows
-- shared, root first (step 1), then its row
-- FOR NO KEY UPDATE and its own lock row exclusively, in one statement (step 2: changes below it,
-- which hold that lock row shared, finish first, and none starts until this transaction ends), and returns the
-- row. A move committed between the read and the locks changes the path; then it locks the new
-- one. NS004 when it does not exist.
create or replace function lifecycle.namespace_lock(namespace_id bigint)
returns lifecycle.namespaces
language plpgsql
-- No SET clause: saving and restoring the setting on each call cost more than this function's
-- own statements of empty tables. Every name below is schema-qualified, its callers
-- (namespace_change_state, the operations) pin search_path, and it is not SECURITY DEFINER and
-- granted to no client role.
as $$
declare
  locked_path bigint[];
  seen_state smallint;
  seen_type text;
  bridged boolean;
  ns lifecycle.namespaces;
  locked text;
begin
  loop
    -- The row and whether legacy bridges exist (two probes of empty tables without them), in one
    -- statement.
    select n.traversal_ids, n.state, n.type,
           exists (select from lifecycle.legacy_bridges) or exists (select from lifecycle.legacy_tree_bridges)
      into locked_path, seen_state, seen_type, bridged
      from lifecycle.namespaces n where n.id = namespace_lock.namespace_id;
    if not found then
      raise exception using errcode = 'NS004', message = 'namespace not found',
        detail = pg_catalog.format('namespace_id=%s', namespace_lock.namespace_id),
        hint = 'Check the id; a hard-deleted namespace is gone for good.';
    end if;
    if lifecycle.state_operation(seen_state) = 'transfer' then
      -- (A namespace whose transfer is accepted between this read and the row lock below is
      -- changed without its request held first; closing the request then takes it after the row,
      -- which at worst meets a concurrent move in a deadlock PostgreSQL ends, 40P01, nothing done.)
      perform 1 from lifecycle.transfer_requests t
        where t.namespace_id = namespace_lock.namespace_id and t.status = 'accepted'
        for update;
    end if;
    if bridged and not lifecycle.transaction_flag_raised('legacy_bridge_applying') then
      locked := lifecycle.legacy_bridge_lock(namespace_lock.namespace_id, seen_type)::text;
    end if;
    -- An assignment, not PERFORM (which would run a whole query to call it).
    locked := lifecycle.namespace_lock_path(locked_path[1:pg_catalog.cardinality(locked_path) - 1])::text;
    -- Step 2 in one statement: the row FOR NO KEY UPDATE, then its lock row FOR UPDATE (a
    -- statement locks a row's marks in the order its FOR clauses name them), where
    -- namespace_lock_path(array[id], true) took the lock row in a call and two statements of its
    -- own. Its probe of organization_moves is made again only for a root, the one namespace
    -- whose organization step 1 did not hold: any other's organization is an ancestor, whose lock
    -- row it holds shared since that probe, and a move out takes it exclusively before marking
    -- (organization_move_out_start).
    select n.* into ns
      from lifecycle.namespaces n
      join lifecycle.namespace_details d on d.namespace_id = n.id
     where n.id = namespace_lock.namespace_id and n.traversal_ids = locked_path
       for no key update of n
       for update of d;
    if found then
      if pg_catalog.cardinality(locked_path) = 1 then
        locked := lifecycle.namespace_lock_path(array[namespace_lock.namespace_id], true)::text;
      end if;
      return ns;
    end if;
    -- No lock row (a details row removed by hand; the state record writes it again): the row
    -- alone, then namespace_lock_path's call, which locks what there is.
    select * into ns
      from lifecycle.namespaces n
     where n.id = namespace_lock.namespace_id and n.traversal_ids = locked_path
       for no key update;
    if found then
      locked := lifecycle.namespace_lock_path(array[namespace_lock.namespace_id], true)::text;
      return ns;
    end if;
  end loop;
end
$$;
