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
-- Planned afresh on every call: a plan cached while the table was small (a fresh database filled
-- by one large INSERT) would keep scanning the whole table for these id lists, making the INSERT
-- quadratic; a fresh plan sees the current size and takes the index.
set plan_cache_mode to force_custom_plan
as $$
#variable_conflict use_variable
declare
  depth int := pg_catalog.cardinality(traversal_ids);
  from_name text := coalesce(lifecycle.state_name(from_state), '(new)');
  to_name text := lifecycle.state_name(to_state);
  ns lifecycle.namespaces;
  cfg lifecycle.settings;
  forbidden smallint[];
  hit_id bigint;
  hit_state smallint;
begin
  -- 1. The matrix.
  if not exists (select from lifecycle.state_transitions t
                  where t.from_state is not distinct from transition_refusal.from_state
                    and t.to_state = transition_refusal.to_state) then
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
      select * from lifecycle.actor_refusal(namespace_id, traversal_ids, actor_id,
               (select p.min_access_level from lifecycle.transition_policies p where p.to_state = transition_refusal.to_state),
               pg_catalog.format('move this namespace to %s', to_name));
    if found then
      return;
    end if;
    select * into ns from lifecycle.namespaces n where n.id = transition_refusal.namespace_id;
    select * into cfg from lifecycle.settings;
  end if;

  -- Soft delete (docs/design.md §5). A user's restore ends with the grace period; the system (the sweeper
  -- restoring a namespace whose scheduler lost the right to delete it) may restore later.
  if from_state = 2 and actor_id is not null
     and (select s.permanent from lifecycle.states s where s.code = transition_refusal.to_state)
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
  select a.id, a.state into hit_id, hit_state
    from lifecycle.transition_guards g
    join lifecycle.namespaces a on a.state = g.forbidden_state
   where g.from_state is not distinct from transition_refusal.from_state
     and g.to_state = transition_refusal.to_state
     and g.scope = 'ancestor'
     and a.id = any (traversal_ids[1:depth - 1])
   order by pg_catalog.cardinality(a.traversal_ids) desc
   limit 1;
  if found then
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
    forbidden := array(select g.forbidden_state
                         from lifecycle.transition_guards g
                        where g.from_state = transition_refusal.from_state
                          and g.to_state = transition_refusal.to_state
                          and g.scope = 'descendant');
    if pg_catalog.cardinality(forbidden) > 0 then
      -- Descendants of X sort after X and before X with its last element + 1.
      select d.id, d.state into hit_id, hit_state
        from lifecycle.namespaces d
       where d.state <> 0
         and d.state = any (forbidden)
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
    if (select s.pending_deletion from lifecycle.states s where s.code = transition_refusal.from_state)
       and not (select s.pending_deletion from lifecycle.states s where s.code = transition_refusal.to_state) then
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
