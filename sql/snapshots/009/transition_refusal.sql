-- Why a namespace may not go from from_state to to_state, or no row when it may. The one place the
-- matrix, authorization and guards are decided: the state gate raises what it returns, and
-- namespace_available_transitions reports it. Checks run cheapest first and the first refusal
-- wins: matrix (NS001), authorization (NS005, actor_refusal), the grace period of a restore by a
-- user (NS007), delete now when settings forbid it (NS005), ancestors (NS002), descendants (NS003),
-- and a restore into a path a live sibling took meanwhile (NS006).
--
-- from_state null is creation (the row is being inserted: no authorization, no descendants).
-- traversal_ids is the namespace's path, self included. Cost: O(depth) for the matrix, access
-- level and ancestors, plus the descendants in a forbidden state (namespaces_own_state_idx), never
-- a scan of the subtree. The caller holds the locks that make the answer stable (namespace_lock_path).
create or replace function lifecycle.transition_refusal(
  namespace_id bigint,
  traversal_ids bigint[],
  from_state smallint,
  to_state smallint,
  actor_id bigint
)
returns table (code text, message text, detail text, hint text)
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
as $$
#variable_conflict use_variable
declare
  depth int := pg_catalog.cardinality(traversal_ids);
  allowed boolean;
  required_level smallint;
  ancestor_forbidden smallint[];
  descendant_forbidden smallint[];
  from_name text;
  to_name text;
  to_permanent boolean;
  from_pending boolean;
  to_pending boolean;
  ns lifecycle.namespaces;
  cfg lifecycle.settings;
  hit_id bigint;
  hit_state smallint;
