-- FROZEN: the version migration 002 installs (and 003's down restores). Never edit; change the
-- live file under sql/functions or sql/triggers in a new migration instead.
-- Why a namespace may not go from from_state to to_state, or no row when it may. The one place the
-- matrix, authorization and guards are decided: the state gate raises what it returns, and
-- namespace_available_transitions reports it. Checks run cheapest first and the first refusal
-- wins: matrix (NS001), authorization (NS005), ancestors (NS002), descendants (NS003).
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
as $$
#variable_conflict use_variable
declare
  depth int := pg_catalog.cardinality(traversal_ids);
  from_name text := coalesce(lifecycle.state_name(from_state), '(new)');
  to_name text := lifecycle.state_name(to_state);
  required smallint;
  level smallint;
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
    if actor_id is null then
      if not lifecycle.caller_may_act_as_system() then
        code := 'NS005';
        message := 'only the system may change a namespace''s state without an actor';
        detail := pg_catalog.format('namespace_id=%s actor_id=null role=%s', namespace_id,
                    coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user));
        hint := 'Pass the acting user''s id as actor_id; actor_id null is reserved for members of lifecycle_worker.';
        return next;
        return;
      end if;
    else
      select p.min_access_level into required
        from lifecycle.transition_policies p
       where p.to_state = transition_refusal.to_state;
      required := coalesce(required, 50);
      level := lifecycle.namespace_access_level(traversal_ids, actor_id);
      if level < required then
        code := 'NS005';
        message := pg_catalog.format('user %s may not move this namespace to %s', actor_id, to_name);
        detail := pg_catalog.format('namespace_id=%s actor_id=%s access_level=%s required_access_level=%s',
                                    namespace_id, actor_id, level, required);
        hint := 'Ask an owner of the namespace or of one of its ancestors to do it, or to grant the required access level.';
        return next;
        return;
      end if;
    end if;
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
  end if;
end
$$;
