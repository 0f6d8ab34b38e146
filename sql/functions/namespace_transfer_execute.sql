-- Perform the move of an accepted transfer (docs/design.md §5): parent_id changes, and the traversal_ids
-- triggers rewrite the whole subtree in the same statement, so no reader sees it half moved; a
-- redirect keeps the old full path (and so every descendant's) resolving; the namespace returns to
-- the permanent state it had (transfer_done) with progress {done, total} in its state_metadata.
-- If the target no longer qualifies or the move fails, the move is undone, the request is failed
-- with last_error, and the namespace returns to its preserved state with last_error.
--
-- Idempotent and safe to call twice at once: the second call waits on the locks, then finds the
-- namespace no longer transfer_in_progress and returns 'noop'; a call racing the accept of a new
-- transfer of the same namespace moves it or returns 'noop', never ends it. The syncer calls it
-- when it sees a namespace enter transfer_in_progress, the sweeper for transfers stuck there, any
-- client may.
-- The state changes are attributed to the target's accepter (success) or the requester (failure),
-- or to the system when the caller may act as the system (lifecycle_worker). They are the
-- transfer's own code path (operation 'transfer'): whoever calls this may end the transfer this
-- way, while nobody but a worker may leave transfer_in_progress otherwise (transition_refusal).
-- A target less visible than the namespace lowers the moved subtree to its visibility
-- (namespaces_visibility); the history row of transfer_done says so in its reason.
create or replace function lifecycle.namespace_transfer_execute(namespace_id bigint)
returns table (outcome text, old_full_path text, new_full_path text)
language plpgsql
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
#variable_conflict use_variable
declare
  request_id bigint;
  r lifecycle.transfer_requests;
  ns lifecycle.namespaces;
  target_path bigint[];
  refusal record;
  as_system boolean := lifecycle.caller_may_act_as_system();
  total bigint;
  old_path text;
  failure text;
  lowered text;
begin
  if namespace_id is null then
    raise exception using errcode = 'NS010', message = 'namespace_id is required', hint = 'Pass the id of the moving namespace.';
  end if;
  -- Step 0 of the lock order: the accepted request, then the namespaces.
  select t.id into request_id from lifecycle.transfer_requests t
   where t.namespace_id = namespace_transfer_execute.namespace_id and t.status = 'accepted';
  if request_id is not null then
    r := lifecycle.transfer_request_lock(request_id);
  end if;

  -- Step 1: the old path and the new parent's path together, root first; step 2: the row and its key.
  loop
    select * into ns from lifecycle.namespaces n where n.id = namespace_transfer_execute.namespace_id;
    if not found then
      raise exception using errcode = 'NS004', message = 'namespace not found',
        detail = pg_catalog.format('namespace_id=%s', namespace_transfer_execute.namespace_id), hint = 'Check the id.';
    end if;
    select t.traversal_ids into target_path from lifecycle.namespaces t where t.id = r.to_parent_id;
    perform lifecycle.namespace_lock_path(ns.traversal_ids[1:pg_catalog.cardinality(ns.traversal_ids) - 1]
                                          || coalesce(target_path, '{}'));
    -- The row as it is once locked (a change committed while this waited is in it).
    select * into ns from lifecycle.namespaces n
     where n.id = namespace_transfer_execute.namespace_id and n.traversal_ids = ns.traversal_ids
       for no key update;
    if found then
      -- Its own key exclusively (step 2), before anything below it is read: every change in the
      -- subtree, which holds it shared, has committed, and none starts until the move commits.
      perform lifecycle.namespace_lock_path(array[ns.id], true);
      exit;
    end if;
  end loop;

  if ns.state <> lifecycle.state_code('transfer_in_progress') or r.status is distinct from 'accepted' then
    -- The request was looked up before the row was locked. An accept that committed since (it
    -- holds the row from its change to transfer_in_progress until its commit) left a transfer
    -- this call has not locked the request of, and may not now (step 0 comes first): the call
    -- that the accept's own transfer_started brings moves it. Ending it here would fail a
    -- transfer just accepted (the syncer runs a move for every transfer_started it reads, and
    -- reads the older ones of the same namespace again after a restart).
    if ns.state = lifecycle.state_code('transfer_in_progress')
       and exists (select from lifecycle.transfer_requests t
                    where t.namespace_id = ns.id and t.status = 'accepted') then
      return query select 'noop'::text, lifecycle.namespace_full_path(ns.id), null::text;
      return;
    end if;
    if ns.state = lifecycle.state_code('transfer_in_progress') then
      -- Moving with no accepted request: nothing says where to; end the transfer. Only the system
      -- may (no request names a user to act as): other callers get NS005, the sweeper recovers it.
      perform lifecycle.namespace_change_state(ns.id, null, 'transfer_done', null::bigint,
        pg_catalog.jsonb_build_object('last_error', 'no accepted transfer request'), 'transfer');
      return query select 'failed'::text, lifecycle.namespace_full_path(ns.id), null::text;
      return;
    end if;
    return query select 'noop'::text, lifecycle.namespace_full_path(ns.id), null::text;
    return;
  end if;

  old_path := lifecycle.namespace_full_path(ns.id);
  select * into refusal from lifecycle.transfer_target_refusal(ns.id, r.to_parent_id);
  if found then
    failure := refusal.code || ': ' || refusal.message;
  else
    begin
      select count(*) into total
        from lifecycle.namespaces d
       where d.traversal_ids >= ns.traversal_ids
         and d.traversal_ids < ns.traversal_ids[1:pg_catalog.cardinality(ns.traversal_ids) - 1]
                               || (ns.traversal_ids[pg_catalog.cardinality(ns.traversal_ids)] + 1);
      -- The context of the move's triggers, all of it written: who decided it (the actor of a
      -- visibility_changed fact when it lowers visibilities), and nothing lowered yet.
      perform pg_catalog.set_config('lifecycle.actor_id', coalesce(r.decided_by::text, ''), true),
              pg_catalog.set_config('lifecycle.visibility_lowering', '', true),
              pg_catalog.set_config('lifecycle.visibility_lowered', '', true);
      update lifecycle.namespaces n set parent_id = r.to_parent_id, updated_at = pg_catalog.now() where n.id = ns.id;
      perform pg_catalog.set_config('lifecycle.actor_id', '', true);
      -- "<id>:<count>" when the move lowered visibilities (namespaces_visibility).
      lowered := pg_catalog.current_setting('lifecycle.visibility_lowered', true);
      lowered := case when pg_catalog.split_part(lowered, ':', 1) = ns.id::text then pg_catalog.split_part(lowered, ':', 2) end;
      insert into lifecycle.namespace_redirects (old_full_path, namespace_id, kind, actor_id, new_full_path)
      values (old_path, ns.id, 'transfer', r.decided_by, lifecycle.namespace_full_path(ns.id));
    exception when others then
      -- The subtransaction is rolled back: nothing of the move remains.
      failure := sqlstate || ': ' || sqlerrm;
    end;
  end if;

  if failure is not null then
    update lifecycle.transfer_requests t set status = 'failed', last_error = failure, completed_at = pg_catalog.now()
     where t.id = r.id;
    perform lifecycle.namespace_change_state(ns.id, null, 'transfer_done',
      case when as_system then null else r.requested_by end,
      pg_catalog.jsonb_build_object('last_error', pg_catalog.left(failure, 2000),
                                    'correlation_id', 'transfer-request-' || r.id), 'transfer');
    return query select 'failed'::text, old_path, null::text;
    return;
  end if;

  update lifecycle.transfer_requests t set status = 'completed', completed_at = pg_catalog.now() where t.id = r.id;
  perform lifecycle.namespace_change_state(ns.id, null, 'transfer_done',
    case when as_system then null else r.decided_by end,
    pg_catalog.jsonb_build_object('progress', pg_catalog.jsonb_build_object('done', total, 'total', total),
                                  'correlation_id', 'transfer-request-' || r.id)
    || case when lowered is not null then
         pg_catalog.jsonb_build_object('reason', pg_catalog.left(pg_catalog.format(
           'moved below %s, which is less visible: %s namespaces lowered to %s',
           lifecycle.namespace_full_path(r.to_parent_id), lowered,
           (select n.visibility from lifecycle.namespaces n where n.id = ns.id)), 1000))
       else '{}'::jsonb end,
    'transfer');
  return query select 'completed'::text, old_path, lifecycle.namespace_full_path(ns.id);
end
$$;

comment on function lifecycle.namespace_transfer_execute(bigint) is
  'Move an accepted transfer''s subtree (idempotent): outcome completed, failed or noop.';