begin
  -- What the rule tables say of this pair, in one statement: is it in the matrix, the level it
  -- needs, the states its guards forbid above and below, and the two states' names and flags.
  select exists (select from lifecycle.state_transitions t
                  where t.from_state is not distinct from transition_refusal.from_state
                    and t.to_state = transition_refusal.to_state),
         p.min_access_level,
         array(select g.forbidden_state from lifecycle.transition_guards g
                where g.from_state is not distinct from transition_refusal.from_state
                  and g.to_state = transition_refusal.to_state and g.scope = 'ancestor'),
         array(select g.forbidden_state from lifecycle.transition_guards g
                where g.from_state is not distinct from transition_refusal.from_state
                  and g.to_state = transition_refusal.to_state and g.scope = 'descendant'),
         coalesce(f.name, '(new)'), ts.name, ts.permanent, coalesce(f.pending_deletion, false), ts.pending_deletion
    into allowed, required_level, ancestor_forbidden, descendant_forbidden, from_name, to_name, to_permanent,
         from_pending, to_pending
    from lifecycle.states ts
    left join lifecycle.states f on f.code = transition_refusal.from_state
    left join lifecycle.transition_policies p on p.to_state = ts.code
   where ts.code = transition_refusal.to_state;

  -- 1. The matrix.
  if not coalesce(allowed, false) then
    code := 'NS001';
    message := case when from_state is null
                 then pg_catalog.format('a namespace cannot be created as %s', to_name)
                 else pg_catalog.format('cannot change namespace state from %s to %s', from_name, to_name) end;
    detail := pg_catalog.format('namespace_id=%s from_state=%s to_state=%s', namespace_id, from_name, to_name);
    hint := coalesce(
      (select pg_catalog.format('From %s a namespace may go to: %s.', from_name,
                                pg_catalog.string_agg(s.name, ', ' order by s.code))
         from lifecycle.state_transitions t
         join lifecycle.states s on s.code = t.to_state
        where t.from_state is not distinct from transition_refusal.from_state),
      pg_catalog.format('No transition leaves %s.', from_name));
    return next;
    return;
  end if;

  -- 2. Authorization: the system (actor null) or an actor with the policy's access level.
  if from_state is not null then
    return query
      select * from lifecycle.actor_refusal(namespace_id, traversal_ids, actor_id, required_level,
               pg_catalog.format('move this namespace to %s', to_name));
    if found then
      return;
    end if;
    -- The row and the settings matter only when leaving a pending deletion (grace period, delete
    -- now, the path taken meanwhile).
    if from_pending then
      select * into ns from lifecycle.namespaces n where n.id = transition_refusal.namespace_id;
      select * into cfg from lifecycle.settings;
    end if;
  end if;

  -- Soft delete (docs/design.md §5). A user's restore ends with the grace period; the system (the sweeper
  -- restoring a namespace whose scheduler lost the right to delete it) may restore later.
  if from_state = 2 and actor_id is not null
     and to_permanent
     and ns.deletion_scheduled_at + pg_catalog.make_interval(days => cfg.deletion_adjourned_period_days) < pg_catalog.now() then
    code := 'NS007';
    message := 'the grace period for restoring this namespace is over';
    detail := pg_catalog.format('namespace_id=%s deletion_scheduled_at=%s deletion_adjourned_period_days=%s', namespace_id,
                                ns.deletion_scheduled_at, cfg.deletion_adjourned_period_days);
    hint := 'The namespace will be deleted by the next sweep; it can no longer be restored.';
    return next;
    return;
  end if;
  if from_state = 2 and to_state = 4 and actor_id is not null and not cfg.delete_now_allowed then
    code := 'NS005';
    message := 'deleting before the grace period ends is disabled';
    detail := pg_catalog.format('namespace_id=%s delete_now_allowed=false', namespace_id);
    hint := 'Wait for the sweeper, or have an administrator set lifecycle.settings.delete_now_allowed.';
    return next;
    return;
  end if;

  -- 3. No ancestor, at any depth, may have a forbidden own state; report the nearest.
  hit_id := null;
  -- The ancestors by primary key, then their states: the fence (offset 0) keeps the state test
  -- out of the index choice. With it inside, a plan could scan namespaces_own_state_idx for every
  -- row in those states and pick the ancestors out, a cost that grows with the number of stateful
  -- namespaces (quadratic in one statement that archives many of them).
  if pg_catalog.cardinality(ancestor_forbidden) > 0 and depth > 1 then
    select a.id, a.state into hit_id, hit_state
      from (select n.id, n.state, pg_catalog.cardinality(n.traversal_ids) as level
              from lifecycle.namespaces n
             where n.id = any (traversal_ids[1:depth - 1])
            offset 0) a
     where a.state = any (ancestor_forbidden)
     order by a.level desc
     limit 1;
  end if;
  if hit_id is not null then
    code := 'NS002';
    message := case when from_state is null
                 then pg_catalog.format('cannot create a namespace below %s: it is %s',
                                        lifecycle.namespace_full_path(hit_id), lifecycle.state_name(hit_state))
                 else pg_catalog.format('cannot change namespace state from %s to %s: ancestor %s is %s', from_name,
                                        to_name, lifecycle.namespace_full_path(hit_id), lifecycle.state_name(hit_state)) end;
    detail := pg_catalog.format('namespace_id=%s ancestor_id=%s ancestor_state=%s', namespace_id, hit_id,
                                lifecycle.state_name(hit_state));
    hint := pg_catalog.format('Change the state of %s first, or wait until its operation ends.',
                              lifecycle.namespace_full_path(hit_id));
    return next;
    return;
  end if;

  -- 4. No descendant, at any depth, may have a forbidden own state.
  if from_state is not null then
    if pg_catalog.cardinality(descendant_forbidden) > 0 then
      -- Descendants of X sort after X and before X with its last element + 1.
      select d.id, d.state into hit_id, hit_state
        from lifecycle.namespaces d
       where d.state <> 0
         and d.state = any (descendant_forbidden)
         and d.traversal_ids > traversal_ids
         and d.traversal_ids < traversal_ids[1:depth - 1] || (traversal_ids[depth] + 1)
       limit 1;
      if found then
        code := 'NS003';
        message := pg_catalog.format('cannot change namespace state from %s to %s: descendant %s is %s', from_name,
                                     to_name, lifecycle.namespace_full_path(hit_id), lifecycle.state_name(hit_state));
        detail := pg_catalog.format('namespace_id=%s descendant_id=%s descendant_state=%s', namespace_id, hit_id,
                                    lifecycle.state_name(hit_state));
        hint := pg_catalog.format('Wait until the operation on %s ends, or change its state first.',
                                  lifecycle.namespace_full_path(hit_id));
        return next;
        return;
      end if;
    end if;

    -- 5. Leaving a pending deletion makes the path live again: a live sibling must not hold it.
    --    (The gate holds the sibling-path lock while this runs.)
    if from_pending and not to_pending then
      select n.id into hit_id
        from lifecycle.namespaces n
       where coalesce(n.parent_id, 0) = coalesce(ns.parent_id, 0) and n.path = ns.path
         and n.state <> 2 and n.state <> 4 and n.id <> ns.id;
      if found then
        code := 'NS006';
        message := pg_catalog.format('path %s was taken while the namespace was scheduled for deletion',
                                     lifecycle.namespace_full_path(hit_id));
        detail := pg_catalog.format('namespace_id=%s path=%s taken_by_namespace_id=%s', namespace_id, ns.path, hit_id);
        hint := 'Rename or delete the namespace that took the path, then restore again; this one stays restorable until the grace period ends.';
        return next;
        return;
      end if;
    end if;
  end if;
end
$$;
