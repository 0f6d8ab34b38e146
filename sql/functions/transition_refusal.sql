-- Why a namespace may not go from from_state to to_state, or a row of nulls when it may. The one place the
-- matrix, authority, authorization and guards are decided: the state gate raises what it returns,
-- and namespace_available_transitions reports it. Checks run cheapest first and the first refusal
-- wins: matrix (NS001), authority over a state an operation owns (NS005), authorization of the
-- actor (NS005, actor_refusal), the grace period of a restore by a user (NS007), delete now when
-- settings forbid it (NS005), ancestors (NS002), descendants (NS003), and a restore into a path a
-- live sibling took meanwhile (NS006).
--
-- Authority is the calling role's; attribution is actor_id's (docs/design.md §4). A state an
-- operation owns (lifecycle.states.operation: deletion_in_progress is the hard delete's,
-- transfer_in_progress the transfer's) is left only by that operation's own code path (which says
-- so in operation: the gate passes what namespace_change_state was told by its caller, never a
-- client's setting) or by a caller that may act as the system (lifecycle_worker, superusers), whatever actor
-- the change is attributed to: the actor is then attribution only, and is not asked for an access
-- level. A state the operation also enters itself (lifecycle.states.operation_enters:
-- transfer_in_progress, whose accepted request the transfer writes beside it) is entered only by
-- that code path, or by a superuser (who could disable the gate as well): anyone else, an owner's
-- call from the application or a worker's (GitLab's one role is both), would leave it with no
-- request to finish it, and no worker has a reason to (recovery leaves such states, never enters
-- them). Entering is then judged like every other change: the actor needs the policy's level.
-- Every other change needs the actor's level (or the system's right for actor null).
--
-- from_state null is creation (the row is being inserted: no authorization, no descendants).
-- traversal_ids is the namespace's path, self included. Cost: the rules are constants (their
-- digest, lifecycle.transition_rule), one statement for the guards' lookups and the access level:
-- O(depth) for the access level and ancestors, plus the
-- descendants in a forbidden state (namespaces_own_state_idx, the one partial index whose
-- predicate, lifecycle.state_is_own, the guard's matches), not a scan of the subtree; with statistics from
-- before a bulk write of states the planner may take the subtree's range instead, never more. The
-- caller holds the locks that make the answer stable (namespace_lock_path).
create or replace function lifecycle.transition_refusal(
  namespace_id bigint,
  traversal_ids bigint[],
  from_state smallint,
  to_state smallint,
  actor_id bigint,
  operation text default null,
  -- with_path: answer ancestor_path too (the gate's record names the namespace's full path in its
  -- fact): the ancestors are read once, for the guard and the path; a second read in the record
  -- would cost 163k instructions a change (callgrind).
  with_path boolean default false,
  -- One row, not a set: the refusal, or all nulls when the change may be made. The gate assigns
  -- it in an expression; a call of a set-returning function would be a statement of its own (an
  -- executor start and a tuplestore) on every change.
  out code text,
  out message text,
  out detail text,
  out hint text,
  -- The ancestors' paths, root first, joined by '/'; null for a root, and unless with_path.
  out ancestor_path text
)
returns record
language plpgsql
stable
set search_path to ''
-- Plans are cached for the session (PL/pgSQL); planning afresh on every call cost more than the
-- lookups. Seq scans off: a generic plan made while the table was small (a fresh database filled
-- by one large INSERT) would otherwise keep scanning the whole table for these id lists as it
-- grows, making that INSERT quadratic; with them off, it is the index plan from the start.
set enable_seqscan to off
-- With seq scans off, a query that can only scan (a one-row table) looks expensive enough to be
-- JIT-compiled, which costs milliseconds: never worth it for these lookups.
set jit to off
-- And always the generic plans: left to choose, the plan cache judged the ancestor guard's generic
-- plan dearer than one for the actual path and planned it afresh on every call. The generic plans
-- here are the index plans the statements are written for (seq scans off), whatever the values.
set plan_cache_mode to force_generic_plan
as $$
#variable_conflict use_variable
declare
  depth int := pg_catalog.cardinality(traversal_ids);
  ancestor_id bigint;
  ancestor_state smallint;
  descendant_id bigint;
  descendant_state smallint;
  ns lifecycle.namespaces;
  cfg lifecycle.settings;
  hit_id bigint;
  rule lifecycle.transition_rule;
  look_ancestor boolean;
  look_descendant boolean;
  look_level boolean;
  actor_level smallint;
begin
  -- What the rule tables say of this pair (the matrix, the level it needs, the states a guard
  -- forbids, the two states' names and flags), as constants: their digest, an expression that
  -- reads no table (transition_rules_write).
  rule := lifecycle.transition_rule(from_state, to_state);
  -- What the guards and the authorization read, in one statement (every statement a change runs
  -- costs its executor's start, whatever it reads): the nearest ancestor and a descendant in a
  -- state a guard forbids, each looked up only when the pair is in the matrix and has a guard of
  -- that scope, and the actor's access level (namespace_access_level_row, inlined), only when
  -- the authorization below asks for it. In the cached generic plan each condition is a one-time
  -- filter: a part not needed reads nothing. The checks below still report in the order listed
  -- above.
  look_ancestor := coalesce(rule.allowed and depth > 1 and rule.ancestor_forbidden <> '{}', false);
  look_descendant := coalesce(rule.allowed and from_state is not null and rule.descendant_forbidden <> '{}', false);
  look_level := coalesce(rule.allowed and from_state is not null and rule.from_operation is null and actor_id is not null, false);
  if look_ancestor or look_descendant or look_level or (with_path and depth > 1) then
    -- The ancestors by primary key, then their states: the fence (offset 0) keeps the state test
    -- out of the index choice. With it inside, a plan could scan namespaces_own_state_idx for every
    -- row in those states and pick the ancestors out, a cost that grows with the number of stateful
    -- namespaces (quadratic in one statement that archives many of them).
    -- No descendant, at any depth, may have a forbidden own state (none for a creation).
    -- Descendants of X sort after X and before X with its last element + 1.
    select traversal_ids[a.nearest / 64], a.nearest % 64, a.paths, d.id, d.state, l.access_level
      into ancestor_id, ancestor_state, ancestor_path, descendant_id, descendant_state, actor_level
      from (values (true)) one (t)
      left join lateral (
        -- The nearest forbidden ancestor as level * 64 + state (a state code is below 64; the
        -- ancestor at a level is traversal_ids[level]), and the paths in level order.
        select pg_catalog.max(x.level * 64 + x.state) filter (where look_ancestor and x.state = any (rule.ancestor_forbidden)) as nearest,
               pg_catalog.string_agg(x.path, '/' order by x.level) filter (where with_path) as paths
          from (select n.state, n.path, pg_catalog.cardinality(n.traversal_ids) as level
                  from lifecycle.namespaces n
                 where (look_ancestor or with_path) and n.id = any (traversal_ids[1:depth - 1])
                offset 0) x) a on true
      left join lateral (
        select y.id, y.state
          from lifecycle.namespaces y
         where look_descendant
           and lifecycle.state_is_own(y.state)
           and y.state = any (rule.descendant_forbidden)
           and y.traversal_ids > traversal_ids
           and y.traversal_ids < traversal_ids[1:depth - 1] || (traversal_ids[depth] + 1)
         limit 1) d on true
      left join lateral (
        select r.access_level
          from lifecycle.namespace_access_level_row(traversal_ids, actor_id) r
         where look_level) l on true;
  end if;

  -- 1. The matrix.
  if not coalesce(rule.allowed, false) then
    code := 'NS001';
    message := case when from_state is null
                 then pg_catalog.format('a namespace cannot be created as %s', rule.to_name)
                 else pg_catalog.format('cannot change namespace state from %s to %s', rule.from_name, rule.to_name) end;
    detail := pg_catalog.format('namespace_id=%s from_state=%s to_state=%s', namespace_id, rule.from_name, rule.to_name);
    hint := coalesce(
      (select pg_catalog.format('From %s a namespace may go to: %s.', rule.from_name,
                                pg_catalog.string_agg(s.name, ', ' order by s.code))
         from lifecycle.state_transitions t
         join lifecycle.states s on s.code = t.to_state
        where t.from_state is not distinct from transition_refusal.from_state),
      pg_catalog.format('No transition leaves %s.', rule.from_name));
    return;
  end if;

  -- 2. Authority over a state an operation owns; else authorization: the system (actor null) or
  -- an actor with the policy's access level.
  if rule.to_operation is not null and operation is distinct from rule.to_operation
     and not coalesce((select r.rolsuper from pg_catalog.pg_roles r
                        where r.rolname = coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user)),
                      false) then
    code := 'NS005';
    message := pg_catalog.format('only the %s itself may move a namespace into %s',
                                 pg_catalog.replace(rule.to_operation, '_', ' '), rule.to_name);
    detail := pg_catalog.format('namespace_id=%s from_state=%s to_state=%s operation=%s role=%s', namespace_id,
                                rule.from_name, rule.to_name, rule.to_operation,
                                coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user));
    hint := case rule.to_operation
              when 'transfer' then 'Request the transfer (lifecycle.namespace_transfer_request); its accept starts it.'
              else pg_catalog.format('Only the %s''s own functions start it.', pg_catalog.replace(rule.to_operation, '_', ' '))
            end;
    return;
  end if;
  if rule.from_operation is not null then
    if operation is distinct from rule.from_operation
       and not lifecycle.caller_may_act_as_system() then
      code := 'NS005';
      message := pg_catalog.format('only the %s itself or a worker may move a namespace out of %s',
                                   pg_catalog.replace(rule.from_operation, '_', ' '), rule.from_name);
      detail := pg_catalog.format('namespace_id=%s from_state=%s to_state=%s operation=%s role=%s', namespace_id,
                                  rule.from_name, rule.to_name, rule.from_operation,
                                  coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user));
      hint := case rule.from_operation
                when 'transfer' then 'Wait for the transfer to finish (lifecycle.namespace_transfer_execute); the sweeper ends transfers that are stuck.'
                else 'Wait for the hard delete to finish; the sweeper resumes deletions that are stuck, and a failed one is requeued as deletion_scheduled, which an owner may restore.'
              end;
      return;
    end if;
  elsif from_state is not null then
    -- (A change the legacy bridge carries over is judged here like any other: the calling role's
    -- authority, on behalf of the actor the legacy row names. docs/design.md §10.2.)
    -- actor_refusal decides and words it; it is not asked when the level read above meets the
    -- policy's (it would find the same level and refuse nothing): a call of a set-returning
    -- function and its own read of the level were two statements per change.
    if actor_id is null or actor_level is null or rule.min_access_level is null or actor_level < rule.min_access_level then
      select r.code, r.message, r.detail, r.hint into code, message, detail, hint
        from lifecycle.actor_refusal(namespace_id, traversal_ids, actor_id, rule.min_access_level,
               pg_catalog.format('move this namespace to %s', rule.to_name)) r;
      if code is not null then
        return;
      end if;
    end if;
  end if;
  if from_state is not null then
    -- The row and the settings matter only when leaving a pending deletion (grace period, delete
    -- now, the path taken meanwhile).
    if rule.from_pending then
      select * into ns from lifecycle.namespaces n where n.id = transition_refusal.namespace_id;
      select * into cfg from lifecycle.settings;

      -- Soft delete (docs/design.md §5). A user's restore ends with the grace period; the system (the
      -- sweeper restoring a namespace whose scheduler lost the right to delete it) may restore later.
      if lifecycle.state_deletion_adjourned(from_state) and actor_id is not null
         and rule.to_permanent
         and ns.deletion_scheduled_at + pg_catalog.make_interval(days => cfg.deletion_adjourned_period_days) < pg_catalog.now() then
        code := 'NS007';
        message := 'the grace period for restoring this namespace is over';
        detail := pg_catalog.format('namespace_id=%s deletion_scheduled_at=%s deletion_adjourned_period_days=%s', namespace_id,
                                    ns.deletion_scheduled_at, cfg.deletion_adjourned_period_days);
        hint := 'The namespace will be deleted by the next sweep; it can no longer be restored.';
        return;
      end if;
      if lifecycle.state_deletion_adjourned(from_state) and lifecycle.state_operation(to_state) = 'hard_delete'
         and actor_id is not null and not cfg.delete_now_allowed then
        code := 'NS005';
        message := 'deleting before the grace period ends is disabled';
        detail := pg_catalog.format('namespace_id=%s delete_now_allowed=false', namespace_id);
        hint := 'Wait for the sweeper, or have an administrator set lifecycle.settings.delete_now_allowed.';
        return;
      end if;
    end if;
  end if;

  -- 3. The ancestor found above.
  if ancestor_id is not null then
    code := 'NS002';
    message := case when from_state is null
                 then pg_catalog.format('cannot create a namespace below %s: it is %s',
                                        lifecycle.namespace_full_path(ancestor_id), lifecycle.state_name(ancestor_state))
                 else pg_catalog.format('cannot change namespace state from %s to %s: ancestor %s is %s', rule.from_name,
                                        rule.to_name, lifecycle.namespace_full_path(ancestor_id), lifecycle.state_name(ancestor_state)) end;
    detail := pg_catalog.format('namespace_id=%s ancestor_id=%s ancestor_state=%s', namespace_id, ancestor_id,
                                lifecycle.state_name(ancestor_state));
    hint := pg_catalog.format('Change the state of %s first, or wait until its operation ends.',
                              lifecycle.namespace_full_path(ancestor_id));
    return;
  end if;

  -- 4. The descendant found above.
  if descendant_id is not null then
    code := 'NS003';
    message := pg_catalog.format('cannot change namespace state from %s to %s: descendant %s is %s', rule.from_name,
                                 rule.to_name, lifecycle.namespace_full_path(descendant_id), lifecycle.state_name(descendant_state));
    detail := pg_catalog.format('namespace_id=%s descendant_id=%s descendant_state=%s', namespace_id, descendant_id,
                                lifecycle.state_name(descendant_state));
    hint := pg_catalog.format('Wait until the operation on %s ends, or change its state first.',
                              lifecycle.namespace_full_path(descendant_id));
    return;
  end if;

  -- 5. Leaving a pending deletion makes the path live again: a live sibling must not hold it.
  --    (The gate holds the sibling-path lock while this runs.)
  if rule.from_pending and not rule.to_pending and from_state is not null then
    select n.id into hit_id
      from lifecycle.namespaces n
     where coalesce(n.parent_id, 0) = coalesce(ns.parent_id, 0) and n.path = ns.path
       and lifecycle.state_path_live(n.state) and n.id <> ns.id;
    if found then
      code := 'NS006';
      message := pg_catalog.format('path %s was taken while the namespace was scheduled for deletion',
                                   lifecycle.namespace_full_path(hit_id));
      detail := pg_catalog.format('namespace_id=%s path=%s taken_by_namespace_id=%s', namespace_id, ns.path, hit_id);
      hint := 'Rename or delete the namespace that took the path, then restore again; this one stays restorable until the grace period ends.';
      return;
    end if;
  end if;
end
$$;
