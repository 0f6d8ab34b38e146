--
-- PostgreSQL database dump
--

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: lifecycle; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA lifecycle;

--
-- Name: event_rule; Type: TYPE; Schema: lifecycle; Owner: -
--

CREATE TYPE lifecycle.event_rule AS (
	target_state smallint,
	target_key text,
	from_states smallint[]
);

--
-- Name: TYPE event_rule; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TYPE lifecycle.event_rule IS 'What the rule tables say of an event: its target state, the metadata key that may send it back to where it was, and the states it applies from.';

--
-- Name: state_change; Type: TYPE; Schema: lifecycle; Owner: -
--

CREATE TYPE lifecycle.state_change AS (
	namespace_id bigint,
	from_state text,
	to_state text,
	effective_state text,
	changed boolean
);

--
-- Name: TYPE state_change; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TYPE lifecycle.state_change IS 'What a state change answers: the namespace, its state before and after, its effective state after, and whether anything changed.';

--
-- Name: transition_rule; Type: TYPE; Schema: lifecycle; Owner: -
--

CREATE TYPE lifecycle.transition_rule AS (
	allowed boolean,
	min_access_level smallint,
	ancestor_forbidden smallint[],
	descendant_forbidden smallint[],
	from_name text,
	to_name text,
	to_permanent boolean,
	from_pending boolean,
	to_pending boolean,
	from_operation text
);

--
-- Name: TYPE transition_rule; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TYPE lifecycle.transition_rule IS 'What the rule tables say of a change between two states: in the matrix or not, the access level it needs, the states its guards forbid an ancestor and a descendant, and the two states'' names and flags.';

--
-- Name: actor_refusal(bigint, bigint[], bigint, smallint, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.actor_refusal(namespace_id bigint, traversal_ids bigint[], actor_id bigint, required_level smallint, action text) RETURNS TABLE(code text, message text, detail text, hint text)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
#variable_conflict use_variable
declare
  level smallint;
begin
  if actor_id is null then
    if not lifecycle.caller_may_act_as_system() then
      code := 'NS005';
      message := pg_catalog.format('only the system may %s without an actor', action);
      detail := pg_catalog.format('namespace_id=%s actor_id=null role=%s', namespace_id,
                  coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user));
      hint := 'Pass the acting user''s id as actor_id; actor_id null is reserved for members of lifecycle_worker.';
      return next;
    end if;
    return;
  end if;
  level := lifecycle.namespace_access_level(traversal_ids, actor_id);
  if level < coalesce(required_level, 50) then
    code := 'NS005';
    message := pg_catalog.format('user %s may not %s', actor_id, action);
    detail := pg_catalog.format('namespace_id=%s actor_id=%s access_level=%s required_access_level=%s',
                                namespace_id, actor_id, level, coalesce(required_level, 50));
    hint := 'Ask an owner of the namespace or of one of its ancestors to do it, or to grant the required access level.';
    return next;
  end if;
end
$$;

--
-- Name: caller_may_act_as_system(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.caller_may_act_as_system() RETURNS boolean
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
begin
  return coalesce(
    (select r.rolsuper or pg_catalog.pg_has_role(r.oid, 'lifecycle_worker', 'MEMBER')
       from pg_catalog.pg_roles r
      where r.rolname = coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user)),
    false);
end
$$;

--
-- Name: character_refusal(text, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.character_refusal(what text, value text) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN CASE WHEN (value ~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'::text) THEN format('%s contains U+%s, a control or bidirectional formatting character'::text, what, upper(lpad(to_hex(ascii("substring"(value, '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'::text))), 4, '0'::text))) ELSE NULL::text END;

--
-- Name: check_invariants(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.check_invariants() RETURNS TABLE(namespace_id bigint, invariant text, reason text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select n.id, 'transfer_below_pending_operation',
         pg_catalog.format('%s is transfer_in_progress below %s, which is %s', lifecycle.namespace_full_path(n.id),
                           lifecycle.namespace_full_path(a.id), lifecycle.state_name(a.state))
    from lifecycle.namespaces n
    join lifecycle.namespaces a on a.id = any (n.traversal_ids[1:pg_catalog.cardinality(n.traversal_ids) - 1])
   where lifecycle.state_operation(n.state) = 'transfer'
     and (not lifecycle.state_path_live(a.state) or lifecycle.state_operation(a.state) is not null)
  union all
  select n.id, 'traversal_ids_inconsistent',
         pg_catalog.format('traversal_ids %s, parent %s has %s', n.traversal_ids, n.parent_id, p.traversal_ids)
    from lifecycle.namespaces n
    left join lifecycle.namespaces p on p.id = n.parent_id
   where n.traversal_ids is distinct from coalesce(p.traversal_ids, '{}') || n.id
  union all
  select n.id, 'details_missing', 'no lifecycle.namespace_details row'
    from lifecycle.namespaces n
   where not exists (select from lifecycle.namespace_details d where d.namespace_id = n.id)
  union all
  select n.id, 'live_path_clash',
         pg_catalog.format('path %s is held by %s live siblings', n.path, c.holders)
    from lifecycle.namespaces n
    join (select coalesce(x.parent_id, 0) as parent, x.path, count(*) as holders
            from lifecycle.namespaces x where lifecycle.state_path_live(x.state)
           group by 1, 2 having count(*) > 1) c
      on c.parent = coalesce(n.parent_id, 0) and c.path = n.path and lifecycle.state_path_live(n.state)
  union all
  select n.id, 'history_count_mismatch',
         pg_catalog.format('%s state changes counted, %s history rows', n.state_changes, coalesce(h.rows, 0))
    from lifecycle.namespaces n
    left join (select u.namespace_id, count(*) as rows from lifecycle.namespace_state_updates u group by 1) h
      on h.namespace_id = n.id
   where n.state_changes <> coalesce(h.rows, 0)
  union all
  select n.id, 'state_without_history',
         case when last.to_state is null
           then pg_catalog.format('state %s without any history row, and not an initial state', lifecycle.state_name(n.state))
           else pg_catalog.format('state %s, but the last history row led to %s', lifecycle.state_name(n.state),
                                  lifecycle.state_name(last.to_state)) end
    from lifecycle.namespaces n
    left join lateral (select u.to_state from lifecycle.namespace_state_updates u
                        where u.namespace_id = n.id order by u.id desc limit 1) last on true
   where (last.to_state is not null and last.to_state <> n.state)
      or (last.to_state is null and not exists (select from lifecycle.state_transitions t
                                                 where t.from_state is null and t.to_state = n.state))
  union all
  select c.namespace_id, 'history_chain_broken',
         pg_catalog.format('history row %s goes from %s, but the row before it led to %s', c.id,
                           lifecycle.state_name(c.from_state), lifecycle.state_name(c.previous_to))
    from (select u.id, u.namespace_id, u.from_state,
                 pg_catalog.lag(u.to_state) over (partition by u.namespace_id order by u.id) as previous_to
            from lifecycle.namespace_state_updates u) c
   where c.previous_to is not null and c.previous_to <> c.from_state
  union all
  select n.id, 'in_progress_without_operation',
         pg_catalog.format('%s is %s, but no accepted transfer request moves it', lifecycle.namespace_full_path(n.id), s.name)
    from lifecycle.namespaces n
    join lifecycle.states s on s.code = n.state
   where s.operation = 'transfer'
     and not exists (select from lifecycle.transfer_requests r where r.namespace_id = n.id and r.status = 'accepted')
  union all
  select r.namespace_id, 'accepted_request_without_transfer',
         pg_catalog.format('transfer request %s is accepted, but %s is %s', r.id, lifecycle.namespace_full_path(n.id), s.name)
    from lifecycle.transfer_requests r
    join lifecycle.namespaces n on n.id = r.namespace_id
    join lifecycle.states s on s.code = n.state
   where r.status = 'accepted' and s.operation is distinct from 'transfer'
$$;

--
-- Name: FUNCTION check_invariants(); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.check_invariants() IS 'Every violation of the lifecycle invariants (empty when consistent); reads every row.';

--
-- Name: deleted_namespaces_facts(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.deleted_namespaces_facts() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform lifecycle.fact_emit('hard_deleted', new.namespace_id, new.traversal_ids, new.full_path, null,
    pg_catalog.jsonb_build_object('type', new.type, 'parent_id', new.parent_id,
                                  'deletion_scheduled_by', new.deletion_scheduled_by,
                                  'deletion_scheduled_at', new.deletion_scheduled_at,
                                  'descendant_count', new.descendant_count));
  return null;
end
$$;

--
-- Name: effective_states_apply(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.effective_states_apply(OUT facts integer, OUT written bigint) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET jit TO 'off'
    AS $$
declare
  taken jsonb[];
  whole boolean;
  roots bigint[];
  imported record;
  n bigint;
begin
  -- One writer at a time (the syncer's update, a rebuild, a DELETE of namespaces: step 6 of the
  -- global lock order, namespace_lock_path): each statement below reads the tree after the lock,
  -- so no row is written from a tree older than another writer's, and no two updates take the
  -- same pending rows. Readers are not blocked. A row of lifecycle.lock_rows, not a lock on the
  -- table: any role that may read the table may hold a lock on it (PREPARE of an INSERT takes ROW
  -- EXCLUSIVE before privileges are checked).
  perform 1 from lifecycle.lock_rows l where l.name = 'effective_states' for update;
  with p as (
    delete from lifecycle.effective_states_pending p returning p.audit_event_id
  ), o as (
    -- Facts being recorded right now are skipped (SKIP LOCKED): their recording leaves them pending.
    update lifecycle.facts f set applied = true
     where f.id in (select u.id from lifecycle.facts u where not u.applied for update skip locked)
    returning f.action, f.namespace_id, f.details
  ), f as (
    select a.action, a.namespace_id, a.details, p.audit_event_id is null as whole
      from p
      left join lifecycle.audit_events a on a.id = p.audit_event_id
    union all
    select o.action, o.namespace_id, o.details, false from o
  )
  select pg_catalog.count(*), pg_catalog.bool_or(f.whole),
         pg_catalog.array_agg(pg_catalog.jsonb_build_object('action', f.action, 'namespace_id', f.namespace_id,
                                                            'details', f.details))
           filter (where f.action is not null)
    into facts, whole, taken
    from f;
  written := 0;
  if facts = 0 then
    return;
  end if;
  if whole or exists (select from pg_catalog.unnest(taken) f
                       where (f ->> 'action' = 'table_truncated' and f -> 'details' -> 'tables' ? 'lifecycle.namespaces')
                          or (f ->> 'action' = 'namespaces_imported' and (f -> 'details' ->> 'backfill')::boolean)) then
    perform lifecycle.effective_states_refresh();
    written := -1;
    return;
  end if;

  -- The namespaces whose subtree may read otherwise now: any change of state (a history row's
  -- fact: the action its transition names, with from_state and to_state), a creation, a rename, a
  -- finished move.
  select pg_catalog.array_agg(distinct (f ->> 'namespace_id')::bigint) into roots
    from pg_catalog.unnest(taken) f
   where f ->> 'namespace_id' is not null
     and (f ->> 'action' in ('namespace_created', 'renamed', 'transfer_completed')
          or f -> 'details' ? 'to_state'
          or f ->> 'action' in (select t.audit_action from lifecycle.state_transitions t));
  written := lifecycle.effective_states_write(roots);

  -- Namespaces an import batch wrote: the ids of its range that have no row yet.
  for imported in select (f -> 'details' ->> 'first_id')::bigint as first_id, (f -> 'details' ->> 'last_id')::bigint as last_id
                    from pg_catalog.unnest(taken) f
                   where f ->> 'action' = 'namespaces_imported' and f -> 'details' ? 'first_id' loop
    insert into lifecycle.effective_states
    select n.id, s.state, s.effective_state, s.inherited_from_namespace_id, s.self_or_ancestor_archived,
           s.self_or_ancestor_deletion_scheduled, s.read_only, lifecycle.namespace_full_path(n.id)
      from lifecycle.namespaces n
     cross join lateral lifecycle.namespace_effective_state(n.id) s
     where n.id between imported.first_id and imported.last_id
       and not exists (select from lifecycle.effective_states e where e.namespace_id = n.id)
    on conflict (namespace_id) do nothing;
    get diagnostics n = row_count;
    written := written + n;
  end loop;
end
$$;

--
-- Name: effective_states_refresh(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.effective_states_refresh() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET jit TO 'off'
    AS $$
begin
  -- One writer at a time, as in effective_states_apply (whose lock this is).
  perform 1 from lifecycle.lock_rows l where l.name = 'effective_states' for update;
  -- Every root's subtree, as effective_states_apply writes one (the one writer of the rows);
  -- effective_states_computed, the recursive definition, stays the independent reference that
  -- effective_states_verify compares with.
  perform lifecycle.effective_states_write(array(select n.id from lifecycle.namespaces n where n.parent_id is null));
  delete from lifecycle.effective_states e
   where not exists (select from lifecycle.namespaces n where n.id = e.namespace_id);
end
$$;

--
-- Name: effective_states_verify(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.effective_states_verify() RETURNS TABLE(namespace_id bigint, problem text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select coalesce(c.namespace_id, e.namespace_id),
         case when e.namespace_id is null then 'missing'
              when c.namespace_id is null then 'extra: the namespace is gone'
              else pg_catalog.format('kept %s, computed %s', e, c) end
    from lifecycle.effective_states_computed c
    full join lifecycle.effective_states e on e.namespace_id = c.namespace_id
   where e.namespace_id is null or c.namespace_id is null
      or (e.state, e.effective_state, e.inherited_from_namespace_id, e.self_or_ancestor_archived,
          e.self_or_ancestor_deletion_scheduled, e.read_only, e.full_path)
         is distinct from
         (c.state, c.effective_state, c.inherited_from_namespace_id, c.self_or_ancestor_archived,
          c.self_or_ancestor_deletion_scheduled, c.read_only, c.full_path)
   order by 1
$$;

--
-- Name: FUNCTION effective_states_verify(); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.effective_states_verify() IS 'Every row of lifecycle.effective_states that differs from the recursive definition (empty when right).';

--
-- Name: effective_states_write(bigint[]); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.effective_states_write(roots bigint[]) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET jit TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
declare
  written bigint;
begin
  if pg_catalog.cardinality(roots) = 0 then
    return 0;
  end if;
  insert into lifecycle.effective_states
  select b.*
    from lifecycle.namespace_effective_states_below_any(roots) b
    left join lateral (select o.* from lifecycle.effective_states o where o.namespace_id = b.namespace_id offset 0) o on true
   where o.namespace_id is null
      or (o.state, o.effective_state, o.inherited_from_namespace_id, o.self_or_ancestor_archived,
          o.self_or_ancestor_deletion_scheduled, o.read_only, o.full_path)
         is distinct from
         (b.state, b.effective_state, b.inherited_from_namespace_id, b.self_or_ancestor_archived,
          b.self_or_ancestor_deletion_scheduled, b.read_only, b.full_path)
  on conflict (namespace_id) do update
     set state = excluded.state, effective_state = excluded.effective_state,
         inherited_from_namespace_id = excluded.inherited_from_namespace_id,
         self_or_ancestor_archived = excluded.self_or_ancestor_archived,
         self_or_ancestor_deletion_scheduled = excluded.self_or_ancestor_deletion_scheduled,
         read_only = excluded.read_only, full_path = excluded.full_path;
  get diagnostics written = row_count;
  return written;
end
$$;

--
-- Name: event_rule(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.event_rule(event text) RETURNS lifecycle.event_rule
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    SET search_path TO ''
    AS $$ begin return case event
    when 'archive' then '(1,,{0})'::lifecycle.event_rule
    when 'creation_done' then '(0,,{3})'::lifecycle.event_rule
    when 'deletion_failed' then '(2,previous_state,{4})'::lifecycle.event_rule
    when 'deletion_start' then '(4,,"{2,3}")'::lifecycle.event_rule
    when 'maintain' then '(6,,{0})'::lifecycle.event_rule
    when 'restore' then '(0,preserved_state,{2})'::lifecycle.event_rule
    when 'schedule_deletion' then '(2,,"{0,1}")'::lifecycle.event_rule
    when 'transfer_done' then '(0,preserved_state,{5})'::lifecycle.event_rule
    when 'transfer_start' then '(5,,"{0,1}")'::lifecycle.event_rule
    when 'unarchive' then '(0,,{1})'::lifecycle.event_rule
    when 'unmaintain' then '(0,preserved_state,{6})'::lifecycle.event_rule
    end; end $$;

--
-- Name: FUNCTION event_rule(event text); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.event_rule(event text) IS 'An event''s target state, the metadata key that may send it back to where it was, and the states it applies from, null for an unknown event: a digest of lifecycle.events and event_sources rewritten by their trigger transition_rules_digest, never by hand.';

--
-- Name: fact_emit(text, bigint, bigint[], text, bigint, jsonb); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.fact_emit(action text, namespace_id bigint, traversal_ids bigint[], full_path text, actor_id bigint, details jsonb) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into lifecycle.facts (action, namespace_id, traversal_ids, full_path, actor_id, details)
  values (action, namespace_id, traversal_ids, full_path, actor_id, coalesce(details, '{}'));
end
$$;

--
-- Name: fact_mac(jsonb); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.fact_mac(fact jsonb) RETURNS text
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  return (select pg_catalog.encode(lifecycle.hmac_sha256(pg_catalog.convert_to(fact::text, 'UTF8'), k.key), 'hex')
            from lifecycle.fact_key k);
end
$$;

--
-- Name: fact_message_adopt(jsonb, timestamp with time zone); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.fact_message_adopt(fact jsonb, committed_at timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
#variable_conflict use_variable
declare
  body jsonb := fact - 'mac';
  id bigint;
begin
  if lifecycle.fact_refusal(fact) is not null then
    return null;
  end if;
  if (fact ->> 'mac') is distinct from lifecycle.fact_mac(body)
     and not exists (select from lifecycle.fact_key k
                      where committed_at < k.legacy_mac_until
                        and (fact ->> 'mac') = pg_catalog.encode(pg_catalog.sha256(k.key || pg_catalog.sha256(
                              k.key || pg_catalog.convert_to(body::text, 'UTF8'))), 'hex')) then
    return null;
  end if;
  -- Integers have scale 0 (fact_refusal), so their text casts to bigint.
  insert into lifecycle.facts (action, namespace_id, traversal_ids, full_path, actor_id, details, written_at)
  values (body ->> 'action', (body ->> 'namespace_id')::bigint,
          array(select pg_catalog.jsonb_array_elements_text(body -> 'traversal_ids')::bigint),
          body ->> 'full_path', (body ->> 'actor_id')::bigint, coalesce(body -> 'details', '{}'),
          coalesce((body ->> 'occurred_at')::timestamptz, committed_at))
  returning lifecycle.facts.id into id;
  return id;
end
$$;

--
-- Name: fact_refusal(jsonb); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.fact_refusal(fact jsonb) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO ''
    AS $$
declare
  k text;
  v jsonb;
begin
  if pg_catalog.jsonb_typeof(fact) is distinct from 'object' then
    return pg_catalog.format('the fact is %s, not an object', coalesce(pg_catalog.jsonb_typeof(fact), 'missing'));
  end if;
  v := fact -> 'action';
  if pg_catalog.jsonb_typeof(v) is distinct from 'string' then
    return pg_catalog.format('action is %s, not a string', coalesce(pg_catalog.jsonb_typeof(v), 'missing'));
  end if;
  if pg_catalog.octet_length(fact ->> 'action') not between 1 and 128 then
    return pg_catalog.format('action is %s bytes long, not 1 to 128', pg_catalog.octet_length(fact ->> 'action'));
  end if;
  foreach k in array array['namespace_id', 'actor_id'] loop
    v := fact -> k;
    -- CASE: a string must not reach the numeric cast.
    if v is not null and pg_catalog.jsonb_typeof(v) <> 'null'
       and not (case when pg_catalog.jsonb_typeof(v) = 'number'
                     then pg_catalog.scale(v::numeric) = 0 and v::numeric between -9223372036854775808 and 9223372036854775807
                     else false end) then
      return pg_catalog.format('%s is not an integer (bigint) or null', k);
    end if;
  end loop;
  v := fact -> 'traversal_ids';
  if v is not null and (pg_catalog.jsonb_typeof(v) <> 'array'
       or exists (select from pg_catalog.jsonb_array_elements(v) e
                   where not (case when pg_catalog.jsonb_typeof(e.value) = 'number'
                                   then pg_catalog.scale(e.value::numeric) = 0
                                        and e.value::numeric between -9223372036854775808 and 9223372036854775807
                                   else false end))) then
    return 'traversal_ids is not an array of integers (bigint)';
  end if;
  v := fact -> 'full_path';
  if v is not null and pg_catalog.jsonb_typeof(v) not in ('string', 'null') then
    return pg_catalog.format('full_path is %s, not a string or null', pg_catalog.jsonb_typeof(v));
  end if;
  v := fact -> 'details';
  if v is not null and pg_catalog.jsonb_typeof(v) <> 'object' then
    return pg_catalog.format('details is %s, not an object', pg_catalog.jsonb_typeof(v));
  end if;
  return null;
end
$$;

--
-- Name: facts_record(bigint[], pg_lsn[], integer[], timestamp with time zone[], bigint[]); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.facts_record(fact_ids bigint[], source_lsns pg_lsn[] DEFAULT NULL::pg_lsn[], source_positions integer[] DEFAULT NULL::integer[], committed_ats timestamp with time zone[] DEFAULT NULL::timestamp with time zone[], source_xids bigint[] DEFAULT NULL::bigint[]) RETURNS TABLE(fact_id bigint, audit_event_id bigint, action text, namespace_id bigint, actor_id bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET jit TO 'off'
    AS $$
#variable_conflict use_column
declare
  source_xid bigint;
  snap pg_snapshot;
  xmax bigint;
  waited_since timestamptz := pg_catalog.clock_timestamp();
  recorded int;
begin
  foreach source_xid in array coalesce(facts_record.source_xids, '{}') loop
    loop
      -- A fresh snapshot each time round (a volatile expression in a volatile function). The full
      -- transaction id is the one within 2^31 of the snapshot's xmax that ends in these 32 bits.
      snap := pg_catalog.pg_current_snapshot();
      xmax := pg_catalog.pg_snapshot_xmax(snap)::text::bigint;
      exit when pg_catalog.pg_visible_in_snapshot(
        (xmax + ((source_xid - (xmax & 4294967295) + 2147483648) % 4294967296 + 4294967296) % 4294967296 - 2147483648)::text::xid8,
        snap);
      if pg_catalog.clock_timestamp() - waited_since > interval '10 s' then
        -- Not a refusal: like a lock wait that timed out (55P03), running it again may succeed.
        raise exception using errcode = '55P03', message = 'source transaction not visible within 10 s',
          detail = pg_catalog.format('xid=%s snapshot=%s', source_xid, snap),
          hint = 'Pass the ids of transactions that have committed (from their logical decoding BEGIN message).';
      end if;
      perform pg_catalog.pg_sleep(0.001);
    end loop;
  end loop;

  return query
  with given as (
    select g.id, g.lsn, g.pos, g.committed_at
      from rows from (pg_catalog.unnest(facts_record.fact_ids), pg_catalog.unnest(facts_record.source_lsns),
                      pg_catalog.unnest(facts_record.source_positions), pg_catalog.unnest(facts_record.committed_ats))
           as g(id, lsn, pos, committed_at)
  ), taken as (
    delete from lifecycle.facts f where f.id = any (facts_record.fact_ids)
    returning f.id, f.action, f.namespace_id, f.traversal_ids, f.full_path, f.actor_id, f.details, f.written_at, f.applied
  ), numbered as (
    -- Each fact's audit row id, drawn in fact order before the rows are written: the fan-out
    -- below needs fact and audit row together, and joining the rows written back to the facts
    -- by their key would be planned on the estimates of CTEs (a nested loop, quadratic in a burst).
    select x.*, pg_catalog.nextval('lifecycle.audit_events_id_seq'::regclass) as audit_event_id
      from (select t.id, t.action, t.namespace_id, t.traversal_ids, t.full_path, t.actor_id, t.details, t.applied,
                   'fact/' || t.id as idempotency_key, coalesce(g.committed_at, t.written_at) as committed_at, g.lsn, g.pos
              from taken t
              left join given g on g.id = t.id
             order by t.id) x
  ), audited as (
    insert into lifecycle.audit_events (id, idempotency_key, source_lsn, source_position, committed_at, action, namespace_id,
                                        full_path, actor_id, details)
    overriding system value
    select n.audit_event_id, n.idempotency_key, n.lsn, n.pos, n.committed_at, n.action, n.namespace_id, n.full_path,
           n.actor_id, n.details
      from numbered n
  ), r as (
    select n.id as fact_id, n.audit_event_id, n.idempotency_key, n.committed_at, n.action, n.namespace_id,
           n.traversal_ids, n.full_path, n.actor_id, n.details, n.applied
      from numbered n
  ), notified as (
    insert into lifecycle.notifications (user_id, audit_event_id, namespace_id, action)
    select u.user_id, r.audit_event_id, r.namespace_id, r.action
      from r
     cross join lateral (select m.user_id from lifecycle.namespace_members m
                          where m.namespace_id = any (r.traversal_ids) and m.access_level = 50
                         union
                         select r.actor_id where r.actor_id is not null) u
    on conflict do nothing
  ), delivered as (
    insert into lifecycle.webhook_deliveries (webhook_id, audit_event_id, idempotency_key, body)
    select w.id, r.audit_event_id, r.idempotency_key || '/' || w.id,
           pg_catalog.jsonb_build_object('id', r.audit_event_id, 'idempotency_key', r.idempotency_key, 'action', r.action,
                                         'namespace_id', r.namespace_id, 'full_path', r.full_path, 'actor_id', r.actor_id,
                                         'details', r.details, 'committed_at', r.committed_at)
      from r
      join lifecycle.webhooks w
        on w.active and w.namespace_id = any (r.traversal_ids)
       and (pg_catalog.cardinality(w.actions) = 0 or r.action = any (w.actions))
  ), pending as (
    -- Every recorded fact no update has applied from the outbox yet: which ones matter to the
    -- table is decided by effective_states_apply.
    insert into lifecycle.effective_states_pending (audit_event_id)
    select r.audit_event_id from r where not r.applied
  )
  select r.fact_id, r.audit_event_id, r.action, r.namespace_id, r.actor_id from r order by r.fact_id;

  get diagnostics recorded = row_count;
  if recorded > 0 then
    -- Any login may LISTEN to any channel, granted a role of the schema or not, so the
    -- notification says only that something new was recorded: no id, action or namespace (an id
    -- alone would still count every tenant's activity). A listener reads lifecycle.audit_events,
    -- which only the product's roles may.
    perform pg_catalog.pg_notify('nslifecycle_audit', '');
  end if;
end
$$;

--
-- Name: facts_record_pending(integer, interval); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.facts_record_pending(max_facts integer, min_age interval DEFAULT '00:00:00'::interval) RETURNS TABLE(fact_id bigint, audit_event_id bigint, action text, namespace_id bigint, actor_id bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET jit TO 'off'
    AS $$
begin
  return query
  select r.fact_id, r.audit_event_id, r.action, r.namespace_id, r.actor_id
    from lifecycle.facts_record(array(
           select f.id from lifecycle.facts f
            where f.written_at <= pg_catalog.clock_timestamp() - min_age
            order by f.id
            limit max_facts
              for update skip locked)) r;
end
$$;

--
-- Name: facts_truncated(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.facts_truncated() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  perform lifecycle.fact_emit('table_truncated', null, null, null, null,
    pg_catalog.jsonb_build_object('tables', pg_catalog.jsonb_build_array(tg_table_schema || '.' || tg_table_name)));
  return null;
end
$$;

--
-- Name: hmac_sha256(bytea, bytea); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.hmac_sha256(data bytea, key bytea) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC
 SELECT lifecycle_pgcrypto.hmac(data, key, 'sha256'::text) AS hmac;
END;

--
-- Name: jsonb_schema_violation(jsonb, jsonb, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.jsonb_schema_violation(schema jsonb, doc jsonb, at text DEFAULT '$'::text) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $_$
declare
  -- The stack of (schema, document, path) still to check; a pending violation (an unknown key,
  -- reported when the walk reaches it) is an entry with its message.
  schemas jsonb[] := array[schema];
  docs jsonb[] := array[doc];
  ats text[] := array[at];
  pending text[] := array[null::text];
  depth int := 1;
  s jsonb;
  d jsonb;
  a text;
  doc_type text;
  types jsonb;
  k text;
  v jsonb;
  state_names text[];
begin
  while depth > 0 loop
    s := schemas[depth];
    d := docs[depth];
    a := ats[depth];
    if pending[depth] is not null then
      return pending[depth];
    end if;
    depth := depth - 1;
    doc_type := pg_catalog.jsonb_typeof(d);

    if s ? 'type' then
      types := case pg_catalog.jsonb_typeof(s -> 'type')
                 when 'array' then s -> 'type'
                 else pg_catalog.jsonb_build_array(s -> 'type') end;
      -- Any of the types (jsonb ? finds a string element of the array), an integer being a number
      -- without a fraction.
      if not coalesce(types ? doc_type
                      or (doc_type = 'number' and types ? 'integer'
                          and (d #>> '{}')::numeric = pg_catalog.trunc((d #>> '{}')::numeric)), false) then
        return pg_catalog.format('%s: expected %s, got %s', a, types #>> '{}', doc_type);
      end if;
    end if;

    if s ? 'enum' and not (s -> 'enum') @> pg_catalog.jsonb_build_array(d) then
      return pg_catalog.format('%s: %s is not one of %s', a, d, s -> 'enum');
    end if;

    case doc_type
    when 'string' then
      if s ? 'maxLength' and pg_catalog.length(d #>> '{}') > (s ->> 'maxLength')::int then
        return pg_catalog.format('%s: longer than %s characters', a, s ->> 'maxLength');
      end if;
      if s ->> 'format' = 'date-time'
         and (d #>> '{}') !~ '^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)$' then
        return pg_catalog.format('%s: %s is not an RFC 3339 date-time', a, d);
      end if;
      if s ->> 'format' = 'lifecycle-state' then
        -- The state names, read once per document.
        if state_names is null then
          state_names := array(select st.name from lifecycle.states st);
        end if;
        if not (d #>> '{}' = any (state_names)) then
          return pg_catalog.format('%s: %s is not a state name', a, d);
        end if;
      end if;
    when 'number' then
      if s ? 'minimum' and (d #>> '{}')::numeric < (s ->> 'minimum')::numeric then
        return pg_catalog.format('%s: less than %s', a, s ->> 'minimum');
      end if;
    when 'object' then
      if s ? 'required' then
        for k in select pg_catalog.jsonb_array_elements_text(s -> 'required') loop
          if not d ? k then
            return pg_catalog.format('%s: missing key %s', a, k);
          end if;
        end loop;
      end if;
      -- The properties go on the stack last key first, so they come off it in key order.
      for k, v in select e.key, e.value from pg_catalog.jsonb_each(d) e order by e.key desc loop
        if s -> 'properties' ? k then
          depth := depth + 1;
          schemas[depth] := s -> 'properties' -> k;
          docs[depth] := v;
          ats[depth] := a || '.' || k;
          pending[depth] := null;
        elsif s -> 'additionalProperties' = 'false'::jsonb then
          depth := depth + 1;
          pending[depth] := pg_catalog.format('%s: unknown key %s', a, k);
        end if;
      end loop;
    else
      null;
    end case;
  end loop;
  return null;
end
$_$;

--
-- Name: legacy_bridge_add(regclass, name, text, name, name, name, text[], bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_add(source regclass, namespace_column name, state text, when_column name DEFAULT NULL::name, at_column name DEFAULT NULL::name, by_column name DEFAULT NULL::name, namespace_types text[] DEFAULT NULL::text[], actor_id bigint DEFAULT NULL::bigint) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
#variable_conflict use_variable
declare
  rel pg_catalog.pg_class;
  owner_role name;
  code smallint;
  ns_att smallint;
  when_att smallint;
  at_att smallint;
  by_att smallint;
  kind text;
  bridge_id bigint;
  missing text;
begin
  if source is null or namespace_column is null or state is null then
    raise exception using errcode = 'NS010', message = 'source, namespace_column and state are required',
      hint = 'lifecycle.legacy_bridge_add(''schema.table''::regclass, ''namespace_id_column'', ''archived'', ''flag_column'')';
  end if;
  select * into rel from pg_catalog.pg_class c where c.oid = source;
  if rel.relkind not in ('r', 'p') or rel.relnamespace = 'lifecycle'::regnamespace then
    raise exception using errcode = 'NS010', message = pg_catalog.format('%s is not a table of the application', source),
      detail = pg_catalog.format('source=%s relkind=%s', source, rel.relkind),
      hint = 'Bridge an ordinary (or partitioned) table outside schema lifecycle.';
  end if;
  code := case state when 'archived' then 1 when 'deletion_scheduled' then 2 when 'deletion_in_progress' then 4
                     when 'maintenance' then 6 end;
  if code is null then
    raise exception using errcode = 'NS010', message = pg_catalog.format('state %L cannot be bridged', state),
      detail = pg_catalog.format('state=%s', state),
      hint = 'Bridge archived, deletion_scheduled, deletion_in_progress or maintenance.';
  end if;
  if namespace_types is not null and not namespace_types <@ array['organization', 'group', 'project', 'user'] then
    raise exception using errcode = 'NS010', message = 'unknown namespace type in namespace_types',
      detail = pg_catalog.format('namespace_types=%s', namespace_types),
      hint = 'Use organization, group, project or user.';
  end if;

  -- Each column: it exists (not dropped), with a type the bridge can read and write.
  ns_att := lifecycle.legacy_bridge_attnum(source, namespace_column, array['int2', 'int4', 'int8']::regtype[],
                                           'namespace_column', 'integer');
  if when_column is null then
    kind := 'exists';
  else
    when_att := lifecycle.legacy_bridge_attnum(source, when_column,
                                               array['bool', 'timestamptz', 'timestamp', 'date']::regtype[],
                                               'when_column', 'boolean, date or time');
    kind := case when (select a.atttypid from pg_catalog.pg_attribute a
                        where a.attrelid = source and a.attnum = when_att) = 'bool'::regtype then 'flag' else 'value' end;
  end if;
  if at_column is not null then
    at_att := lifecycle.legacy_bridge_attnum(source, at_column, array['timestamptz', 'timestamp', 'date']::regtype[],
                                             'at_column', 'date or time');
  end if;
  if by_column is not null then
    by_att := lifecycle.legacy_bridge_attnum(source, by_column, array['int2', 'int4', 'int8']::regtype[], 'by_column', 'integer');
  end if;
  -- An existence bridge inserts rows: every other required column needs a default.
  if kind = 'exists' then
    select pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ') into missing
      from pg_catalog.pg_attribute a
     where a.attrelid = source and a.attnum > 0 and not a.attisdropped and a.attnotnull and not a.atthasdef
       and a.attidentity = '' and a.attgenerated = ''
       and a.attnum not in (ns_att, coalesce(at_att, 0), coalesce(by_att, 0));
    if missing is not null then
      raise exception using errcode = 'NS010', message = pg_catalog.format('rows of %s cannot be inserted by the bridge', source),
        detail = pg_catalog.format('source=%s required columns without a default: %s', source, missing),
        hint = 'Give those columns defaults, or bridge at_column/by_column to them.';
    end if;
  end if;
  -- The bridge's triggers run as the schema's owner, who writes the source table.
  select r.rolname into owner_role from pg_catalog.pg_proc p join pg_catalog.pg_roles r on r.oid = p.proowner
   where p.oid = 'lifecycle.legacy_bridge_state()'::regprocedure;
  if not pg_catalog.has_table_privilege(owner_role, source, 'SELECT, INSERT, UPDATE, DELETE') then
    raise exception using errcode = 'NS005', message = pg_catalog.format('the lifecycle schema''s owner %s cannot write %s', owner_role, source),
      detail = pg_catalog.format('source=%s owner=%s', source, owner_role),
      hint = pg_catalog.format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO %I;', source, owner_role);
  end if;
  if exists (select from lifecycle.legacy_bridges b where b.source = legacy_bridge_add.source and b.state = code) then
    raise exception using errcode = 'NS010', message = pg_catalog.format('%s is bridged to %s already', source, state),
      detail = pg_catalog.format('source=%s state=%s', source, state),
      hint = 'Drop the bridge first (lifecycle.legacy_bridge_drop) to change it.';
  end if;

  insert into lifecycle.legacy_bridges (source, state, kind, namespace_attnum, when_attnum, at_attnum, by_attnum, namespace_types,
                                        actor_id)
  values (source, code, kind, ns_att, when_att, at_att, by_att, namespace_types, actor_id)
  returning id into bridge_id;

  -- Legacy → state: the source's rows (one trigger per source, whatever its bridges).
  if not exists (select from pg_catalog.pg_trigger t where t.tgrelid = source and t.tgname = 'lifecycle_legacy_bridge') then
    execute pg_catalog.format(
      'create trigger lifecycle_legacy_bridge after insert or update or delete on %s '
      'for each row execute function lifecycle.legacy_bridge_source()', source);
  end if;
  -- State → legacy: after the state record (3) and the facts (4), so the details row is current.
  if not exists (select from pg_catalog.pg_trigger t
                  where t.tgrelid = 'lifecycle.namespaces'::regclass and t.tgname = 'namespaces_5_legacy_bridge') then
    create trigger namespaces_5_legacy_bridge
      after update of state on lifecycle.namespaces
      for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
      execute function lifecycle.legacy_bridge_state();
  end if;
  return bridge_id;
end
$$;

--
-- Name: FUNCTION legacy_bridge_add(source regclass, namespace_column name, state text, when_column name, at_column name, by_column name, namespace_types text[], actor_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.legacy_bridge_add(source regclass, namespace_column name, state text, when_column name, at_column name, by_column name, namespace_types text[], actor_id bigint) IS 'Bridge a legacy flag, column or table to a state, both ways, in the same transaction as each change; returns the bridge id.';

--
-- Name: legacy_bridge_apply(smallint, bigint, timestamp with time zone, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_apply(bridged smallint, ns_id bigint, at timestamp with time zone, actor bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  ns lifecycle.namespaces;
  preserved text;
  legacy boolean;
  refusal record;
  caller name;
begin
  select * into ns from lifecycle.namespaces n where n.id = ns_id;
  if not found then
    return;
  end if;
  select d.state_metadata ->> 'preserved_state' into preserved from lifecycle.namespace_details d where d.namespace_id = ns_id;
  select bool_or(lifecycle.legacy_bridge_holds(b, ns.id, ns.type)) into legacy
    from lifecycle.legacy_bridges b
   where b.state = bridged;
  if legacy is null or legacy = lifecycle.legacy_bridge_says(bridged, ns.state, preserved) then
    return;
  end if;
  -- A role that may not call the state API (a login the application's legacy table is open to,
  -- no more) changes no state through it either.
  caller := coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user);
  if not pg_catalog.has_function_privilege(caller, 'lifecycle.namespace_event(bigint, text, bigint, jsonb)', 'EXECUTE') then
    raise exception using errcode = 'NS005',
      message = pg_catalog.format('role %s may not change namespace states, through a legacy bridge neither', caller),
      detail = pg_catalog.format('namespace_id=%s role=%s bridged_state=%s', ns_id, caller, lifecycle.state_name(bridged)),
      hint = 'Write legacy data that a bridge carries over as a member of lifecycle_app (or lifecycle_worker).';
  end if;
  if bridged = 1 and ns.state in (2, 4, 5, 6) then
    -- Step 2 then 4 of the global lock order (namespace_lock_path): the row, then its details.
    ns := lifecycle.namespace_lock(ns_id);
    -- Who may archive or unarchive it may say where its restore returns.
    select * into refusal
      from lifecycle.actor_refusal(ns.id, ns.traversal_ids, actor,
             (lifecycle.transition_rule(case when legacy then 0::smallint else bridged end,
                                        case when legacy then bridged else 0::smallint end)).min_access_level,
             case when legacy then 'archive this namespace' else 'unarchive this namespace' end);
    if found then
      raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
    end if;
    -- (lifecycle.details_record is the state record's: a client's value must not spare this write
    -- its check, namespace_details_validate.)
    perform pg_catalog.set_config('lifecycle.details_record', '', true);
    update lifecycle.namespace_details d
       set state_metadata = d.state_metadata
             || pg_catalog.jsonb_build_object('preserved_state', case when legacy then 'archived' else 'ancestor_inherited' end)
     where d.namespace_id = ns_id;
    return;
  end if;
  if legacy then
    perform lifecycle.namespace_change_state(ns.id, lifecycle.state_name(bridged), null, actor,
      '{"reason": "legacy data"}', null, at, 'bridge');
  else
    perform lifecycle.namespace_change_state(ns.id, null,
      case bridged when 1 then 'unarchive' when 2 then 'restore' when 4 then 'deletion_failed' else 'unmaintain' end,
      actor, '{"reason": "legacy data"}', null, at, 'bridge');
  end if;
end
$$;

--
-- Name: legacy_bridge_attnum(regclass, name, regtype[], text, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_attnum(source regclass, column_name name, types regtype[], role text, what text) RETURNS smallint
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
declare
  found smallint;
begin
  select a.attnum into found
    from pg_catalog.pg_attribute a
   where a.attrelid = source and a.attname = column_name and a.attnum > 0 and not a.attisdropped
     and a.atttypid = any (types);
  if found is null then
    raise exception using errcode = 'NS010', message = pg_catalog.format('%s has no %s column %I', source, what, column_name),
      detail = pg_catalog.format('source=%s %s=%s', source, role, column_name),
      hint = pg_catalog.format('Name a %s column of %s as %s.', what, source, role);
  end if;
  return found;
end
$$;

--
-- Name: legacy_bridge_backfill(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_backfill() RETURNS TABLE(backfilled bigint, refused bigint, refusals jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET jit TO 'off'
    AS $$
declare
  candidate record;
  ns lifecycle.namespaces;
  refused_code text;
  refused_message text;
  refused_detail text;
  steps smallint[];
begin
  if not lifecycle.caller_may_act_as_system() then
    raise exception using errcode = 'NS005', message = 'only the system may backfill states from the legacy data',
      detail = pg_catalog.format('role=%s', coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user)),
      hint = 'Run lifecycle.legacy_bridge_backfill() as a member of lifecycle_worker.';
  end if;
  -- For plpgsql_check (a no-op at run time): the table made below.
  perform 'PRAGMA:TABLE: lifecycle_backfill (ns bigint, state smallint, preserved text, at timestamptz, actor bigint, refusal jsonb)';
  -- A backfill earlier in the same transaction left its table.
  drop table if exists pg_temp.lifecycle_backfill;
  create temporary table lifecycle_backfill on commit drop as
  select f.ns,
         case when f.in_progress then 4::smallint when f.scheduled then 2::smallint when f.maintained then 6::smallint
              else 1::smallint end as state,
         case when f.archived and (f.in_progress or f.scheduled or f.maintained) then 'archived' else 'ancestor_inherited' end
           as preserved,
         coalesce(case when f.in_progress then f.in_progress_at when f.scheduled then f.scheduled_at
                       when f.maintained then f.maintained_at else f.archived_at end, pg_catalog.now()) as at,
         case when f.in_progress then f.in_progress_by when f.scheduled then f.scheduled_by
              when f.maintained then f.maintained_by else f.archived_by end as actor
    from (select r.namespace_id as ns,
                 bool_or(r.holds and b.state = 1) as archived, max(r.at) filter (where r.holds and b.state = 1) as archived_at,
                 max(r.actor) filter (where r.holds and b.state = 1) as archived_by,
                 bool_or(r.holds and b.state = 2) as scheduled, max(r.at) filter (where r.holds and b.state = 2) as scheduled_at,
                 max(r.actor) filter (where r.holds and b.state = 2) as scheduled_by,
                 bool_or(r.holds and b.state = 4) as in_progress, max(r.at) filter (where r.holds and b.state = 4) as in_progress_at,
                 max(r.actor) filter (where r.holds and b.state = 4) as in_progress_by,
                 bool_or(r.holds and b.state = 6) as maintained, max(r.at) filter (where r.holds and b.state = 6) as maintained_at,
                 max(r.actor) filter (where r.holds and b.state = 6) as maintained_by
            from lifecycle.legacy_bridge_rows() r
            join lifecycle.legacy_bridges b on b.id = r.bridge_id
           group by 1
          having bool_or(r.holds)) f
    join lifecycle.namespaces n on n.id = f.ns and n.state = 0;
  alter table pg_temp.lifecycle_backfill add column refusal jsonb;

  perform lifecycle.transaction_flag_raise('importing'), pg_catalog.set_config('lifecycle.importing', 'on', true);
  for candidate in
    select f.ns, f.state, f.at, f.actor
      from pg_temp.lifecycle_backfill f
      join lifecycle.namespaces n on n.id = f.ns
     order by pg_catalog.cardinality(n.traversal_ids) desc, f.ns
  loop
    ns := lifecycle.namespace_lock(candidate.ns);
    if ns.state <> 0 then
      -- Changed since the candidates were read: its own state stands.
      delete from pg_temp.lifecycle_backfill f where f.ns = candidate.ns;
      continue;
    end if;
    -- The way from active: straight there, else through the one state the matrix passes.
    steps := case
      when exists (select from lifecycle.state_transitions t where t.from_state = 0 and t.to_state = candidate.state)
        then array[0, candidate.state]::smallint[]
      else array[0, (select t.from_state from lifecycle.state_transitions t
                       join lifecycle.state_transitions u on u.from_state = 0 and u.to_state = t.from_state
                      where t.to_state = candidate.state order by t.from_state limit 1), candidate.state]::smallint[]
    end;
    refused_code := null;
    for i in 1 .. pg_catalog.cardinality(steps) - 1 loop
      select r.code, r.message, r.detail into refused_code, refused_message, refused_detail
        from lifecycle.transition_refusal(ns.id, ns.traversal_ids, coalesce(steps[i], 0::smallint),
                                          coalesce(steps[i + 1], candidate.state), null, null) r
       limit 1;
      exit when refused_code is not null;
    end loop;
    if refused_code is not null then
      update pg_temp.lifecycle_backfill f
         set refusal = pg_catalog.jsonb_build_object('namespace_id', candidate.ns, 'state', lifecycle.state_name(candidate.state),
                                                     'code', refused_code, 'message', refused_message, 'detail', refused_detail)
       where f.ns = candidate.ns;
      continue;
    end if;
    -- Applied now, so the namespaces above it are judged with it.
    update lifecycle.namespaces n
       set state = candidate.state, state_changes = n.state_changes + 1, updated_at = candidate.at,
           deletion_scheduled_at = case when s.pending_deletion then candidate.at end,
           deletion_scheduled_by = case when s.pending_deletion then candidate.actor end
      from lifecycle.states s
     where n.id = candidate.ns and n.state = 0 and s.code = candidate.state;
  end loop;
  insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
  select f.ns, 0, f.state, null, f.actor, 'import', '{"reason": "legacy data"}', f.at
    from pg_temp.lifecycle_backfill f
   where f.refusal is null
   order by f.ns;
  update lifecycle.namespace_details d
     set state_metadata = d.state_metadata
           || pg_catalog.jsonb_build_object('last_updated_at', f.at, 'last_changed_by_user_id', f.actor,
                                            'previous_state', 'ancestor_inherited')
           || case when s.permanent then '{}'::jsonb else pg_catalog.jsonb_build_object('preserved_state', f.preserved) end
    from pg_temp.lifecycle_backfill f
    join lifecycle.states s on s.code = f.state
   where d.namespace_id = f.ns and f.refusal is null;
  perform lifecycle.transaction_flag_lower('importing'), pg_catalog.set_config('lifecycle.importing', '', true);

  select count(*) filter (where f.refusal is null), count(*) filter (where f.refusal is not null),
         coalesce(pg_catalog.jsonb_agg(f.refusal order by f.ns) filter (where f.refusal is not null), '[]'::jsonb)
    into backfilled, refused, refusals
    from pg_temp.lifecycle_backfill f;
  if backfilled > 0 then
    perform lifecycle.fact_emit('namespaces_imported', null, '{}'::bigint[], null, null,
      pg_catalog.jsonb_build_object('backfill', true, 'imported', backfilled,
        'states', (select pg_catalog.jsonb_object_agg(s.name, c.n)
                     from (select f.state, count(*) as n from pg_temp.lifecycle_backfill f where f.refusal is null group by 1) c
                     join lifecycle.states s on s.code = c.state)));
  end if;
  return next;
end
$$;

--
-- Name: FUNCTION legacy_bridge_backfill(); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.legacy_bridge_backfill() IS 'Give active bridged namespaces the states their legacy data says, as an import does (no notifications), each judged by the rules first; returns how many got a state, how many were refused, and the refusals.';

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: legacy_bridges; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.legacy_bridges (
    id bigint NOT NULL,
    source regclass NOT NULL,
    state smallint NOT NULL,
    kind text NOT NULL,
    namespace_attnum smallint NOT NULL,
    when_attnum smallint,
    at_attnum smallint,
    by_attnum smallint,
    namespace_types text[],
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    actor_id bigint,
    CONSTRAINT legacy_bridges_condition CHECK (((kind = 'exists'::text) = (when_attnum IS NULL))),
    CONSTRAINT legacy_bridges_kind_check CHECK ((kind = ANY (ARRAY['flag'::text, 'value'::text, 'exists'::text])))
);

--
-- Name: TABLE legacy_bridges; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.legacy_bridges IS 'Legacy columns and tables kept in step with the states, both ways (lifecycle.legacy_bridge_add).';

--
-- Name: COLUMN legacy_bridges.actor_id; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.legacy_bridges.actor_id IS 'The user a legacy write is made on behalf of when its row names none (no by column, or null there); null: the system, which only lifecycle_worker members and superusers may act as.';

--
-- Name: legacy_bridge_broken(lifecycle.legacy_bridges); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_broken(b lifecycle.legacy_bridges) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
declare
  reason text;
begin
  if (select count(*) from pg_catalog.pg_attribute a
       where a.attrelid = b.source and a.attnum > 0 and not a.attisdropped
         and ((a.attnum = b.namespace_attnum and a.atttypid = any ('{int2,int4,int8}'::regtype[]))
              or (a.attnum = b.when_attnum
                  and a.atttypid = any (case b.kind when 'flag' then '{bool}'::regtype[]
                                                   else '{timestamptz,timestamp,date}'::regtype[] end))
              or (a.attnum = b.at_attnum and a.atttypid = any ('{timestamptz,timestamp,date}'::regtype[]))
              or (a.attnum = b.by_attnum and a.atttypid = any ('{int2,int4,int8}'::regtype[]))))
     = (select count(distinct x) from pg_catalog.unnest(array[b.namespace_attnum, b.when_attnum, b.at_attnum, b.by_attnum]) x) then
    return null;
  end if;
  if not exists (select from pg_catalog.pg_class c where c.oid = b.source) then
    return 'its table is gone';
  end if;
  select pg_catalog.string_agg(pg_catalog.format('%s column (attribute %s) %s', r.role, r.attnum,
                                 case when a.attnum is null or a.attisdropped then 'was dropped'
                                      else 'is now ' || pg_catalog.format_type(a.atttypid, a.atttypmod) end),
                               '; ' order by r.ord)
    into reason
    from (values (1, 'namespace', b.namespace_attnum, '{int2,int4,int8}'::regtype[]),
                 (2, 'when', b.when_attnum,
                  case b.kind when 'flag' then '{bool}'::regtype[] else '{timestamptz,timestamp,date}'::regtype[] end),
                 (3, 'at', b.at_attnum, '{timestamptz,timestamp,date}'::regtype[]),
                 (4, 'by', b.by_attnum, '{int2,int4,int8}'::regtype[])) r (ord, role, attnum, types)
    left join pg_catalog.pg_attribute a on a.attrelid = b.source and a.attnum = r.attnum
   where r.attnum is not null and (a.attnum is null or a.attisdropped or not a.atttypid = any (r.types));
  return reason;
end
$$;

--
-- Name: legacy_bridge_check(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_check() RETURNS TABLE(namespace_id bigint, source regclass, legacy_says text, state text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select v.ns, b.source,
         case when v.legacy_on then s.name else 'not ' || s.name end,
         ns_state.name
    from (select r.namespace_id as ns, b.state, bool_or(r.holds) as legacy_on,
                 (pg_catalog.array_agg(r.bridge_id order by r.holds desc, r.bridge_id))[1] as bridge_id
            from lifecycle.legacy_bridge_rows() r
            join lifecycle.legacy_bridges b on b.id = r.bridge_id
           group by 1, 2) v
    join lifecycle.namespaces n on n.id = v.ns
    join lifecycle.states ns_state on ns_state.code = n.state
    join lifecycle.states s on s.code = v.state
    join lifecycle.legacy_bridges b on b.id = v.bridge_id
    left join lifecycle.namespace_details d on d.namespace_id = n.id
   where v.legacy_on <> lifecycle.legacy_bridge_says(v.state, n.state, d.state_metadata ->> 'preserved_state')
   order by v.ns, v.state
$$;

--
-- Name: FUNCTION legacy_bridge_check(); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.legacy_bridge_check() IS 'Every disagreement between the bridged legacy data and the states (empty when they agree).';

--
-- Name: legacy_bridge_column(regclass, smallint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_column(source regclass, attnum smallint) RETURNS name
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
declare
  found_name name;
begin
  select a.attname into found_name
    from pg_catalog.pg_attribute a
   where a.attrelid = source and a.attnum = legacy_bridge_column.attnum and not a.attisdropped;
  if found_name is null then
    raise exception using errcode = 'NS010', message = 'a legacy bridge is broken: its table or column is gone',
      detail = pg_catalog.format('source=%s attnum=%s', source::oid, attnum),
      hint = 'Drop the bridge (lifecycle.legacy_bridge_drop) and add it again for the table as it is now.';
  end if;
  return found_name;
end
$$;

--
-- Name: legacy_bridge_drop(regclass); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_drop(source regclass) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
#variable_conflict use_variable
declare
  dropped int;
begin
  delete from lifecycle.legacy_bridges b where b.source = source;
  get diagnostics dropped = row_count;
  if exists (select from pg_catalog.pg_trigger t where t.tgrelid = source and t.tgname = 'lifecycle_legacy_bridge') then
    execute pg_catalog.format('drop trigger lifecycle_legacy_bridge on %s', source);
  end if;
  if not exists (select from lifecycle.legacy_bridges) then
    drop trigger if exists namespaces_5_legacy_bridge on lifecycle.namespaces;
  end if;
  return dropped;
end
$$;

--
-- Name: FUNCTION legacy_bridge_drop(source regclass); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.legacy_bridge_drop(source regclass) IS 'End the bridges of a legacy table (its trigger, and the namespaces'' with the last bridge); returns how many.';

--
-- Name: legacy_bridge_holds(lifecycle.legacy_bridges, bigint, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_holds(b lifecycle.legacy_bridges, ns_id bigint, ns_type text) RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  ns_col name;
  answer boolean;
begin
  if b.namespace_types is not null and not ns_type = any (b.namespace_types) then
    return null;
  end if;
  if not lifecycle.legacy_bridge_usable(b, ns_id) then
    return null;
  end if;
  ns_col := lifecycle.legacy_bridge_column(b.source, b.namespace_attnum);
  if b.kind = 'exists' then
    execute pg_catalog.format('select exists (select from %s where %I = $1)', b.source, ns_col) into answer using ns_id;
  elsif b.kind = 'flag' then
    execute pg_catalog.format('select bool_or(coalesce(%I, false)) from %s where %I = $1',
                              lifecycle.legacy_bridge_column(b.source, b.when_attnum), b.source, ns_col) into answer using ns_id;
  else
    execute pg_catalog.format('select bool_or(%I is not null) from %s where %I = $1',
                              lifecycle.legacy_bridge_column(b.source, b.when_attnum), b.source, ns_col) into answer using ns_id;
  end if;
  return answer;
end
$_$;

--
-- Name: legacy_bridge_lock(bigint, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_lock(ns_id bigint, ns_type text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  b lifecycle.legacy_bridges;
  ns_col name;
begin
  -- One statement a table (the bridges of one table name the same rows; the strongest lock).
  for b in select distinct on (x.source::oid, x.namespace_attnum) *
             from lifecycle.legacy_bridges x
            where x.namespace_types is null or ns_type = any (x.namespace_types)
            order by x.source::oid, x.namespace_attnum, x.kind = 'exists' desc, x.id loop
    select a.attname into ns_col
      from pg_catalog.pg_attribute a
     where a.attrelid = b.source and a.attnum = b.namespace_attnum and not a.attisdropped
       and a.atttypid = any (array['int2', 'int4', 'int8']::regtype[]);
    continue when ns_col is null;
    execute pg_catalog.format('select from %s where %I = $1 for %s', b.source, ns_col,
                              case b.kind when 'exists' then 'update' else 'no key update' end)
      using ns_id;
  end loop;
end
$_$;

--
-- Name: legacy_bridge_refuse(lifecycle.legacy_bridges, text, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_refuse(b lifecycle.legacy_bridges, reason text, ns_id bigint) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
declare
  table_name text := coalesce((select c.oid::regclass::text from pg_catalog.pg_class c where c.oid = b.source),
                              pg_catalog.format('table %s (gone)', b.source::oid));
begin
  raise exception using errcode = 'NS010',
    message = pg_catalog.format('legacy bridge %s (%s, %s) is broken: %s', b.id, table_name, lifecycle.state_name(b.state), reason),
    detail = pg_catalog.format('bridge_id=%s source=%s source_oid=%s state=%s namespace_id=%s', b.id, table_name, b.source::oid,
                               lifecycle.state_name(b.state), ns_id),
    hint = pg_catalog.format('Restore the column as it was when the bridge was added, or end the table''s bridges: '
                             'select lifecycle.legacy_bridge_drop(%s::regclass); (and add them again for the table as it is now).',
                             b.source::oid);
end
$$;

--
-- Name: legacy_bridge_rows(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_rows() RETURNS TABLE(namespace_id bigint, bridge_id bigint, holds boolean, at timestamp with time zone, actor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  b lifecycle.legacy_bridges;
  parts text[] := '{}'::text[];
  ns_col name;
  when_col name;
  at_expr text;
  by_expr text;
  broken text;
begin
  for b in select * from lifecycle.legacy_bridges x order by x.id loop
    broken := lifecycle.legacy_bridge_broken(b);
    if broken is not null then
      perform lifecycle.legacy_bridge_refuse(b, broken, null);
    end if;
    ns_col := lifecycle.legacy_bridge_column(b.source, b.namespace_attnum);
    at_expr := case when b.at_attnum is not null
                 then pg_catalog.format('max(s.%I)::timestamptz', lifecycle.legacy_bridge_column(b.source, b.at_attnum))
                 else 'null::timestamptz' end;
    by_expr := case when b.by_attnum is not null
                 then pg_catalog.format('max(s.%I)::bigint', lifecycle.legacy_bridge_column(b.source, b.by_attnum))
                 else 'null::bigint' end;
    if b.kind = 'exists' then
      parts := parts || pg_catalog.format(
        'select n.id, %s::bigint, s.ns is not null, s.at, s.actor from lifecycle.namespaces n '
        'left join (select s.%I::bigint as ns, %s as at, %s as actor from %s s group by 1) s on s.ns = n.id '
        'where %L::text[] is null or n.type = any (%L::text[])',
        b.id, ns_col, at_expr, by_expr, b.source, b.namespace_types, b.namespace_types);
    else
      when_col := lifecycle.legacy_bridge_column(b.source, b.when_attnum);
      parts := parts || pg_catalog.format(
        'select s.%I::bigint, %s::bigint, bool_or(%s), %s, %s from %s s '
        'where %L::text[] is null or exists (select from lifecycle.namespaces n where n.id = s.%I and n.type = any (%L::text[])) '
        'group by 1',
        ns_col, b.id,
        case b.kind when 'flag' then pg_catalog.format('coalesce(s.%I, false)', when_col)
                    else pg_catalog.format('s.%I is not null', when_col) end,
        at_expr, by_expr, b.source, b.namespace_types, ns_col, b.namespace_types);
    end if;
  end loop;
  if pg_catalog.cardinality(parts) = 0 then
    return;
  end if;
  return query execute pg_catalog.array_to_string(parts, ' union all ');
end
$$;

--
-- Name: legacy_bridge_says(smallint, smallint, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_says(bridge_state smallint, ns_state smallint, preserved_state text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE bridge_state WHEN 1 THEN ((ns_state = 1) OR ((ns_state <> ALL (ARRAY[0, 1])) AND (preserved_state = 'archived'::text))) WHEN 2 THEN (ns_state = ANY (ARRAY[2, 4])) ELSE (ns_state = bridge_state) END;

--
-- Name: legacy_bridge_source(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_source() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  b lifecycle.legacy_bridges;
  old_row jsonb := case when tg_op <> 'INSERT' then pg_catalog.to_jsonb(old) end;
  new_row jsonb := case when tg_op <> 'DELETE' then pg_catalog.to_jsonb(new) end;
  ns_col name;
  when_col name;
  old_ns bigint;
  new_ns bigint;
  old_on boolean;
  new_on boolean;
  at timestamptz;
  actor bigint;
  touched bigint[] := '{}'::bigint[];
  outermost boolean;
  ns_id bigint;
  broken text;
begin
  outermost := lifecycle.transaction_flag_raise('legacy_bridge_applying');
  for b in select * from lifecycle.legacy_bridges x where x.source = tg_relid order by x.state loop
    broken := lifecycle.legacy_bridge_broken(b);
    if broken is not null then
      -- An UPDATE that leaves what the bridge reads as it was (its namespace and condition
      -- columns, those still there, whatever their type) gives it nothing to carry: the
      -- application's other writes to its table go on. Any other write refuses.
      continue when tg_op = 'UPDATE'
        and not exists (select from pg_catalog.pg_attribute a
                         where a.attrelid = b.source and a.attnum in (b.namespace_attnum, b.when_attnum) and not a.attisdropped
                           and (old_row -> a.attname::text) is distinct from (new_row -> a.attname::text));
      perform lifecycle.legacy_bridge_refuse(b, broken, null);
    end if;
    ns_col := lifecycle.legacy_bridge_column(b.source, b.namespace_attnum);
    when_col := case when b.when_attnum is not null then lifecycle.legacy_bridge_column(b.source, b.when_attnum) end;
    old_ns := (old_row ->> ns_col)::bigint;
    new_ns := (new_row ->> ns_col)::bigint;
    old_on := old_row is not null and (b.kind = 'exists' or (b.kind = 'flag' and (old_row ->> when_col) = 'true')
                                       or (b.kind = 'value' and old_row ->> when_col is not null));
    new_on := new_row is not null and (b.kind = 'exists' or (b.kind = 'flag' and (new_row ->> when_col) = 'true')
                                       or (b.kind = 'value' and new_row ->> when_col is not null));
    continue when old_ns is not distinct from new_ns and old_on = new_on;
    at := null;
    actor := null;
    if new_on and b.at_attnum is not null then
      at := (new_row ->> lifecycle.legacy_bridge_column(b.source, b.at_attnum))::timestamptz;
    end if;
    if b.by_attnum is not null then
      actor := (coalesce(new_row, old_row) ->> lifecycle.legacy_bridge_column(b.source, b.by_attnum))::bigint;
    end if;
    actor := coalesce(actor, b.actor_id);
    if old_ns is not null and old_ns is distinct from new_ns then
      perform lifecycle.legacy_bridge_apply(b.state, old_ns, null, actor);
      touched := touched || old_ns;
    end if;
    if new_ns is not null then
      perform lifecycle.legacy_bridge_apply(b.state, new_ns, at, actor);
      touched := touched || new_ns;
    end if;
  end loop;
  -- Inside another source trigger's loop (an application trigger writing a bridged table), that
  -- one writes back at its end.
  if outermost then
    perform lifecycle.transaction_flag_lower('legacy_bridge_applying');
    foreach ns_id in array array(select distinct t from pg_catalog.unnest(touched) t order by t) loop
      perform lifecycle.legacy_bridge_sync(ns_id);
    end loop;
  end if;
  return null;
end
$$;

--
-- Name: legacy_bridge_state(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_state() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if new.state = old.state or lifecycle.transaction_flag_raised('legacy_bridge_applying') then
    return null;
  end if;
  perform lifecycle.legacy_bridge_sync(new.id);
  return null;
end
$$;

--
-- Name: legacy_bridge_sync(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_sync(ns_id bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  b lifecycle.legacy_bridges;
  ns lifecycle.namespaces;
  preserved text;
  at timestamptz;
  actor bigint;
  failure text;
  failure_state text;
begin
  select * into ns from lifecycle.namespaces n where n.id = ns_id;
  if not found then
    return;
  end if;
  select d.state_metadata ->> 'preserved_state',
         coalesce((d.state_metadata ->> 'last_updated_at')::timestamptz, pg_catalog.now()),
         (d.state_metadata ->> 'last_changed_by_user_id')::bigint
    into preserved, at, actor
    from lifecycle.namespace_details d where d.namespace_id = ns_id;
  -- One block around all the bridges' writes (one subtransaction a change, not one a bridge): b
  -- still names the bridge whose write failed when the handler runs.
  begin
    for b in select * from lifecycle.legacy_bridges x order by x.id loop
      continue when b.namespace_types is not null and not ns.type = any (b.namespace_types);
      continue when not lifecycle.legacy_bridge_usable(b, ns.id);
      perform lifecycle.legacy_bridge_write(b, ns.id, lifecycle.legacy_bridge_says(b.state, ns.state, preserved), at, actor);
    end loop;
  exception
    when data_exception or integrity_constraint_violation or syntax_error_or_access_rule_violation then
      get stacked diagnostics failure = message_text, failure_state = returned_sqlstate;
      perform lifecycle.legacy_bridge_refuse(b, pg_catalog.format('writing it failed: %s (%s)', failure, failure_state), ns.id);
  end;
end
$$;

--
-- Name: legacy_bridge_usable(lifecycle.legacy_bridges, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_usable(b lifecycle.legacy_bridges, ns_id bigint) RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  reason text := lifecycle.legacy_bridge_broken(b);
  has_row boolean;
  ns_col name;
begin
  if reason is null then
    return true;
  end if;
  if reason = 'its table is gone' then
    return false;
  end if;
  select a.attname into ns_col
    from pg_catalog.pg_attribute a
   where a.attrelid = b.source and a.attnum = b.namespace_attnum and not a.attisdropped
     and a.atttypid = any (array['int2', 'int4', 'int8']::regtype[]);
  if ns_col is null then
    execute pg_catalog.format('select exists (select from %s)', b.source) into has_row;
  else
    execute pg_catalog.format('select exists (select from %s where %I = $1)', b.source, ns_col) into has_row using ns_id;
  end if;
  if has_row then
    perform lifecycle.legacy_bridge_refuse(b, reason, ns_id);
  end if;
  return false;
end
$_$;

--
-- Name: legacy_bridge_write(lifecycle.legacy_bridges, bigint, boolean, timestamp with time zone, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.legacy_bridge_write(b lifecycle.legacy_bridges, ns_id bigint, holds boolean, at timestamp with time zone, actor bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  ns_col name := lifecycle.legacy_bridge_column(b.source, b.namespace_attnum);
  when_col name;
  at_col name;
  by_col name;
  extra text := '';
  nullable_at boolean;
  nullable_by boolean;
begin
  if b.at_attnum is not null then
    at_col := lifecycle.legacy_bridge_column(b.source, b.at_attnum);
    select not a.attnotnull into nullable_at from pg_catalog.pg_attribute a where a.attrelid = b.source and a.attnum = b.at_attnum;
  end if;
  if b.by_attnum is not null then
    by_col := lifecycle.legacy_bridge_column(b.source, b.by_attnum);
    select not a.attnotnull into nullable_by from pg_catalog.pg_attribute a where a.attrelid = b.source and a.attnum = b.by_attnum;
  end if;

  if b.kind = 'exists' then
    if holds then
      execute pg_catalog.format('insert into %s (%I%s%s) select $1%s%s where not exists (select from %s where %I = $1)',
        b.source, ns_col,
        case when at_col is not null then pg_catalog.format(', %I', at_col) else '' end,
        case when by_col is not null then pg_catalog.format(', %I', by_col) else '' end,
        case when at_col is not null then ', $2' else '' end,
        case when by_col is not null then ', $3' else '' end,
        b.source, ns_col)
        using ns_id, at, actor;
    else
      execute pg_catalog.format('delete from %s where %I = $1', b.source, ns_col) using ns_id;
    end if;
    return;
  end if;

  when_col := lifecycle.legacy_bridge_column(b.source, b.when_attnum);
  -- Time and actor beside the condition: set with it, cleared with it where they may be null
  -- (a column bridge whose condition is its time column leaves that to the condition).
  if at_col is not null and at_col <> when_col and (holds or nullable_at) then
    extra := extra || pg_catalog.format(', %I = %s', at_col, case when holds then '$2' else 'null' end);
  end if;
  if by_col is not null and (holds or nullable_by) then
    extra := extra || pg_catalog.format(', %I = %s', by_col, case when holds then '$3' else 'null' end);
  end if;
  if b.kind = 'flag' then
    execute pg_catalog.format('update %s set %I = $4%s where %I = $1 and %I is distinct from $4',
                              b.source, when_col, extra, ns_col, when_col)
      using ns_id, at, actor, holds;
  elsif holds then
    execute pg_catalog.format('update %s set %I = $2%s where %I = $1 and %I is null', b.source, when_col, extra, ns_col, when_col)
      using ns_id, at, actor;
  else
    execute pg_catalog.format('update %s set %I = null%s where %I = $1 and %I is not null', b.source, when_col, extra, ns_col, when_col)
      using ns_id, at, actor;
  end if;
end
$_$;

--
-- Name: name_refusal(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.name_refusal(name text) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN CASE WHEN (name IS NULL) THEN 'name is required'::text WHEN (char_length(name) > 255) THEN format('name is %s characters long, more than 255'::text, char_length(name)) WHEN (btrim(name) = ''::text) THEN 'name is blank'::text ELSE lifecycle.character_refusal('name'::text, name) END;

--
-- Name: namespace_access_level(bigint[], bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_access_level(traversal_ids bigint[], actor_id bigint) RETURNS smallint
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    SET enable_seqscan TO 'off'
    SET jit TO 'off'
    AS $$
begin
  return (select coalesce(max(m.access_level), 0)::smallint
            from lifecycle.namespace_members m
           where m.namespace_id = any (namespace_access_level.traversal_ids)
             and m.user_id = namespace_access_level.actor_id);
end
$$;

--
-- Name: namespace_available_transitions(bigint, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_available_transitions(namespace_id bigint, actor_id bigint) RETURNS TABLE(to_state text, allowed boolean, error_code text, reason text, hint text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
#variable_conflict use_column
declare
  ns record;
begin
  select n.id, n.state, n.traversal_ids into ns
    from lifecycle.namespaces n
   where n.id = namespace_available_transitions.namespace_id;
  if not found then
    raise exception using errcode = 'NS004', message = 'namespace not found',
      detail = pg_catalog.format('namespace_id=%s', namespace_available_transitions.namespace_id),
      hint = 'Check the id; a hard-deleted namespace is gone for good.';
  end if;

  return query
    select s.name,
           s.code = ns.state or r.code is null,
           r.code,
           case when s.code = ns.state then 'already in this state (a no-op)' else r.message end,
           r.hint
      from lifecycle.states s
      left join lateral lifecycle.transition_refusal(ns.id, ns.traversal_ids, ns.state, s.code,
                                                     namespace_available_transitions.actor_id) r
        on s.code <> ns.state
     order by s.code;
end
$$;

--
-- Name: FUNCTION namespace_available_transitions(namespace_id bigint, actor_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_available_transitions(namespace_id bigint, actor_id bigint) IS 'Every state with allowed, or the error code, reason and hint that would refuse it (for UIs).';

--
-- Name: namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamp with time zone, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_change_state(id bigint, target_state_name text, event_name text, actor bigint, call_metadata jsonb, operation text DEFAULT NULL::text, changed_at timestamp with time zone DEFAULT NULL::timestamp with time zone, source text DEFAULT 'api'::text) RETURNS TABLE(namespace_id bigint, from_state text, to_state text, effective_state text, changed boolean)
    LANGUAGE plpgsql
    SET search_path TO ''
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
#variable_conflict use_variable
declare
  current_state smallint;
  target smallint;
  ev lifecycle.event_rule;
  key_state smallint;
  refusal text;
  setting text;
begin
  if id is null then
    raise exception using errcode = 'NS010', message = 'namespace_id is required',
      hint = 'Pass the id of the namespace to change.';
  end if;
  if event_name is null and target_state_name is null then
    raise exception using errcode = 'NS010', message = 'to_state is required',
      hint = 'Pass a state name from lifecycle.states (or "active").';
  end if;
  if event_name is null then
    target := lifecycle.state_code(target_state_name);
    if target is null then
      raise exception using errcode = 'NS010',
        message = pg_catalog.format('unknown state %L', target_state_name),
        detail = pg_catalog.format('to_state=%s', target_state_name),
        hint = (select 'Known states: active, ' || pg_catalog.string_agg(s.name, ', ' order by s.code) || '.'
                  from lifecycle.states s);
    end if;
  else
    -- The event's target and sources as constants: the digest of lifecycle.events and
    -- event_sources (transition_rules_write), an expression that reads no table.
    ev := lifecycle.event_rule(event_name);
    if ev.target_state is null then
      raise exception using errcode = 'NS010',
        message = pg_catalog.format('unknown event %L', event_name),
        detail = pg_catalog.format('event=%s', event_name),
        hint = (select 'Known events: ' || pg_catalog.string_agg(e.name, ', ' order by e.name) || '.'
                  from lifecycle.events e);
    end if;
  end if;
  call_metadata := coalesce(call_metadata, '{}');
  -- Most calls pass no metadata: the empty object conforms, so the schema walk is skipped.
  if call_metadata <> '{}' then
    refusal := lifecycle.state_metadata_refusal(call_metadata);
  end if;
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid metadata', detail = refusal,
      hint = 'Allowed keys and types: lifecycle.json_schemas, name state_metadata.';
  end if;

  -- Locks, in the global order: the path root first, then the row (namespace_lock; NS004).
  current_state := (lifecycle.namespace_lock(namespace_change_state.id)).state;

  if event_name is not null then
    if not coalesce(current_state = any (ev.from_states), false) then
      raise exception using errcode = 'NS001',
        message = pg_catalog.format('event %s does not apply to a namespace in state %s', event_name,
                                    lifecycle.state_name(current_state)),
        detail = pg_catalog.format('namespace_id=%s event=%s state=%s', namespace_change_state.id, event_name,
                                   lifecycle.state_name(current_state)),
        hint = (select pg_catalog.format('%s applies to namespaces in state: %s.', event_name,
                                         pg_catalog.string_agg(lifecycle.state_name(s.from_state), ', ' order by s.from_state))
                  from lifecycle.event_sources s where s.event = event_name);
    end if;
    target := ev.target_state;
    if ev.target_key is not null then
      -- "Back to where it was", when the metadata remembers a state the matrix allows from here.
      select t.to_state into key_state
        from lifecycle.namespace_details d
        join lifecycle.state_transitions t
          on t.from_state = current_state and t.to_state = lifecycle.state_code(d.state_metadata ->> ev.target_key)
       where d.namespace_id = namespace_change_state.id;
      target := coalesce(key_state, target);
    end if;
  end if;

  if target <> current_state then
    -- The context the gate and the record read (transaction-local; reset right after, so a later
    -- raw UPDATE in the same transaction is not attributed to this call). path_locked tells the
    -- gate that this row's ancestors are already locked (above), by this call, for this UPDATE.
    -- (Expressions, not PERFORM: an expression without a table is evaluated directly, a PERFORM
    -- runs a whole query.)
    setting := pg_catalog.set_config('lifecycle.actor_id', coalesce(actor::text, ''), true)
            || pg_catalog.set_config('lifecycle.event', coalesce(event_name, ''), true)
            || pg_catalog.set_config('lifecycle.metadata', call_metadata::text, true)
            || pg_catalog.set_config('lifecycle.source', coalesce(source, 'api'), true)
            || pg_catalog.set_config('lifecycle.operation', coalesce(operation, ''), true)
            || pg_catalog.set_config('lifecycle.changed_at', coalesce(changed_at::text, ''), true)
            || pg_catalog.set_config('lifecycle.importing', '', true)
            || pg_catalog.set_config('lifecycle.path_locked', namespace_change_state.id::text, true);
    update lifecycle.namespaces n set state = target where n.id = namespace_change_state.id;
    setting := pg_catalog.set_config('lifecycle.actor_id', '', true)
            || pg_catalog.set_config('lifecycle.event', '', true)
            || pg_catalog.set_config('lifecycle.metadata', '', true)
            || pg_catalog.set_config('lifecycle.source', '', true)
            || pg_catalog.set_config('lifecycle.operation', '', true)
            || pg_catalog.set_config('lifecycle.changed_at', '', true)
            || pg_catalog.set_config('lifecycle.path_locked', '', true);
  end if;

  -- The state names from the digest of lifecycle.states (constants in the plan, see
  -- states_digest_write), the effective state from the inlined namespace_effective_state.
  return query
    select namespace_change_state.id, (lifecycle.state_names())[current_state], (lifecycle.state_names())[target],
           e.effective_state, target <> current_state
      from lifecycle.namespace_effective_state(namespace_change_state.id) e;
end
$$;

--
-- Name: namespace_details_validate(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_details_validate() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  trusted constant text[] := array['last_updated_at', 'last_changed_by_user_id', 'previous_state', 'preserved_state'];
  refusal text;
begin
  if tg_op = 'UPDATE'
     and coalesce(pg_catalog.current_setting('lifecycle.details_record', true), '') = new.namespace_id::text
     and pg_catalog.jsonb_typeof(new.state_metadata) = 'object'
     and (new.state_metadata - trusted) = (old.state_metadata - trusted) then
    return new;
  end if;
  refusal := lifecycle.state_metadata_refusal(new.state_metadata);
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid state_metadata', detail = refusal,
      hint = 'Allowed keys and types: lifecycle.json_schemas, name state_metadata.';
  end if;
  return new;
end
$$;

--
-- Name: namespace_type_known(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_type_known(type text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (type = ANY ('{group,organization,project,user}'::text[]));

--
-- Name: FUNCTION namespace_type_known(type text); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_type_known(type text) IS 'Whether this is a namespace type (a row of lifecycle.namespace_types): a digest of lifecycle.namespace_types rewritten by its trigger namespace_types_digest, never by hand.';

--
-- Name: namespace_type_root_only(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_type_root_only(type text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (type = ANY ('{organization}'::text[]));

--
-- Name: FUNCTION namespace_type_root_only(type text); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_type_root_only(type text) IS 'Whether a namespace of this type is only ever a root (lifecycle.namespace_types.root_only): a digest of lifecycle.namespace_types rewritten by its trigger namespace_types_digest, never by hand.';

--
-- Name: state_flag_mask(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_flag_mask(flag text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE flag WHEN 'archived'::text THEN 2 WHEN 'pending_deletion'::text THEN 20 WHEN 'read_only'::text THEN 118 ELSE NULL::integer END;

--
-- Name: FUNCTION state_flag_mask(flag text); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.state_flag_mask(flag text) IS 'The codes that carry a flag (archived, pending_deletion, read_only), a bit per code: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';

--
-- Name: state_names(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_names() RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN '[0:6]={ancestor_inherited,archived,deletion_scheduled,creation_in_progress,deletion_in_progress,transfer_in_progress,maintenance}'::text[];

--
-- Name: FUNCTION state_names(); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.state_names() IS 'Each state code''s name, subscripted by code: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';

--
-- Name: state_sets_effective(smallint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_sets_effective(code smallint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((((1)::bigint << (code)::integer) & '1'::bigint) = 0);

--
-- Name: FUNCTION state_sets_effective(code smallint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.state_sets_effective(code smallint) IS 'state_is_own''s answer as a bit test, for namespace_effective_state and namespaces_stateful_idx: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';

--
-- Name: namespaces; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.namespaces (
    id bigint NOT NULL,
    parent_id bigint,
    type text NOT NULL,
    path text NOT NULL,
    name text NOT NULL,
    visibility text DEFAULT 'private'::text NOT NULL,
    state smallint DEFAULT 0 NOT NULL,
    traversal_ids bigint[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    deletion_scheduled_at timestamp with time zone,
    deletion_scheduled_by bigint,
    state_changes bigint DEFAULT 0 NOT NULL,
    CONSTRAINT namespaces_no_self_parent CHECK ((parent_id <> id)),
    CONSTRAINT namespaces_root_only_type_is_root CHECK (((parent_id IS NULL) OR (NOT lifecycle.namespace_type_root_only(type)))),
    CONSTRAINT namespaces_type_known CHECK (lifecycle.namespace_type_known(type))
);

--
-- Name: TABLE namespaces; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.namespaces IS 'Organizations, groups, projects and user namespaces in one tree; state holds the ADR 001 code.';

--
-- Name: COLUMN namespaces.traversal_ids; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.namespaces.traversal_ids IS 'Ids from the root to this namespace, kept by the database; descendants of X are the rows with X as a prefix.';

--
-- Name: namespace_effective_state(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_effective_state(namespace_id bigint) RETURNS TABLE(namespace_id bigint, state text, effective_state text, inherited_from_namespace_id bigint, self_or_ancestor_archived boolean, self_or_ancestor_deletion_scheduled boolean, read_only boolean)
    LANGUAGE sql STABLE
    BEGIN ATOMIC
 SELECT n.id,
     (lifecycle.state_names())[n.state] AS state_names,
     COALESCE((lifecycle.state_names())[(p.nearest % 64)], 'active'::text) AS "coalesce",
     NULLIF(n.traversal_ids[(p.nearest / 64)], n.id) AS "nullif",
     COALESCE(((p.codes & lifecycle.state_flag_mask('archived'::text)) <> 0), false) AS "coalesce",
     COALESCE(((p.codes & lifecycle.state_flag_mask('pending_deletion'::text)) <> 0), false) AS "coalesce",
     COALESCE(((p.codes & lifecycle.state_flag_mask('read_only'::text)) <> 0), false) AS "coalesce"
    FROM (lifecycle.namespaces n
      CROSS JOIN LATERAL ( SELECT max(((array_position(n.traversal_ids, a.id) * 64) + a.state)) AS nearest,
             bit_or(((1)::bigint << (a.state)::integer)) AS codes
            FROM lifecycle.namespaces a
           WHERE ((a.id = ANY (n.traversal_ids)) AND lifecycle.state_sets_effective(a.state))) p)
   WHERE (n.id = namespace_effective_state.namespace_id);
END;

--
-- Name: FUNCTION namespace_effective_state(namespace_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_effective_state(namespace_id bigint) IS 'Effective state, its source ancestor and the path-wide flags of one namespace; fresh, O(depth), inlinable. No row when the namespace does not exist.';

--
-- Name: states; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.states (
    code smallint NOT NULL,
    name text NOT NULL,
    alias text,
    description text NOT NULL,
    permanent boolean NOT NULL,
    read_only boolean NOT NULL,
    pending_deletion boolean NOT NULL,
    operation text,
    inherited boolean DEFAULT false NOT NULL,
    deletion_adjourned boolean DEFAULT false NOT NULL,
    being_created boolean DEFAULT false NOT NULL,
    CONSTRAINT states_code_is_a_bit CHECK (((code >= 0) AND (code <= 63)))
);

--
-- Name: TABLE states; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.states IS 'ADR 001 state codes. Clients speak names; "active" is accepted everywhere as the name of code 0.';

--
-- Name: COLUMN states.operation; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.states.operation IS 'The operation that owns this state: only its own code path, or a worker or superuser, moves a namespace out of it.';

--
-- Name: COLUMN states.inherited; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.states.inherited IS 'No state of its own: a namespace in it takes its effective state from the path (lifecycle.state_is_own is false).';

--
-- Name: COLUMN states.deletion_adjourned; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.states.deletion_adjourned IS 'A soft deletion: restorable by a user until the grace period (settings.deletion_adjourned_period_days) ends, then hard-deleted by the sweeper; entering it from a permanent state records deletion_scheduled_at/_by.';

--
-- Name: COLUMN states.being_created; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.states.being_created IS 'The application is still creating the namespace; the sweeper deletes it after the creation timeout.';

--
-- Name: namespace_effective_states_below_any(bigint[]); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_effective_states_below_any(namespace_ids bigint[]) RETURNS TABLE(namespace_id bigint, state text, effective_state text, inherited_from_namespace_id bigint, self_or_ancestor_archived boolean, self_or_ancestor_deletion_scheduled boolean, read_only boolean, full_path text)
    LANGUAGE sql STABLE
    BEGIN ATOMIC
 WITH RECURSIVE ranked AS (
          SELECT n.id,
             n.traversal_ids,
             max((n.traversal_ids || '9223372036854775807'::bigint)) OVER (ORDER BY n.traversal_ids ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS earlier_ends
            FROM (unnest(namespace_effective_states_below_any.namespace_ids) r(id)
              JOIN lifecycle.namespaces n ON ((n.id = r.id)))
         ), parents AS (
          SELECT r.traversal_ids[1:(cardinality(r.traversal_ids) - 1)] AS ancestors,
             array_agg(r.id) AS ids
            FROM ranked r
           WHERE ((r.earlier_ends IS NULL) OR (r.earlier_ends < r.traversal_ids))
           GROUP BY r.traversal_ids[1:(cardinality(r.traversal_ids) - 1)]
         ), above AS (
          SELECT p.ids,
             c.source_id,
             c.source_state,
             c.archived,
             c.pending_deletion,
             c.read_only,
             c.parent_path
            FROM (parents p
              CROSS JOIN LATERAL ( SELECT (array_agg(a.id ORDER BY (cardinality(a.traversal_ids)) DESC) FILTER (WHERE (NOT s.inherited)))[1] AS source_id,
                     (array_agg(a.state ORDER BY (cardinality(a.traversal_ids)) DESC) FILTER (WHERE (NOT s.inherited)))[1] AS source_state,
                     COALESCE(bool_or((s.name = 'archived'::text)), false) AS archived,
                     COALESCE(bool_or(s.pending_deletion), false) AS pending_deletion,
                     COALESCE(bool_or(s.read_only), false) AS read_only,
                     string_agg(a.path, '/'::text ORDER BY (cardinality(a.traversal_ids))) AS parent_path
                    FROM (lifecycle.namespaces a
                      JOIN lifecycle.states s ON ((s.code = a.state)))
                   WHERE (a.id = ANY (p.ancestors))) c)
         ), tree AS (
          SELECT r.id,
             r.state,
             (COALESCE((above.parent_path || '/'::text), ''::text) || r.path) AS full_path,
                 CASE
                     WHEN s.inherited THEN above.source_id
                     ELSE r.id
                 END AS source_id,
                 CASE
                     WHEN s.inherited THEN above.source_state
                     ELSE r.state
                 END AS source_state,
             (above.archived OR (s.name = 'archived'::text)) AS archived,
             (above.pending_deletion OR s.pending_deletion) AS pending_deletion,
             (above.read_only OR s.read_only) AS read_only
            FROM (((above
              CROSS JOIN LATERAL unnest(above.ids) u(id))
              JOIN lifecycle.namespaces r ON ((r.id = u.id)))
              JOIN lifecycle.states s ON ((s.code = r.state)))
         UNION ALL
          SELECT c.id,
             c.state,
             ((t_1.full_path || '/'::text) || c.path),
                 CASE
                     WHEN s.inherited THEN t_1.source_id
                     ELSE c.id
                 END AS id,
                 CASE
                     WHEN s.inherited THEN t_1.source_state
                     ELSE c.state
                 END AS state,
             (t_1.archived OR (s.name = 'archived'::text)),
             (t_1.pending_deletion OR s.pending_deletion),
             (t_1.read_only OR s.read_only)
            FROM ((tree t_1
              CROSS JOIN LATERAL ( SELECT n.id,
                     n.state,
                     n.path
                    FROM lifecycle.namespaces n
                   WHERE (n.parent_id = t_1.id)
                  OFFSET 0) c)
              JOIN lifecycle.states s ON ((s.code = c.state)))
         )
  SELECT t.id,
     own.name,
     COALESCE(src_state.name, 'active'::text) AS "coalesce",
     NULLIF(t.source_id, t.id) AS "nullif",
     t.archived,
     t.pending_deletion,
     t.read_only,
     t.full_path
    FROM ((tree t
      JOIN lifecycle.states own ON ((own.code = t.state)))
      LEFT JOIN lifecycle.states src_state ON ((src_state.code = t.source_state)));
END;

--
-- Name: FUNCTION namespace_effective_states_below_any(namespace_ids bigint[]); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_effective_states_below_any(namespace_ids bigint[]) IS 'Effective state and full path of the given namespaces and every namespace below any of them, each once; fresh, O(ids + subtrees).';

--
-- Name: namespace_effective_states_below(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_effective_states_below(namespace_id bigint) RETURNS TABLE(namespace_id bigint, state text, effective_state text, inherited_from_namespace_id bigint, self_or_ancestor_archived boolean, self_or_ancestor_deletion_scheduled boolean, read_only boolean, full_path text)
    LANGUAGE sql STABLE
    BEGIN ATOMIC
 SELECT b.namespace_id,
     b.state,
     b.effective_state,
     b.inherited_from_namespace_id,
     b.self_or_ancestor_archived,
     b.self_or_ancestor_deletion_scheduled,
     b.read_only,
     b.full_path
    FROM lifecycle.namespace_effective_states_below_any(ARRAY[namespace_effective_states_below.namespace_id]) b(namespace_id, state, effective_state, inherited_from_namespace_id, self_or_ancestor_archived, self_or_ancestor_deletion_scheduled, read_only, full_path);
END;

--
-- Name: FUNCTION namespace_effective_states_below(namespace_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_effective_states_below(namespace_id bigint) IS 'Effective state and full path of a namespace and every namespace below it; fresh, O(subtree).';

--
-- Name: namespace_event(bigint, text, bigint, jsonb); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_event(namespace_id bigint, event text, actor_id bigint, metadata jsonb DEFAULT '{}'::jsonb) RETURNS SETOF lifecycle.state_change
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
begin
  return query
    select * from lifecycle.namespace_change_state(namespace_event.namespace_id, null, namespace_event.event,
                                                   namespace_event.actor_id, namespace_event.metadata);
end
$$;

--
-- Name: FUNCTION namespace_event(namespace_id bigint, event text, actor_id bigint, metadata jsonb); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_event(namespace_id bigint, event text, actor_id bigint, metadata jsonb) IS 'Apply an ADR 001 event (lifecycle.events). Errors: NS001 NS002 NS003 NS004 NS005 NS010.';

--
-- Name: namespace_full_path(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_full_path(namespace_id bigint) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    SET enable_seqscan TO 'off'
    SET jit TO 'off'
    AS $$
begin
  return (select pg_catalog.string_agg(a.path, '/' order by t.depth)
            from lifecycle.namespaces n
           cross join lateral pg_catalog.unnest(n.traversal_ids) with ordinality as t(id, depth)
            join lifecycle.namespaces a on a.id = t.id
           where n.id = namespace_full_path.namespace_id);
end
$$;

--
-- Name: FUNCTION namespace_full_path(namespace_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_full_path(namespace_id bigint) IS 'Full path of a namespace (root/…/self); null when the namespace does not exist.';

--
-- Name: namespace_hard_delete(bigint, integer); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_hard_delete(namespace_id bigint, batch_size integer DEFAULT NULL::integer) RETURNS TABLE(deleted bigint, remaining bigint, done boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  depth int;
  upper_bound bigint[];
  md jsonb;
  total bigint;
  removed bigint;
  left_over bigint;
begin
  if namespace_id is null then
    raise exception using errcode = 'NS010', message = 'namespace_id is required', hint = 'Pass the id of the namespace to delete.';
  end if;
  batch_size := coalesce(batch_size, (select s.hard_delete_batch_size from lifecycle.settings s));
  if batch_size < 1 then
    raise exception using errcode = 'NS010', message = 'batch_size must be at least 1',
      detail = pg_catalog.format('batch_size=%s', batch_size), hint = 'Pass a positive batch size, or null for the setting.';
  end if;
  if not exists (select from lifecycle.namespaces n where n.id = namespace_hard_delete.namespace_id)
     and exists (select from lifecycle.deleted_namespaces d where d.namespace_id = namespace_hard_delete.namespace_id) then
    return query select 0::bigint, 0::bigint, true;
    return;
  end if;
  ns := lifecycle.namespace_lock(namespace_id);
  if ns.state <> lifecycle.state_code('deletion_in_progress') then
    raise exception using errcode = 'NS001',
      message = pg_catalog.format('cannot hard-delete a namespace that is %s', lifecycle.state_name(ns.state)),
      detail = pg_catalog.format('namespace_id=%s state=%s', ns.id, lifecycle.state_name(ns.state)),
      hint = 'Schedule the deletion, then start it (deletion_start): only deletion_in_progress is removed.';
  end if;

  depth := pg_catalog.cardinality(ns.traversal_ids);
  upper_bound := ns.traversal_ids[1:depth - 1] || (ns.traversal_ids[depth] + 1);
  select d.state_metadata into md from lifecycle.namespace_details d where d.namespace_id = ns.id for update;
  total := (md #>> '{progress,total}')::bigint;
  if total is null then
    select count(*) into total from lifecycle.namespaces d
     where d.traversal_ids > ns.traversal_ids and d.traversal_ids < upper_bound;
  end if;

  -- Deepest first: when a row is in the batch, every deeper row of the subtree is too, so no row
  -- goes before its children.
  with doomed as (
    select d.id from lifecycle.namespaces d
     where d.traversal_ids > ns.traversal_ids and d.traversal_ids < upper_bound
     order by pg_catalog.cardinality(d.traversal_ids) desc, d.id
     limit batch_size
  ), gone as (
    delete from lifecycle.namespaces d using doomed where d.id = doomed.id returning 1
  )
  select count(*) into removed from gone;

  select count(*) into left_over from lifecycle.namespaces d
   where d.traversal_ids > ns.traversal_ids and d.traversal_ids < upper_bound;

  if left_over > 0 then
    -- (lifecycle.details_record is the state record's: a client's value must not spare this write
    -- its check, namespace_details_validate.)
    perform pg_catalog.set_config('lifecycle.details_record', '', true);
    update lifecycle.namespace_details d
       set state_metadata = d.state_metadata || pg_catalog.jsonb_build_object(
             'progress', pg_catalog.jsonb_build_object('done', total - left_over, 'total', total))
     where d.namespace_id = ns.id;
    return query select removed, left_over, false;
    return;
  end if;

  insert into lifecycle.deleted_namespaces (namespace_id, full_path, type, parent_id, traversal_ids,
                                            deletion_scheduled_by, deletion_scheduled_at, descendant_count)
  values (ns.id, lifecycle.namespace_full_path(ns.id), ns.type, ns.parent_id, ns.traversal_ids,
          ns.deletion_scheduled_by, ns.deletion_scheduled_at, total);
  delete from lifecycle.namespaces d where d.id = ns.id;
  return query select removed + 1, 0::bigint, true;
end
$$;

--
-- Name: FUNCTION namespace_hard_delete(namespace_id bigint, batch_size integer); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_hard_delete(namespace_id bigint, batch_size integer) IS 'One batch of a hard delete (deepest first); call until done. Errors: NS001 NS004 NS010.';

--
-- Name: namespace_hard_delete_all(bigint, integer); Type: PROCEDURE; Schema: lifecycle; Owner: -
--

CREATE PROCEDURE lifecycle.namespace_hard_delete_all(IN namespace_id bigint, IN batch_size integer DEFAULT NULL::integer)
    LANGUAGE plpgsql
    AS $$
declare
  finished boolean := false;
begin
  while not finished loop
    select h.done into finished from lifecycle.namespace_hard_delete(namespace_id, batch_size) h;
    commit;
  end loop;
end
$$;

--
-- Name: namespace_import_apply(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_import_apply() RETURNS TABLE(imported bigint, rejected bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
#variable_conflict use_column
declare
  batch record;
  total bigint := 0;
  queued bigint;
begin
  queued := lifecycle.namespace_import_prepare();
  while queued > 0 loop
    select * into batch from lifecycle.namespace_import_batch(50000);
    total := total + batch.imported;
    queued := batch.queued;
  end loop;
  return query select total, lifecycle.namespace_import_finish();
end
$$;

--
-- Name: FUNCTION namespace_import_apply(); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_import_apply() IS 'Import lifecycle.namespace_imports in one transaction: (imported, rejected); rejected rows stay staged with reject_code and reject_reason.';

--
-- Name: namespace_import_batch(integer); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_import_batch(max_rows integer) RETURNS TABLE(imported bigint, rejected bigint, queued bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET jit TO 'off'
    AS $_$
#variable_conflict use_column
declare
  lvl int;
  max_depth constant int := lifecycle.namespace_max_depth();
  noted text;
  n_imported bigint;
  n_rejected bigint;
  first_id bigint;
  last_id bigint;
  states jsonb;
  replica boolean := false;
  after_id bigint;
  from_id bigint;
  taken bigint;
  left_before bigint;
  left_after bigint;
  path_ids bigint[];
  claims tid[];
  skip_rechecks boolean;
begin
  -- For plpgsql_check (no-ops at run time): the queue namespace_import_prepare makes, and the
  -- tables below make.
  perform 'PRAGMA:TABLE: lifecycle_import_queue (level int, like lifecycle.namespace_imports)';
  perform 'PRAGMA:TABLE: lifecycle_import_progress (level int, cursor_id bigint, queued bigint)';
  perform 'PRAGMA:TABLE: lifecycle_import_parents (id bigint)';
  perform 'PRAGMA:TABLE: lifecycle_import_verdicts (id bigint, parent_id bigint, type text, path text, name text, visibility text, state_name text, state smallint, state_permanent boolean, state_pending boolean, preserved smallint, preserved_name text, changed_at timestamptz, changed_by bigint, created_at timestamptz, parent_path bigint[], legacy_path boolean, final_path text, code text, reason text)';
  if max_rows is null or max_rows < 1 then
    raise exception using errcode = 'NS010', message = 'max_rows must be at least 1',
      detail = pg_catalog.format('max_rows=%s', max_rows), hint = 'Pass a positive batch size.';
  end if;
  perform lifecycle.namespace_import_tables_check();
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_queue') is null
     or pg_catalog.to_regclass('pg_temp.lifecycle_import_progress') is null then
    raise exception using errcode = 'NS010', message = 'no import is prepared in this session',
      hint = 'Call lifecycle.namespace_import_prepare() first, or use lifecycle.namespace_import_apply() or CALL lifecycle.namespace_import_run().';
  end if;
  skip_rechecks := lifecycle.namespace_import_skips_rechecks();
  perform 1 from lifecycle.lock_rows l where l.name = 'namespace import' for update;

  -- The queue is read in (level, id) order from where the last batch stopped (its progress row,
  -- which only the import writes), not emptied as it goes; one level per batch, so a row's parent
  -- was imported by an earlier batch, never the same one.
  select p.level, p.cursor_id, p.queued into lvl, after_id, left_before from pg_temp.lifecycle_import_progress p;
  select q.level, q.id into lvl, from_id
    from pg_temp.lifecycle_import_queue q
   where (q.level, q.id) > (lvl, after_id)
   order by q.level, q.id
   limit 1;
  if not found then
    return query select 0::bigint, 0::bigint, 0::bigint;
    return;
  end if;

  -- An earlier batch of this transaction's (namespace_import_apply runs several in one).
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_verdicts') is not null then
    drop table pg_temp.lifecycle_import_verdicts;
    drop table pg_temp.lifecycle_import_parents;
  end if;
  -- Step 1: the batch's parents and their ancestors, shared. (Every lookup of a big table below
  -- goes by its index for the batch's ids, whatever the planner's statistics say of a table that
  -- grows by the batch: an array, or a lateral probe kept from being flattened into a join by
  -- offset 0.)
  create temporary table lifecycle_import_parents on commit drop as
  select distinct q.parent_id as id
    from (select q.parent_id from pg_temp.lifecycle_import_queue q
           where q.level = lvl and q.id >= from_id order by q.id limit max_rows) q
   where q.parent_id is not null;
  analyze pg_temp.lifecycle_import_parents;
  -- A move committed between reading the paths and locking them changes a path: then lock the
  -- new one too (the ones held stay held).
  loop
    select pg_catalog.array_agg(distinct a.id) into path_ids
      from lifecycle.namespaces n
     cross join pg_catalog.unnest(n.traversal_ids) as a (id)
     where n.id = any (array(select p.id from pg_temp.lifecycle_import_parents p));
    perform lifecycle.namespace_lock_path(coalesce(path_ids, '{}'));
    exit when not exists (select from lifecycle.namespaces n
                           cross join pg_catalog.unnest(n.traversal_ids) as a (id)
                           where n.id = any (array(select p.id from pg_temp.lifecycle_import_parents p))
                             and a.id <> all (path_ids));
  end loop;

  -- Every verdict in one statement, over the rows and what their parents are now (committed
  -- and locked): the row rules, first failure wins; then the path each valid row gets. A valid
  -- legacy path is kept; one the rules refuse is normalised, and takes the id as a suffix when the
  -- result is still refused (reserved), a live sibling holds it, or an earlier live row of the batch
  -- does (a valid path before a normalised one, then by id); a valid path held so is a real
  -- duplicate (NS006). Only live rows (not pending deletion) hold a path among their siblings.
  create temporary table lifecycle_import_verdicts on commit drop as
  with staged as (
    select s.id, s.parent_id, s.type, s.path, s.name,
           coalesce(s.visibility, 'private') as visibility,
           coalesce(s.state, 'active') as state_name,
           st.code as state, st.permanent as state_permanent, coalesce(st.pending_deletion, false) as state_pending,
           case when s.preserved_state = 'active' then 0::smallint else ps.code end as preserved,
           ps.permanent as preserved_permanent, s.preserved_state as preserved_name,
           coalesce(s.state_changed_at, s.created_at, pg_catalog.now()) as changed_at,
           s.state_changed_by as changed_by,
           coalesce(s.created_at, pg_catalog.now()) as created_at,
           v.rank as own_rank,
           p.id as parent_found, p.type as parent_type, p.traversal_ids as parent_path, pv.rank as parent_rank,
           p.visibility as parent_visibility,
           used.id is not null as id_used,
           lifecycle.name_refusal(s.name) as name_refused,
           lp.legacy_path
      from (select q.* from pg_temp.lifecycle_import_queue q
             where q.level = lvl and q.id >= from_id order by q.id limit max_rows) s
      left join lifecycle.states st on st.name = case when s.state = 'active' then 'ancestor_inherited'
                                                       else coalesce(s.state, 'ancestor_inherited') end
      left join lifecycle.states ps on ps.name = case when s.preserved_state = 'active' then 'ancestor_inherited'
                                                      else s.preserved_state end
      left join lifecycle.visibility_levels v on v.name = coalesce(s.visibility, 'private')
      left join lateral (select n.id, n.type, n.traversal_ids, n.visibility
                           from lifecycle.namespaces n where n.id = s.parent_id offset 0) p on true
      left join lifecycle.visibility_levels pv on pv.name = p.visibility
      left join lateral (select n.id from lifecycle.namespaces n where n.id = s.id offset 0) used on true
      -- Computed once per row (offset 0: not copied into every expression that reads it).
      cross join lateral (select lifecycle.path_slug_refusal(s.path) is not null
                                   or exists (select from lifecycle.reserved_paths r
                                               where r.path = s.path and (r.scope = 'any' or s.parent_id is null)) as legacy_path
                          offset 0) lp
  ), judged as materialized (
    -- The first rule a row breaks, as "code:reason" (one CASE: cheaper per row than a list of rules).
    select r.*,
           case when r.legacy_path then lifecycle.path_normalised(r.path) else r.path end as wanted_path,
           case
       when r.id < 1 or r.id > 4611686018427387903
         then 'NS010:' || pg_catalog.format('namespace id %s is outside 1 to 4611686018427387903 (2^62 - 1)', r.id)
       when r.id_used then 'NS010:' || pg_catalog.format('namespace id %s is in use', r.id)
       when r.type is null or r.type not in ('organization', 'group', 'project', 'user')
         then 'NS010:' || pg_catalog.format('unknown type %L', r.type)
       when r.type = 'organization' and r.parent_id is not null then 'NS010:an organization has no parent'
       when r.parent_id is not null and r.parent_found is null then 'NS004:' ||
         coalesce((select pg_catalog.format('below rejected row %s (%s: %s)', j.id, j.reject_code, j.reject_reason)
                     from lifecycle.namespace_imports j where j.id = r.parent_id and j.reject_code is not null),
                  pg_catalog.format('parent %s is neither a namespace nor importable', r.parent_id))
       when r.parent_type = 'project' then 'NS010:a project cannot have children'
       when pg_catalog.cardinality(r.parent_path) >= max_depth then 'NS010:' || pg_catalog.format('deeper than %s levels', max_depth)
       when r.own_rank is null then 'NS010:' || pg_catalog.format('unknown visibility %L', r.visibility)
       when r.own_rank > r.parent_rank
         then 'NS002:' || pg_catalog.format('%s, more visible than its parent (%s)', r.visibility, r.parent_visibility)
       when r.name_refused is not null then 'NS010:' || r.name_refused
       when r.path is null or r.path = '' then 'NS010:path is required'
       -- (A valid slug holds no such character: only a legacy path is asked.)
       when r.legacy_path and lifecycle.character_refusal('path', r.path) is not null
         then 'NS010:' || lifecycle.character_refusal('path', r.path)
       when r.state is null then 'NS010:' || pg_catalog.format('unknown state %L', r.state_name)
       when r.state = 5 then 'NS010:a transfer in progress cannot be imported: finish or cancel it first'
       when r.preserved_name is not null and r.preserved is null
         then 'NS010:' || pg_catalog.format('unknown preserved_state %L', r.preserved_name)
       when not r.state_permanent and r.preserved is not null and not r.preserved_permanent
         then 'NS010:' || pg_catalog.format('preserved_state %s is not a permanent state', r.preserved_name)
       when r.state in (2, 4, 6) and not exists (
              select from lifecycle.state_transitions t
               where t.from_state = coalesce(r.preserved, 0)
                 and t.to_state = case when r.state = 4 then 2 else r.state end)
         then 'NS010:' || pg_catalog.format('%s cannot have been reached from %s', r.state_name, coalesce(r.preserved_name, 'active'))
     end as verdict
      from staged r
  ), pathed as (
    select j.*, pg_catalog.split_part(j.verdict, ':', 1) as code, pg_catalog.substr(j.verdict, 7) as reason,
           -- A valid path as staged that a live namespace holds is a real clash (NS006).
           j.verdict is null and not j.legacy_path and not j.state_pending and live.held as path_held,
           j.verdict is null and j.legacy_path
             and (exists (select from lifecycle.reserved_paths r
                           where r.path = j.wanted_path and (r.scope = 'any' or j.parent_id is null))
                  or (not j.state_pending and live.held)) as must_suffix
      from judged j
      -- Whether a live sibling holds the wanted path: one probe of namespaces_live_path_key per
      -- row (a lateral with a limit: never a hashed subplan over the whole, growing table).
      cross join lateral (select exists (select from lifecycle.namespaces n
                                          where coalesce(n.parent_id, 0) = coalesce(j.parent_id, 0) and n.path = j.wanted_path
                                            and n.state <> 2 and n.state <> 4 limit 1) as held
                          offset 0) live
  ), clashing as (
    -- Live rows of the batch that want a path another live row of it wants below the same parent:
    -- the first (a valid path before a normalised one, then by id) keeps it. Rare, so found by
    -- grouping, and only those rows are ranked.
    select x.id, x.rank_on_path, x.path_holder
      from (select p.id,
                   pg_catalog.row_number() over w as rank_on_path,
                   pg_catalog.first_value(p.id) over w as path_holder
              from pathed p
              join (select coalesce(d.parent_id, 0) as parent, d.wanted_path
                      from pathed d
                     where d.code is null and not d.state_pending and not d.must_suffix and not d.path_held
                     group by 1, 2 having count(*) > 1) dup
                on dup.parent = coalesce(p.parent_id, 0) and dup.wanted_path = p.wanted_path
             where p.code is null and not p.state_pending and not p.must_suffix and not p.path_held
            window w as (partition by coalesce(p.parent_id, 0), p.wanted_path order by p.legacy_path, p.id)) x
  ), ranked as (
    select p.*, c.rank_on_path, c.path_holder
      from pathed p
      left join clashing c on c.id = p.id
  )
  select r.id, r.parent_id, r.type, r.path, r.name, r.visibility, r.state_name, r.state, r.state_permanent,
         r.state_pending, r.preserved, r.preserved_name, r.changed_at, r.changed_by, r.created_at, r.parent_path,
         r.legacy_path,
         case when r.code is not null then null
              when r.must_suffix or (r.rank_on_path > 1 and r.legacy_path)
                then pg_catalog.regexp_replace(pg_catalog.left(r.wanted_path, 99 - pg_catalog.length(r.id::text)), '[^a-z0-9]+$', '')
                     || '-' || r.id
              else r.wanted_path end as final_path,
         case when r.code is null and (r.path_held or (r.rank_on_path > 1 and not r.legacy_path)) then 'NS006'
              else r.code end as code,
         case when r.code is null and r.path_held
                then pg_catalog.format('path %s is taken by a live sibling', r.wanted_path)
              when r.code is null and r.rank_on_path > 1 and not r.legacy_path
                then pg_catalog.format('path %s is staged twice below one parent (row %s has it)', r.wanted_path, r.path_holder)
              else r.reason end as reason
    from ranked r;
  select count(*), max(b.id) into taken, after_id from pg_temp.lifecycle_import_verdicts b;
  left_after := left_before - taken;
  update pg_temp.lifecycle_import_progress p set level = lvl, cursor_id = after_id, queued = left_after;

  -- Step 3: claim every path the batch makes live (as namespace_lock_sibling_path does one by
  -- one), in one order. A creation that committed since the verdicts holds its path; one still
  -- running is waited for; one that starts now waits for this batch.
  with claimed as (
    insert into lifecycle.path_claims as c (parent_id, path)
    select b.parent_id, b.final_path
      from pg_temp.lifecycle_import_verdicts b
     where b.code is null and not b.state_pending
     order by b.parent_id, b.final_path
    on conflict do nothing
    returning c.ctid)
  select pg_catalog.array_agg(claimed.ctid) into claims from claimed;
  delete from lifecycle.path_claims c where c.ctid = any (claims);
  -- Checked again under the claims: a path a live namespace holds after all (a creation committed
  -- since the verdicts, or a normalised path with its suffix, by bad luck): NS006.
  update pg_temp.lifecycle_import_verdicts b
     set code = 'NS006', reason = pg_catalog.format('path %s is taken by a live sibling', b.final_path)
   where b.code is null and not b.state_pending
     and exists (select from lifecycle.namespaces n
                  where coalesce(n.parent_id, 0) = coalesce(b.parent_id, 0) and n.path = b.final_path
                    and n.state <> 2 and n.state <> 4);

  -- The rows: no INSERT trigger fires for them (traversal_ids given, lifecycle.importing set).
  noted := lifecycle.transaction_flag_raise('importing')::text || pg_catalog.set_config('lifecycle.importing', 'on', true);
  -- Foreign keys would check each row again for a parent and a namespace checked above (and
  -- locked): when the schema's owner may (a superuser), the batch's writes skip them, and every
  -- trigger, in replica mode, until they are done. Otherwise they run; the outcome is the same.
  -- lifecycle.import_skip_rechecks = off keeps them (the tests run both ways).
  if skip_rechecks then
    begin
      noted := pg_catalog.set_config('session_replication_role', 'replica', true);
      replica := true;
    exception when insufficient_privilege then
      replica := false;
    end;
  end if;
  insert into lifecycle.namespaces (id, parent_id, type, path, name, visibility, state, traversal_ids, created_at,
                                    updated_at, deletion_scheduled_at, deletion_scheduled_by, state_changes)
  select b.id, b.parent_id, b.type, b.final_path, b.name, b.visibility, b.state,
         coalesce(b.parent_path, '{}') || b.id, b.created_at, b.changed_at,
         case when b.state in (2, 4) then b.changed_at end, case when b.state in (2, 4) then b.changed_by end,
         case when b.state in (0, 3) then 0 else 1 end
    from pg_temp.lifecycle_import_verdicts b
   where b.code is null
   order by b.id;
  get diagnostics n_imported = row_count;

  insert into lifecycle.namespace_details (namespace_id, state_metadata)
  select b.id,
         pg_catalog.jsonb_build_object('last_updated_at', b.changed_at, 'last_changed_by_user_id', b.changed_by)
         || case when b.state in (0, 3) then '{}'::jsonb
                 else pg_catalog.jsonb_build_object('previous_state', 'ancestor_inherited') end
         || case when b.state_permanent or b.state = 3 then '{}'::jsonb
                 else pg_catalog.jsonb_build_object('preserved_state',
                        case coalesce(b.preserved, 0) when 0 then 'ancestor_inherited' else b.preserved_name end) end
    from pg_temp.lifecycle_import_verdicts b
   where b.code is null;

  insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
  select b.id, 0, b.state, null, b.changed_by, 'import', '{"reason": "imported"}', b.changed_at
    from pg_temp.lifecycle_import_verdicts b
   where b.code is null and b.state not in (0, 3)
   order by b.id;

  -- The legacy path keeps resolving (lowercased, as namespace_resolve looks it up) when the
  -- normalised one differs by more than case, unless a live sibling holds that lowercase path
  -- (two legacy paths that differed only by case): that one resolves there.
  insert into lifecycle.namespace_redirects (old_full_path, namespace_id, kind, actor_id, new_full_path)
  select coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '') || pg_catalog.lower(b.path), b.id, 'import', null,
         coalesce(lifecycle.namespace_full_path(b.parent_id) || '/', '') || b.final_path
    from pg_temp.lifecycle_import_verdicts b
   where b.code is null and b.legacy_path and pg_catalog.lower(b.path) <> b.final_path
     and not exists (select from lifecycle.namespaces n
                      where coalesce(n.parent_id, 0) = coalesce(b.parent_id, 0) and n.path = pg_catalog.lower(b.path)
                        and n.state <> 2 and n.state <> 4);
  noted := lifecycle.transaction_flag_lower('importing')::text || pg_catalog.set_config('lifecycle.importing', '', true);
  if replica then
    noted := pg_catalog.set_config('session_replication_role', 'origin', true);
  end if;

  delete from lifecycle.namespace_imports s
   where s.id = any (array(select b.id from pg_temp.lifecycle_import_verdicts b where b.code is null));
  update lifecycle.namespace_imports s set reject_code = b.code, reject_reason = b.reason
    from pg_temp.lifecycle_import_verdicts b
   where s.id = b.id and b.code is not null
     and s.id = any (array(select r.id from pg_temp.lifecycle_import_verdicts r where r.code is not null));
  get diagnostics n_rejected = row_count;

  if n_imported > 0 then
    -- New namespaces of the application get ids past every imported one.
    perform pg_catalog.setval('lifecycle.namespaces_id_seq',
      greatest((select s.last_value from lifecycle.namespaces_id_seq s), (select max(b.id) from pg_temp.lifecycle_import_verdicts b where b.code is null)));
    select min(b.id), max(b.id) into first_id, last_id from pg_temp.lifecycle_import_verdicts b where b.code is null;
    select pg_catalog.jsonb_object_agg(c.state_name, c.n) into states
      from (select b.state_name, count(*) as n from pg_temp.lifecycle_import_verdicts b where b.code is null group by 1) c;
    -- One fact for the batch: the audit records the import; no owner is notified, no webhook sent.
    perform lifecycle.fact_emit('namespaces_imported', null, '{}'::bigint[], null, null,
      pg_catalog.jsonb_build_object('imported', n_imported, 'rejected', n_rejected, 'level', lvl,
                                    'first_id', first_id, 'last_id', last_id, 'states', states));
  end if;
  return query select n_imported, n_rejected, left_after;
end
$_$;

--
-- Name: namespace_import_finish(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_import_finish() RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  rejected bigint;
begin
  -- For plpgsql_check (a no-op at run time): the queue namespace_import_prepare makes.
  perform 'PRAGMA:TABLE: lifecycle_import_queue (level int, like lifecycle.namespace_imports)';
  perform lifecycle.namespace_import_tables_check();
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_queue') is null then
    raise exception using errcode = 'NS010', message = 'no import is prepared in this session',
      hint = 'Use lifecycle.namespace_import_apply() or CALL lifecycle.namespace_import_run().';
  end if;
  -- One import at a time (namespace_import_batch takes the same row).
  perform 1 from lifecycle.lock_rows l where l.name = 'namespace import' for update;
  with recursive below (id, blocker) as (
    select s.id, r.id
      from lifecycle.namespace_imports s
      join lifecycle.namespace_imports r on r.id = s.parent_id
     where s.reject_code is null and r.reject_code is not null
    union all
    -- Down from a rejected row: a cycle is never entered from outside it.
    select s.id, b.blocker
      from below b
      join lifecycle.namespace_imports s on s.parent_id = b.id
     where s.reject_code is null
  )
  update lifecycle.namespace_imports s
     set reject_code = 'NS004', reject_reason = pg_catalog.format('below rejected row %s', b.blocker)
    from below b
   where s.id = b.id;
  update lifecycle.namespace_imports s
     set reject_code = 'NS010', reject_reason = 'on or below a cycle of parents'
   where s.reject_code is null
     and not exists (select from pg_temp.lifecycle_import_queue q where q.id = s.id);
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_queue') is not null then
    drop table pg_temp.lifecycle_import_queue;
  end if;
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_progress') is not null then
    drop table pg_temp.lifecycle_import_progress;
  end if;
  select count(*) into rejected from lifecycle.namespace_imports s where s.reject_code is not null;
  return rejected;
end
$$;

--
-- Name: namespace_import_prepare(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_import_prepare() RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET jit TO 'off'
    SET enable_nestloop TO 'off'
    AS $$
declare
  queued bigint;
  added bigint;
  lvl int;
begin
  -- For plpgsql_check (a no-op at run time): the queue made below.
  perform 'PRAGMA:TABLE: lifecycle_import_queue (level int, like lifecycle.namespace_imports)';
  perform 'PRAGMA:TABLE: lifecycle_import_progress (level int, cursor_id bigint, queued bigint)';
  -- Whatever would refuse a batch later refuses now, before a verdict is cleared.
  perform lifecycle.namespace_import_tables_check();
  perform lifecycle.namespace_import_skips_rechecks();
  update lifecycle.namespace_imports s set reject_code = null, reject_reason = null where s.reject_code is not null;
  -- A table just filled by COPY has no statistics; the walk below needs them to choose hash joins
  -- over a million index probes.
  analyze lifecycle.namespace_imports;
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_queue') is not null then
    drop table pg_temp.lifecycle_import_queue;
  end if;
  if pg_catalog.to_regclass('pg_temp.lifecycle_import_progress') is not null then
    drop table pg_temp.lifecycle_import_progress;
  end if;
  -- Level by level, each level written in id order, so the queue lies on disk in the order the
  -- batches read it (a temporary table lives in the session's small local buffers, where random
  -- reads are dear). Each level is one hash join of the staging table with the level above.
  create temporary table lifecycle_import_queue on commit preserve rows as
  select 1 as level, s.*
    from lifecycle.namespace_imports s
   where s.parent_id is null
      or not exists (select from lifecycle.namespace_imports p where p.id = s.parent_id)
   order by s.id;
  get diagnostics added = row_count;
  queued := added;
  lvl := 1;
  -- A staged row is queued once: its parent is queued once (the queue grows down the staged tree,
  -- which has no cycle reachable from a level-1 row). Past the depth limit the batches reject.
  while added > 0 and lvl <= lifecycle.namespace_max_depth() loop
    insert into pg_temp.lifecycle_import_queue
    select lvl + 1, c.*
      from lifecycle.namespace_imports c
     where c.parent_id in (select q.id from pg_temp.lifecycle_import_queue q where q.level = lvl)
     order by c.id;
    get diagnostics added = row_count;
    queued := queued + added;
    lvl := lvl + 1;
  end loop;
  -- Batches read the queue from the start and count down what is left.
  create temporary table lifecycle_import_progress on commit preserve rows as
  select 0 as level, 0::bigint as cursor_id, queued as queued;
  create index on pg_temp.lifecycle_import_queue (level, id);
  analyze pg_temp.lifecycle_import_queue;
  return queued;
end
$$;

--
-- Name: namespace_import_run(integer, bigint, bigint); Type: PROCEDURE; Schema: lifecycle; Owner: -
--

CREATE PROCEDURE lifecycle.namespace_import_run(IN batch_size integer DEFAULT 10000, INOUT imported bigint DEFAULT NULL::bigint, INOUT rejected bigint DEFAULT NULL::bigint)
    LANGUAGE plpgsql
    AS $$
declare
  batch record;
  queued bigint;
  started timestamptz := pg_catalog.clock_timestamp();
  batches int := 0;
  so_far_rejected bigint := 0;
begin
  -- Before the prepare step, which clears the staged rows' verdicts and commits.
  if batch_size is null or batch_size < 1 then
    raise exception using errcode = 'NS010', message = 'batch_size must be at least 1',
      detail = pg_catalog.format('batch_size=%s', batch_size), hint = 'Pass a positive batch size, or none (10000).';
  end if;
  imported := 0;
  queued := lifecycle.namespace_import_prepare();
  commit;
  raise notice 'import: % rows queued', queued;
  while queued > 0 loop
    select * into batch from lifecycle.namespace_import_batch(batch_size);
    commit;
    batches := batches + 1;
    imported := imported + batch.imported;
    so_far_rejected := so_far_rejected + batch.rejected;
    queued := batch.queued;
    raise notice 'import: batch %: % imported, % rejected so far, % queued, % rows/s', batches, imported,
      so_far_rejected, queued,
      pg_catalog.round(imported / greatest(extract(epoch from pg_catalog.clock_timestamp() - started), 0.001));
  end loop;
  rejected := lifecycle.namespace_import_finish();
  commit;
  raise notice 'import: done, % imported, % rejected (left in lifecycle.namespace_imports with reject_code and reject_reason)',
    imported, rejected;
end
$$;

--
-- Name: PROCEDURE namespace_import_run(IN batch_size integer, INOUT imported bigint, INOUT rejected bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON PROCEDURE lifecycle.namespace_import_run(IN batch_size integer, INOUT imported bigint, INOUT rejected bigint) IS 'Import lifecycle.namespace_imports in committed batches with progress; resumable; returns (imported, rejected).';

--
-- Name: namespace_import_skips_rechecks(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_import_skips_rechecks() RETURNS boolean
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
declare
  said constant text := pg_catalog.lower(pg_catalog.btrim(
    coalesce(pg_catalog.current_setting('lifecycle.import_skip_rechecks', true), '')));
begin
  if said in ('', 'on', 'true', 'yes', '1') then
    return true;
  elsif said in ('off', 'false', 'no', '0') then
    return false;
  end if;
  raise exception using errcode = 'NS010', message = 'lifecycle.import_skip_rechecks is neither on nor off',
    hint = 'SET lifecycle.import_skip_rechecks to on or off, or RESET it.';
end
$$;

--
-- Name: namespace_import_tables_check(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_import_tables_check() RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  planted text;
begin
  select c.relname into planted
    from pg_catalog.pg_class c
   where c.relnamespace = pg_catalog.pg_my_temp_schema()
     and c.relname in ('lifecycle_import_queue', 'lifecycle_import_progress', 'lifecycle_import_parents',
                       'lifecycle_import_verdicts')
     and pg_catalog.pg_get_userbyid(c.relowner) <> current_user
   limit 1;
  if found then
    raise exception using errcode = 'NS010',
      message = pg_catalog.format('a temporary table pg_temp.%s that the import did not make is in the way', planted),
      detail = pg_catalog.format('table=pg_temp.%s', planted),
      hint = 'Drop it, or import from another session.';
  end if;
end
$$;

--
-- Name: namespace_lock(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_lock(namespace_id bigint) RETURNS lifecycle.namespaces
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  locked_path bigint[];
  seen_state smallint;
  seen_type text;
  ns lifecycle.namespaces;
  locked text;
begin
  loop
    select n.traversal_ids, n.state, n.type into locked_path, seen_state, seen_type
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
    -- Without bridges this costs one probe of an empty table.
    if exists (select from lifecycle.legacy_bridges) and not lifecycle.transaction_flag_raised('legacy_bridge_applying') then
      locked := lifecycle.legacy_bridge_lock(namespace_lock.namespace_id, seen_type)::text;
    end if;
    -- An assignment, not PERFORM (which would run a whole query to call it).
    locked := lifecycle.namespace_lock_path(locked_path[1:pg_catalog.cardinality(locked_path) - 1])::text;
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

--
-- Name: namespace_lock_path(bigint[], boolean); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_lock_path(ids bigint[], exclusive boolean DEFAULT false) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET enable_seqscan TO 'off'
    SET jit TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
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
end
$$;

--
-- Name: FUNCTION namespace_lock_path(ids bigint[], exclusive boolean); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_lock_path(ids bigint[], exclusive boolean) IS 'Locks the given namespaces'' lock rows (their namespace_details rows): FOR KEY SHARE, root first (step 1 of the global lock order: a path), or FOR UPDATE (step 2: the namespace changed, after its row).';

--
-- Name: namespace_lock_sibling_path(bigint, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_lock_sibling_path(parent_id bigint, path text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  claim tid;
begin
  insert into lifecycle.path_claims as c (parent_id, path)
  values (namespace_lock_sibling_path.parent_id, namespace_lock_sibling_path.path)
  on conflict do nothing
  returning c.ctid into claim;
  delete from lifecycle.path_claims c where c.ctid = claim;
end
$$;

--
-- Name: namespace_max_depth(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_max_depth() RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    RETURN 100;

--
-- Name: FUNCTION namespace_max_depth(); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_max_depth() IS 'Maximum depth of the tree (an organization is level 1); deeper writes and paths are refused with NS010.';

--
-- Name: namespace_members_facts(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_members_facts() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  ns lifecycle.namespaces;
  m lifecycle.namespace_members := case when tg_op = 'DELETE' then old else new end;
begin
  if tg_op = 'UPDATE' and new.access_level = old.access_level then
    return null;
  end if;
  select * into ns from lifecycle.namespaces n where n.id = m.namespace_id;
  if not found then
    return null;
  end if;
  perform lifecycle.fact_emit(
    case tg_op when 'INSERT' then 'member_added' when 'UPDATE' then 'member_changed' else 'member_removed' end,
    m.namespace_id, ns.traversal_ids, lifecycle.namespace_full_path(m.namespace_id),
    null,
    pg_catalog.jsonb_build_object('user_id', m.user_id, 'access_level', m.access_level,
      'previous_access_level', case when tg_op = 'UPDATE' then old.access_level end));
  return null;
end
$$;

--
-- Name: namespace_members_validate(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_members_validate() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if new.access_level is null or new.access_level not in (10, 20, 30, 40, 50) then
    raise exception using errcode = 'NS010', message = pg_catalog.format('invalid access level %s', coalesce(new.access_level::text, 'null')),
      detail = pg_catalog.format('namespace_id=%s user_id=%s access_level=%s', new.namespace_id, new.user_id, new.access_level),
      hint = 'Use a GitLab access level: 10 guest, 20 reporter, 30 developer, 40 maintainer, 50 owner.';
  end if;
  if new.user_id is null then
    raise exception using errcode = 'NS010', message = 'user_id is required',
      detail = pg_catalog.format('namespace_id=%s', new.namespace_id), hint = 'Pass the member''s user id.';
  end if;
  if tg_op = 'INSERT' or new.namespace_id is distinct from old.namespace_id then
    perform 1 from lifecycle.namespaces n where n.id = new.namespace_id for key share;
    if not found then
      raise exception using errcode = 'NS004', message = 'namespace not found',
        detail = pg_catalog.format('namespace_id=%s', new.namespace_id),
        hint = 'Check the id; a hard-deleted namespace is gone for good.';
    end if;
  end if;
  return new;
end
$$;

--
-- Name: namespace_rename(bigint, text, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_rename(id bigint, new_path text, actor_id bigint) RETURNS TABLE(namespace_id bigint, old_full_path text, new_full_path text, changed boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  cfg lifecycle.settings;
  recent int;
  old_path text;
  next_allowed timestamptz;
begin
  if id is null then
    raise exception using errcode = 'NS010', message = 'id is required', hint = 'Pass the id of the namespace to rename.';
  end if;
  ns := lifecycle.namespace_lock(id);
  if new_path is not distinct from ns.path then
    return query select ns.id, lifecycle.namespace_full_path(ns.id), lifecycle.namespace_full_path(ns.id), false;
    return;
  end if;

  perform lifecycle.operation_check(ns, actor_id, 'rename', 'rename', true);

  select * into cfg from lifecycle.settings;
  select count(*), min(r.created_at) + cfg.rename_window into recent, next_allowed
    from lifecycle.namespace_redirects r
   where r.namespace_id = ns.id and r.kind = 'rename' and r.created_at > pg_catalog.now() - cfg.rename_window;
  if recent >= cfg.rename_limit then
    raise exception using errcode = 'NS008',
      message = pg_catalog.format('namespace renamed %s times in the last %s, the limit', recent, cfg.rename_window),
      detail = pg_catalog.format('namespace_id=%s renames=%s rename_limit=%s rename_window=%s', ns.id, recent,
                                 cfg.rename_limit, cfg.rename_window),
      hint = pg_catalog.format('Try again after %s.', next_allowed);
  end if;

  old_path := lifecycle.namespace_full_path(ns.id);
  -- The paths trigger validates the new path (NS010) and that no live sibling has it (NS006).
  -- The fact trigger reads who acted from the context (reset right after).
  perform pg_catalog.set_config('lifecycle.actor_id', coalesce(actor_id::text, ''), true);
  update lifecycle.namespaces n set path = new_path, updated_at = pg_catalog.now() where n.id = ns.id;
  perform pg_catalog.set_config('lifecycle.actor_id', '', true);
  insert into lifecycle.namespace_redirects (old_full_path, namespace_id, kind, actor_id, new_full_path)
  values (old_path, ns.id, 'rename', actor_id, lifecycle.namespace_full_path(ns.id));

  return query select ns.id, old_path, lifecycle.namespace_full_path(ns.id), true;
end
$$;

--
-- Name: FUNCTION namespace_rename(id bigint, new_path text, actor_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_rename(id bigint, new_path text, actor_id bigint) IS 'Change a namespace''s path, keeping a redirect. Errors: NS001 NS002 NS004 NS005 NS006 NS008 NS010.';

--
-- Name: namespace_resolve(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_resolve(full_path text) RETURNS TABLE(namespace_id bigint, canonical_path text, redirected boolean)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
#variable_conflict use_variable
declare
  max_depth constant int := lifecycle.namespace_max_depth();
  segments text[];
  depth int;
  seg text;
  current_id bigint;
  walked int;
  prefixes text[];
  target bigint;
  matched text;
  hops int := 0;
begin
  if full_path is null then
    return;
  end if;
  -- Refused before it is even split: max_depth segments of 100 characters and their slashes,
  -- and the surrounding slashes the lookup ignores.
  if pg_catalog.char_length(full_path) > max_depth * 101 + 1 then
    raise exception using errcode = 'NS010', message = 'path is too long to resolve',
      detail = pg_catalog.format('length=%s max_length=%s', pg_catalog.char_length(full_path), max_depth * 101 + 1),
      hint = pg_catalog.format('A full path has at most %s segments of at most 100 characters.', max_depth);
  end if;
  segments := pg_catalog.string_to_array(pg_catalog.btrim(pg_catalog.lower(full_path), '/'), '/');
  if coalesce(pg_catalog.cardinality(segments), 0) > max_depth then
    raise exception using errcode = 'NS010', message = 'path is too deep to resolve',
      detail = pg_catalog.format('segments=%s max_depth=%s', pg_catalog.cardinality(segments), max_depth),
      hint = pg_catalog.format('A full path has at most %s segments.', max_depth);
  end if;
  loop
    depth := coalesce(pg_catalog.cardinality(segments), 0);
    if depth = 0 then
      return;
    end if;
    -- Walk from the root through the unique index of live paths, one probe per segment, as far
    -- as the path is live.
    current_id := null;
    walked := 0;
    foreach seg in array segments loop
      select n.id into current_id
        from lifecycle.namespaces n
       where coalesce(n.parent_id, 0) = coalesce(current_id, 0)
         and n.path = seg
         and n.state <> 2 and n.state <> 4;
      exit when not found;
      walked := walked + 1;
    end loop;
    if walked = depth then
      return query select current_id, lifecycle.namespace_full_path(current_id), hops > 0;
      return;
    end if;
    if hops = 16 then
      return;
    end if;
    -- Every prefix of the path in one probe; the longest with a redirect wins, then the newest.
    select pg_catalog.array_agg(pg_catalog.array_to_string(segments[1:k], '/'))
      into prefixes
      from pg_catalog.generate_series(1, depth) k;
    select r.namespace_id, r.old_full_path into target, matched
      from lifecycle.namespace_redirects r
     where r.old_full_path = any (prefixes)
     order by pg_catalog.char_length(r.old_full_path) desc, r.id desc
     limit 1;
    if not found then
      return;
    end if;
    -- Into a namespace pending deletion (it, or an ancestor): not found, not a longer chain.
    if exists (select from lifecycle.namespaces t
                 join lifecycle.namespaces a on a.id = any (t.traversal_ids)
                 join lifecycle.states s on s.code = a.state
                where t.id = target and s.pending_deletion) then
      return;
    end if;
    segments := pg_catalog.string_to_array(lifecycle.namespace_full_path(target), '/')
                || segments[pg_catalog.cardinality(pg_catalog.string_to_array(matched, '/')) + 1:depth];
    hops := hops + 1;
  end loop;
end
$$;

--
-- Name: FUNCTION namespace_resolve(full_path text); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_resolve(full_path text) IS 'Live namespace at a full path, following redirects (longest prefix, tail kept, chains followed); no row when not found; NS010 past the depth limit.';

--
-- Name: namespace_set_visibility(bigint, text, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_set_visibility(id bigint, new_visibility text, actor_id bigint) RETURNS TABLE(namespace_id bigint, visibility text, changed boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
begin
  if id is null then
    raise exception using errcode = 'NS010', message = 'id is required', hint = 'Pass the id of the namespace.';
  end if;
  if not exists (select from lifecycle.visibility_levels v where v.name = new_visibility) then
    raise exception using errcode = 'NS010', message = pg_catalog.format('unknown visibility %L', new_visibility),
      hint = (select 'Known levels: ' || pg_catalog.string_agg(v.name, ', ' order by v.rank) || '.' from lifecycle.visibility_levels v);
  end if;
  ns := lifecycle.namespace_lock(id);
  if ns.visibility = new_visibility then
    return query select ns.id, ns.visibility, false;
    return;
  end if;
  perform lifecycle.operation_check(ns, actor_id, 'change_visibility', 'change the visibility of', true);
  -- The fact trigger reads who acted from the context (reset right after).
  -- The context of its triggers, all of it written (visibility_lowering is a move's, never this
  -- call's: a client's value must not let a decrease skip its descendants).
  perform pg_catalog.set_config('lifecycle.actor_id', coalesce(actor_id::text, ''), true),
          pg_catalog.set_config('lifecycle.visibility_lowering', '', true);
  update lifecycle.namespaces n set visibility = new_visibility, updated_at = pg_catalog.now()
   where n.id = ns.id;
  perform pg_catalog.set_config('lifecycle.actor_id', '', true);
  return query select ns.id, new_visibility, true;
end
$$;

--
-- Name: FUNCTION namespace_set_visibility(id bigint, new_visibility text, actor_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_set_visibility(id bigint, new_visibility text, actor_id bigint) IS 'Set visibility (idempotent). Errors: NS001 NS002 NS003 NS004 NS005 NS010.';

--
-- Name: namespace_transfer_accept(bigint, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_transfer_accept(id bigint, actor_id bigint) RETURNS TABLE(request_id bigint, status text, namespace_id bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  r lifecycle.transfer_requests;
  refusal record;
begin
  r := lifecycle.transfer_request_lock_open(id, 'accepted');
  select * into refusal
    from lifecycle.actor_refusal(r.to_parent_id, (select t.traversal_ids from lifecycle.namespaces t where t.id = r.to_parent_id),
           actor_id, (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_accept'),
           'accept namespaces below this parent');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  perform lifecycle.transfer_accept_locked(r, actor_id);
  return query select r.id, 'accepted'::text, r.namespace_id;
end
$$;

--
-- Name: namespace_transfer_cancel(bigint, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_transfer_cancel(id bigint, actor_id bigint) RETURNS TABLE(request_id bigint, status text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  r lifecycle.transfer_requests;
  refusal record;
begin
  r := lifecycle.transfer_request_lock_open(id, 'canceled');
  if actor_id is distinct from r.requested_by then
    select * into refusal
      from lifecycle.actor_refusal(r.namespace_id, (select t.traversal_ids from lifecycle.namespaces t where t.id = r.namespace_id),
             actor_id, (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_cancel'),
             'cancel transfers of this namespace');
    if found then
      raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
    end if;
  end if;
  update lifecycle.transfer_requests t set status = 'canceled', decided_by = actor_id, decided_at = pg_catalog.now()
   where t.id = r.id;
  return query select r.id, 'canceled'::text;
end
$$;

--
-- Name: namespace_transfer_decline(bigint, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_transfer_decline(id bigint, actor_id bigint) RETURNS TABLE(request_id bigint, status text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  r lifecycle.transfer_requests;
  refusal record;
begin
  r := lifecycle.transfer_request_lock_open(id, 'declined');
  select * into refusal
    from lifecycle.actor_refusal(r.to_parent_id, (select t.traversal_ids from lifecycle.namespaces t where t.id = r.to_parent_id),
           actor_id, (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_accept'),
           'decline namespaces offered to this parent');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  update lifecycle.transfer_requests t set status = 'declined', decided_by = actor_id, decided_at = pg_catalog.now()
   where t.id = r.id;
  return query select r.id, 'declined'::text;
end
$$;

--
-- Name: namespace_transfer_execute(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_transfer_execute(namespace_id bigint) RETURNS TABLE(outcome text, old_full_path text, new_full_path text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
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

--
-- Name: FUNCTION namespace_transfer_execute(namespace_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_transfer_execute(namespace_id bigint) IS 'Move an accepted transfer''s subtree (idempotent): outcome completed, failed or noop.';

--
-- Name: namespace_transfer_request(bigint, bigint, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_transfer_request(namespace_id bigint, to_parent_id bigint, actor_id bigint) RETURNS TABLE(request_id bigint, status text, expires_at timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  r lifecycle.transfer_requests;
  refusal record;
begin
  if namespace_id is null or to_parent_id is null then
    raise exception using errcode = 'NS010', message = 'namespace_id and to_parent_id are required',
      hint = 'Pass the namespace to move and its new parent.';
  end if;
  if actor_id is null then
    raise exception using errcode = 'NS010', message = 'actor_id is required',
      hint = 'A transfer is requested by a user: pass their id.';
  end if;
  ns := lifecycle.namespace_lock(namespace_id);
  select * into refusal
    from lifecycle.actor_refusal(ns.id, ns.traversal_ids, actor_id,
           (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_request'),
           'transfer this namespace');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  select * into r from lifecycle.transfer_requests t where t.namespace_id = ns.id and t.status in ('pending', 'accepted');
  if found then
    raise exception using errcode = 'NS009',
      message = pg_catalog.format('namespace already has an open transfer request (%s)', r.status),
      detail = pg_catalog.format('namespace_id=%s request_id=%s status=%s', ns.id, r.id, r.status),
      hint = 'Cancel the open request first, or wait for it to end.';
  end if;
  -- Fail early on what would refuse transfer_start at accept time.
  select * into refusal
    from lifecycle.transition_refusal(ns.id, ns.traversal_ids, ns.state, lifecycle.state_code('transfer_in_progress'), actor_id);
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  select * into refusal from lifecycle.transfer_target_refusal(ns.id, to_parent_id);
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;

  insert into lifecycle.transfer_requests (namespace_id, from_parent_id, to_parent_id, requested_by, expires_at)
  values (ns.id, ns.parent_id, to_parent_id, actor_id,
          pg_catalog.now() + (select s.transfer_request_ttl from lifecycle.settings s))
  returning * into r;

  -- An actor who owns both sides accepts their own offer.
  if not exists (select from lifecycle.actor_refusal(
                   to_parent_id, (select t.traversal_ids from lifecycle.namespaces t where t.id = to_parent_id), actor_id,
                   (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_accept'),
                   'accept')) then
    perform lifecycle.transfer_accept_locked(r, actor_id);
    r.status := 'accepted';
  end if;
  return query select r.id, r.status, r.expires_at;
end
$$;

--
-- Name: FUNCTION namespace_transfer_request(namespace_id bigint, to_parent_id bigint, actor_id bigint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_transfer_request(namespace_id bigint, to_parent_id bigint, actor_id bigint) IS 'Offer a namespace to a new parent; auto-accepted when the actor owns both sides. Errors: NS001-NS006 NS009 NS010.';

--
-- Name: namespace_transition(bigint, text, bigint, jsonb); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_transition(namespace_id bigint, to_state text, actor_id bigint, metadata jsonb DEFAULT '{}'::jsonb) RETURNS SETOF lifecycle.state_change
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
begin
  return query
    select * from lifecycle.namespace_change_state(namespace_transition.namespace_id, namespace_transition.to_state, null,
                                                   namespace_transition.actor_id, namespace_transition.metadata);
end
$$;

--
-- Name: FUNCTION namespace_transition(namespace_id bigint, to_state text, actor_id bigint, metadata jsonb); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_transition(namespace_id bigint, to_state text, actor_id bigint, metadata jsonb) IS 'Move a namespace to a state (names from lifecycle.states, or active). Errors: NS001 NS002 NS003 NS004 NS005 NS010.';

--
-- Name: namespace_type_can_be_parent(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_type_can_be_parent(type text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (type <> ALL ('{project}'::text[]));

--
-- Name: FUNCTION namespace_type_can_be_parent(type text); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_type_can_be_parent(type text) IS 'Whether a namespace of this type may have children (lifecycle.namespace_types.can_be_parent): a digest of lifecycle.namespace_types rewritten by its trigger namespace_types_digest, never by hand.';

--
-- Name: namespace_type_names(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_type_names() RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN '{group,organization,project,user}'::text[];

--
-- Name: FUNCTION namespace_type_names(); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_type_names() IS 'Every namespace type, in the order of their names: a digest of lifecycle.namespace_types rewritten by its trigger namespace_types_digest, never by hand.';

--
-- Name: namespace_type_transferable(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_type_transferable(type text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (type <> ALL ('{organization,user}'::text[]));

--
-- Name: FUNCTION namespace_type_transferable(type text); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.namespace_type_transferable(type text) IS 'Whether a namespace of this type may move to another parent (lifecycle.namespace_types.transferable): a digest of lifecycle.namespace_types rewritten by its trigger namespace_types_digest, never by hand.';

--
-- Name: namespace_types_digest(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_types_digest() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  perform lifecycle.namespace_types_digest_write();
  return null;
end
$$;

--
-- Name: namespace_types_digest_write(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespace_types_digest_write() RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $_$
declare
  predicate record;
  current_fn regprocedure;
  old_names text[];
  new_names text[];
  compared text[];
  old_answers boolean[];
  new_answers boolean[];
  users text;
  indexed boolean;
  rewritten oid[];
  dependent regprocedure;
begin
  if pg_catalog.to_regprocedure('lifecycle.namespace_type_names()') is not null then
    execute 'select lifecycle.namespace_type_names()' into old_names;
  end if;
  select coalesce(pg_catalog.array_agg(t.name order by t.name), '{}') into new_names from lifecycle.namespace_types t;

  -- Each predicate's types whose answer differs from a missing row's (listed); fallback is that
  -- answer.
  for predicate in
    select d.fn, d.fallback, d.description,
           coalesce(pg_catalog.array_agg(t.name order by t.name)
                      filter (where t.name is not null
                                and case d.fn when 'namespace_type_known' then true
                                              when 'namespace_type_root_only' then t.root_only
                                              when 'namespace_type_transferable' then t.transferable
                                              when 'namespace_type_can_be_parent' then t.can_be_parent
                                    end is distinct from d.fallback),
                    '{}') as listed
      from (values
        ('namespace_type_known', false, 'Whether this is a namespace type (a row of lifecycle.namespace_types)'),
        ('namespace_type_root_only', false,
         'Whether a namespace of this type is only ever a root (lifecycle.namespace_types.root_only)'),
        ('namespace_type_transferable', true,
         'Whether a namespace of this type may move to another parent (lifecycle.namespace_types.transferable)'),
        ('namespace_type_can_be_parent', true,
         'Whether a namespace of this type may have children (lifecycle.namespace_types.can_be_parent)')
      ) d(fn, fallback, description)
      left join lifecycle.namespace_types t on true
     group by d.fn, d.fallback, d.description
     order by d.fn
  loop
    current_fn := pg_catalog.to_regprocedure(pg_catalog.format('lifecycle.%I(text)', predicate.fn));
    if current_fn is not null then
      select pg_catalog.string_agg(coalesce('index ' || i.oid::regclass::text,
                                            pg_catalog.format('constraint %I of %s', k.conname, k.conrelid::regclass)),
                                   ', ' order by i.oid, k.oid),
             coalesce(bool_or(i.oid is not null), false)
        into users, indexed
        from pg_catalog.pg_depend d
        left join pg_catalog.pg_class i on d.classid = 'pg_catalog.pg_class'::regclass and i.oid = d.objid and i.relkind = 'i'
        left join pg_catalog.pg_constraint k on d.classid = 'pg_catalog.pg_constraint'::regclass and k.oid = d.objid
       where d.refclassid = 'pg_catalog.pg_proc'::regclass and d.refobjid = current_fn
         and (i.oid is not null or k.oid is not null);
      if users is not null then
        compared := coalesce(old_names, '{}') || case when indexed then new_names else '{}' end;
        execute pg_catalog.format('select pg_catalog.array_agg(lifecycle.%I(n) order by n) from pg_catalog.unnest($1) n', predicate.fn)
          using compared into old_answers;
        select pg_catalog.array_agg((n = any (predicate.listed)) <> predicate.fallback order by n)
          into new_answers
          from pg_catalog.unnest(compared) n;
        if old_answers is distinct from new_answers then
          raise exception using errcode = '2BP01',
            message = pg_catalog.format('cannot change what lifecycle.%s answers while %s uses it', predicate.fn, users),
            detail = pg_catalog.format('types whose answer would change: %s',
                       (select pg_catalog.string_agg(pg_catalog.format('%s (%s -> %s)', n.name, n.was, n.will), ', ' order by n.name)
                          from rows from (pg_catalog.unnest(compared), pg_catalog.unnest(old_answers), pg_catalog.unnest(new_answers))
                               n(name, was, will)
                         where n.was is distinct from n.will)),
            hint = 'Drop those constraints and indexes, change lifecycle.namespace_types, then add them again (sql/README.md, Where a change goes).';
        end if;
      end if;
    end if;
    if predicate.fallback then
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(type text) returns boolean language sql immutable parallel safe
        return type <> all (%L::text[])$f$, predicate.fn, predicate.listed);
    else
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(type text) returns boolean language sql immutable parallel safe
        return type = any (%L::text[])$f$, predicate.fn, predicate.listed);
    end if;
    execute pg_catalog.format('comment on function lifecycle.%I(text) is %L', predicate.fn,
      predicate.description || ': a digest of lifecycle.namespace_types rewritten by its trigger namespace_types_digest, never by hand.');
    rewritten := rewritten || pg_catalog.to_regprocedure(pg_catalog.format('lifecycle.%I(text)', predicate.fn))::oid;
  end loop;

  execute pg_catalog.format($f$
    create or replace function lifecycle.namespace_type_names()
    returns text[]
    language sql
    immutable
    parallel safe
    return %L::text[]$f$, new_names);
  comment on function lifecycle.namespace_type_names() is
    'Every namespace type, in the order of their names: a digest of lifecycle.namespace_types rewritten by its trigger namespace_types_digest, never by hand.';
  rewritten := rewritten || 'lifecycle.namespace_type_names()'::regprocedure::oid;

  for dependent in
    select distinct d.objid::regprocedure
      from pg_catalog.pg_depend d
     where d.classid = 'pg_catalog.pg_proc'::regclass and d.refclassid = 'pg_catalog.pg_proc'::regclass
       and d.refobjid = any (rewritten)
  loop
    execute pg_catalog.format('alter function %s cost %s', dependent,
      (select x.procost from pg_catalog.pg_proc x where x.oid = dependent));
  end loop;
end
$_$;

--
-- Name: namespaces_deletion_guard(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_deletion_guard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if not exists (select from lifecycle.namespaces a
                  where a.id = any (old.traversal_ids) and a.state = lifecycle.state_code('deletion_in_progress')) then
    raise exception using errcode = 'NS001',
      message = 'only a namespace being deleted (deletion_in_progress, or below one) can be removed',
      detail = pg_catalog.format('namespace_id=%s state=%s', old.id, lifecycle.state_name(old.state)),
      hint = 'Schedule the deletion and start it; lifecycle.namespace_hard_delete removes the rows.';
  end if;
  return old;
end
$$;

--
-- Name: namespaces_effective_states(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_effective_states() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  -- For plpgsql_check (a no-op at run time): the transition table.
  perform 'PRAGMA:TABLE: gone (id bigint)';
  perform 1 from lifecycle.lock_rows l where l.name = 'effective_states' for key share;
  delete from lifecycle.effective_states e using gone g where e.namespace_id = g.id;
  return null;
end
$$;

--
-- Name: namespaces_facts(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_facts() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  actor bigint;
  parent_path text;
begin
  if tg_op = 'INSERT' then
    perform lifecycle.fact_emit('namespace_created', new.id, new.traversal_ids, lifecycle.namespace_full_path(new.id), null,
      pg_catalog.jsonb_build_object('type', new.type, 'path', new.path, 'name', new.name, 'parent_id', new.parent_id,
                                    'visibility', new.visibility, 'state', lifecycle.state_name(new.state)));
    return null;
  end if;
  actor := nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint;
  if new.path is distinct from old.path then
    parent_path := lifecycle.namespace_full_path(new.parent_id);
    perform lifecycle.fact_emit('renamed', new.id, new.traversal_ids, lifecycle.namespace_full_path(new.id), actor,
      pg_catalog.jsonb_build_object('old_path', old.path, 'new_path', new.path,
                                    'old_full_path', coalesce(parent_path || '/', '') || old.path,
                                    'new_full_path', coalesce(parent_path || '/', '') || new.path));
  end if;
  if new.visibility is distinct from old.visibility
     and not (pg_catalog.pg_trigger_depth() > 1
              and coalesce(pg_catalog.current_setting('lifecycle.visibility_lowering', true), '') = any (old.traversal_ids::text[])) then
    perform lifecycle.fact_emit('visibility_changed', new.id, new.traversal_ids, lifecycle.namespace_full_path(new.id), actor,
      pg_catalog.jsonb_build_object('from', old.visibility, 'to', new.visibility));
  end if;
  return null;
end
$$;

--
-- Name: namespaces_moves(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_moves() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if new.parent_id is distinct from old.parent_id and old.state <> lifecycle.state_code('transfer_in_progress') then
    raise exception using errcode = 'NS001',
      message = pg_catalog.format('a namespace moves only while transfer_in_progress, not %s', lifecycle.state_name(old.state)),
      detail = pg_catalog.format('namespace_id=%s state=%s', old.id, lifecycle.state_name(old.state)),
      hint = 'Request a transfer (lifecycle.namespace_transfer_request).';
  end if;
  return new;
end
$$;

--
-- Name: namespaces_paths(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_paths() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  refusal text;
  holder bigint;
  locked text;
begin
  if tg_op = 'INSERT' or new.path is distinct from old.path or new.parent_id is distinct from old.parent_id then
    refusal := lifecycle.path_refusal(new.path, new.parent_id);
    if refusal is not null then
      raise exception using errcode = 'NS010', message = 'invalid path', detail = refusal,
        hint = 'Use lowercase letters, digits, and _ - . inside; avoid the names in lifecycle.reserved_paths.';
    end if;
  end if;
  if tg_op = 'INSERT' or new.name is distinct from old.name then
    refusal := lifecycle.name_refusal(new.name);
    if refusal is not null then
      raise exception using errcode = 'NS010', message = 'invalid name', detail = refusal,
        hint = 'Use 1 to 255 characters without control characters.';
    end if;
  end if;
  if tg_op = 'UPDATE' and new.path = old.path and new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  -- A namespace pending deletion does not hold its path.
  if not lifecycle.state_path_live(new.state) then
    return new;
  end if;
  -- (An assignment, not PERFORM, which would run a whole query to call it.)
  locked := lifecycle.namespace_lock_sibling_path(new.parent_id, new.path)::text;
  select n.id into holder
    from lifecycle.namespaces n
   where coalesce(n.parent_id, 0) = coalesce(new.parent_id, 0) and n.path = new.path
     and lifecycle.state_path_live(n.state) and n.id <> new.id;
  if found then
    raise exception using errcode = 'NS006',
      message = pg_catalog.format('path %s is taken', coalesce(lifecycle.namespace_full_path(new.parent_id) || '/', '') || new.path),
      detail = pg_catalog.format('parent_id=%s path=%s taken_by_namespace_id=%s', new.parent_id, new.path, holder),
      hint = 'Choose another path.';
  end if;
  return new;
end
$$;

--
-- Name: namespaces_state_gate(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_state_gate() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  from_state smallint;
  refusal record;
  actor bigint;
  -- What lifecycle.states says of the two states, read once.
  from_pending boolean;
  to_pending boolean;
  from_permanent boolean;
  to_permanent boolean;
  locked text;
  happened timestamptz;
  operation text;
begin
  if tg_op = 'UPDATE' then
    if new.state = old.state then
      return new;
    end if;
    if new.parent_id is distinct from old.parent_id then
      raise exception using errcode = 'NS010', message = 'change state and parent in separate statements',
        detail = pg_catalog.format('namespace_id=%s', new.id),
        hint = 'Moves go through a transfer; state changes through lifecycle.namespace_transition.';
    end if;
    from_state := old.state;
  end if;

  -- Guards read other rows. Under REPEATABLE READ those reads come from a snapshot taken before the
  -- locks below were granted, so two concurrent changes could each miss the other. READ COMMITTED
  -- re-reads after the locks; SERIALIZABLE detects the conflict.
  if pg_catalog.current_setting('transaction_isolation') = 'repeatable read' then
    raise exception using errcode = 'NS010',
      message = 'namespace state changes need READ COMMITTED or SERIALIZABLE isolation',
      detail = pg_catalog.format('namespace_id=%s transaction_isolation=repeatable read', new.id),
      hint = 'Run the change in a READ COMMITTED (the default) or SERIALIZABLE transaction.';
  end if;

  select f.pending_deletion, f.permanent, t.pending_deletion, t.permanent
    into from_pending, from_permanent, to_pending, to_permanent
    from lifecycle.states t
    left join lifecycle.states f on f.code = from_state
   where t.code = new.state;
  if tg_op = 'UPDATE' then
    -- Steps 1 and 2 of the lock order: the ancestors' keys shared, root first, so none changes
    -- state or moves before this commits, then this namespace's own key exclusively, so every
    -- change below it has committed and none starts before this commits. A raw UPDATE takes them
    -- here (after its row: see namespace_lock_path). The API took them already, around the row
    -- (namespace_lock), and says so for this row and this UPDATE only (path_locked, set and
    -- cleared around it by namespace_change_state): the row has been locked since, so its path is
    -- the one locked, and locking it again would only repeat the work. (An INSERT's path was
    -- locked by the traversal_ids trigger.) Trusting a setting is safe here: only the table's owner
    -- and superusers may UPDATE state directly, and they could as well disable this trigger.
    -- (Assignments, not PERFORM, which would run a whole query to call each.)
    if pg_catalog.current_setting('lifecycle.path_locked', true) is distinct from new.id::text then
      locked := lifecycle.namespace_lock_path(old.traversal_ids[1:pg_catalog.cardinality(old.traversal_ids) - 1])::text
             || lifecycle.namespace_lock_path(array[new.id], true)::text;
    end if;
    -- Leaving a pending deletion takes the path again: hold its name (step 3 of the lock order)
    -- while transition_refusal checks that no live sibling took it meanwhile.
    if from_pending and not to_pending then
      locked := lifecycle.namespace_lock_sibling_path(new.parent_id, new.path)::text;
    end if;
  end if;

  if tg_op = 'UPDATE' then
    actor := nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint;
    operation := nullif(pg_catalog.current_setting('lifecycle.operation', true), '');
  end if;
  select * into refusal
    from lifecycle.transition_refusal(new.id, new.traversal_ids, from_state, new.state, actor, operation);
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail,
      hint = refusal.hint;
  end if;

  if tg_op = 'UPDATE' then
    -- When the change happened: now, or the legacy time a bridged change carries
    -- (namespace_change_state's changed_at).
    happened := coalesce(nullif(pg_catalog.current_setting('lifecycle.changed_at', true), '')::timestamptz, pg_catalog.now());
    new.updated_at := happened;
    -- Counted here, apart from the history rows, so lifecycle.check_invariants can tell a state
    -- change that lost its history row.
    new.state_changes := old.state_changes + 1;
    -- Who scheduled the deletion and when: set when it is scheduled from a permanent state, kept
    -- while the deletion runs or is requeued, cleared when the namespace is restored.
    if to_permanent then
      new.deletion_scheduled_at := null;
      new.deletion_scheduled_by := null;
    elsif lifecycle.state_deletion_adjourned(new.state) and from_permanent then
      new.deletion_scheduled_at := happened;
      new.deletion_scheduled_by := actor;
    end if;
  end if;
  return new;
end
$$;

--
-- Name: namespaces_state_record(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_state_record() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET enable_seqscan TO 'off'
    SET jit TO 'off'
    AS $$
declare
  actor bigint;
  call_metadata jsonb;
  call_keys jsonb;
  from_operation text;
  from_name text;
  to_name text;
  action text;
  full_path text;
  call_event text;
  call_source text;
  update_id bigint;
  happened timestamptz;
  noted text;
begin
  if tg_op = 'INSERT' then
    insert into lifecycle.namespace_details (namespace_id, state_metadata)
    values (new.id, pg_catalog.jsonb_build_object('last_updated_at', pg_catalog.now(),
                                                  'last_changed_by_user_id', null));
    return null;
  end if;

  if new.state = old.state then
    return null;
  end if;
  actor := nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint;
  call_metadata := coalesce(nullif(pg_catalog.current_setting('lifecycle.metadata', true), '')::jsonb, '{}');
  -- The call's keys are merged, but for two: reason explains this one change and stays in its
  -- history row; preserved_state is the gate's alone (a caller must not redirect a later restore).
  -- The keys set here override whatever the call passed.
  call_keys := call_metadata - array['reason', 'preserved_state'];
  call_event := nullif(pg_catalog.current_setting('lifecycle.event', true), '');
  call_source := coalesce(nullif(pg_catalog.current_setting('lifecycle.source', true), ''), 'sql');
  -- When the change happened: now, or the legacy time a bridged change carries.
  happened := coalesce(nullif(pg_catalog.current_setting('lifecycle.changed_at', true), '')::timestamptz, pg_catalog.now());

  -- One statement reads the two states (lifecycle.states) and the fact's action and full path,
  -- and reads and writes the details row, its row lock taken by the UPDATE (step 4 of the lock
  -- order), so the row is validated once.
  -- progress belongs to the state it was recorded in: a new state starts without it, unless the
  -- call reports one (a finished move's). Back in a permanent state, the temporary run is over,
  -- and with it preserved_state and the attempts; leaving a permanent state for a temporary one
  -- records it as preserved_state; between temporary states it is kept. The keys built here are
  -- trusted by namespace_details_validate for this UPDATE only (lifecycle.details_record).
  noted := pg_catalog.set_config('lifecycle.details_record', new.id::text, true);
  loop
    update lifecycle.namespace_details d
       set state_metadata =
             ((((d.state_metadata - 'progress') || call_keys
                || pg_catalog.jsonb_build_object('last_updated_at', happened, 'last_changed_by_user_id', actor,
                                                 'previous_state', f.name))
               - case when t.permanent then array['preserved_state', 'attempt_count'] else '{}'::text[] end)
              || case when f.permanent and not t.permanent then pg_catalog.jsonb_build_object('preserved_state', f.name)
                      else '{}'::jsonb end)
      from lifecycle.states f
      join lifecycle.states t on t.code = new.state
      left join lifecycle.state_transitions tr on tr.from_state = f.code and tr.to_state = t.code
     where d.namespace_id = new.id and f.code = old.state
    returning f.operation, f.name, t.name, tr.audit_action,
              (select pg_catalog.string_agg(a.path, '/' order by p.depth)
                 from pg_catalog.unnest(new.traversal_ids) with ordinality as p(id, depth)
                 join lifecycle.namespaces a on a.id = p.id)
      into from_operation, from_name, to_name, action, full_path;
    exit when found;
    -- No details row (removed by hand): started afresh, empty, then written as above.
    insert into lifecycle.namespace_details (namespace_id, state_metadata) values (new.id, '{}');
  end loop;
  noted := pg_catalog.set_config('lifecycle.details_record', '', true);

  insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
  values (new.id, old.state, new.state, call_event, actor, call_source, call_metadata, happened)
  returning id into update_id;
  -- History rows of source import have no fact each (the import emits one per batch), whoever
  -- writes them. An assignment, not PERFORM (which would run a whole query to call it);
  -- fact_emit returns void.
  if call_source <> 'import' then
    noted := lifecycle.fact_emit(action, new.id, new.traversal_ids, full_path, actor,
      pg_catalog.jsonb_build_object('from_state', from_name, 'to_state', to_name, 'event', call_event,
                                    'source', call_source, 'metadata', call_metadata, 'state_update_id', update_id))::text;
  end if;

  if from_operation = 'transfer' then
    -- The request row was locked first by namespace_lock (step 0 of the lock order) on the API's
    -- path; a raw UPDATE takes it here.
    update lifecycle.transfer_requests t
       set status = 'failed', completed_at = pg_catalog.now(),
           last_error = pg_catalog.format('the transfer ended without its move: the namespace went to %s (%s)', to_name,
                                          coalesce('event ' || call_event, 'a direct change'))
     where t.namespace_id = new.id and t.status = 'accepted';
  end if;
  return null;
end
$$;

--
-- Name: namespaces_traversal_ids_cascade(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_traversal_ids_cascade() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  depth int := pg_catalog.cardinality(old.traversal_ids);
begin
  -- Descendants of X sort after X and before X with its last element + 1; the btree on
  -- traversal_ids serves this range, so the cost is the subtree, never the table.
  update lifecycle.namespaces d
     set traversal_ids = new.traversal_ids || d.traversal_ids[depth + 1:]
   where d.traversal_ids > old.traversal_ids
     and d.traversal_ids < old.traversal_ids[1:depth - 1] || (old.traversal_ids[depth] + 1);
  return null;
end
$$;

--
-- Name: namespaces_traversal_ids_maintain(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_traversal_ids_maintain() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  parent_type text;
  parent_traversal_ids bigint[];
  locked_path bigint[];
begin
  if tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id then
    -- The only legitimate writer of traversal_ids alone is the cascade trigger, one level down.
    if new.traversal_ids is distinct from old.traversal_ids and pg_catalog.pg_trigger_depth() < 2 then
      raise exception using
        errcode = 'NS010',
        message = 'traversal_ids is maintained by the database',
        detail = pg_catalog.format('namespace_id=%s', new.id),
        hint = 'Change parent_id (through a transfer) and the database recomputes traversal_ids.';
    end if;
    return new;
  end if;

  if new.type is null or not lifecycle.namespace_type_known(new.type) then
    raise exception using
      errcode = 'NS010',
      message = pg_catalog.format('unknown namespace type %L', new.type),
      detail = pg_catalog.format('type=%s', new.type),
      hint = pg_catalog.format('A namespace is of one of the types in lifecycle.namespace_types: %s.',
                               pg_catalog.array_to_string(lifecycle.namespace_type_names(), ', '));
  end if;
  if new.parent_id is not null and lifecycle.namespace_type_root_only(new.type) then
    raise exception using
      errcode = 'NS010',
      message = pg_catalog.format('a namespace of type %s has no parent', new.type),
      detail = pg_catalog.format('parent_id=%s type=%s', new.parent_id, new.type),
      hint = pg_catalog.format('Create a namespace of type %s at the root.', new.type);
  end if;

  if new.parent_id is null then
    new.traversal_ids := array[new.id];
    return new;
  end if;

  -- Lock the parent's path root first (step 1 of the global lock order, namespace_lock_path; row
  -- locks, which a bulk INSERT may take by the thousand): the parent and its ancestors must not
  -- move, nor change state, until this row commits, so the path copied here stays true. A move
  -- committed between the read and the lock changes the path; then lock the new one.
  loop
    select n.traversal_ids into locked_path from lifecycle.namespaces n where n.id = new.parent_id;
    if not found then
      raise exception using
        errcode = 'NS004',
        message = 'parent namespace not found',
        detail = pg_catalog.format('parent_id=%s', new.parent_id),
        hint = 'Create the parent first, or pass the id of an existing namespace.';
    end if;
    perform lifecycle.namespace_lock_path(locked_path);
    select n.type, n.traversal_ids
      into parent_type, parent_traversal_ids
      from lifecycle.namespaces n
     where n.id = new.parent_id;
    exit when parent_traversal_ids = locked_path;
  end loop;

  if not lifecycle.namespace_type_can_be_parent(parent_type) then
    raise exception using
      errcode = 'NS010',
      message = pg_catalog.format('a %s cannot have children', parent_type),
      detail = pg_catalog.format('parent_id=%s type=%s', new.parent_id, parent_type),
      hint = pg_catalog.format('Place the namespace under a namespace of a type that takes children: %s.',
                               (select pg_catalog.string_agg(t.name, ', ' order by t.name)
                                  from lifecycle.namespace_types t where t.can_be_parent));
  end if;

  if new.id = any (parent_traversal_ids) then
    raise exception using
      errcode = 'NS010',
      message = 'a namespace cannot be placed below itself',
      detail = pg_catalog.format('namespace_id=%s parent_id=%s', new.id, new.parent_id),
      hint = 'Choose a parent outside the namespace''s own subtree.';
  end if;

  if pg_catalog.cardinality(parent_traversal_ids) >= lifecycle.namespace_max_depth() then
    raise exception using
      errcode = 'NS010',
      message = pg_catalog.format('a namespace cannot be deeper than %s levels', lifecycle.namespace_max_depth()),
      detail = pg_catalog.format('parent_id=%s parent_depth=%s max_depth=%s', new.parent_id,
                                 pg_catalog.cardinality(parent_traversal_ids), lifecycle.namespace_max_depth()),
      hint = 'Place the namespace higher in the tree.';
  end if;

  new.traversal_ids := parent_traversal_ids || new.id;
  return new;
end
$$;

--
-- Name: namespaces_visibility(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.namespaces_visibility() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  own_rank smallint;
  parent_visibility text;
  parent_rank smallint;
  depth int := pg_catalog.cardinality(new.traversal_ids);
  hit_id bigint;
  hit_visibility text;
  lowered bigint;
  noted text;
begin
  if tg_op = 'UPDATE' and new.visibility = old.visibility and new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  select v.rank into own_rank from lifecycle.visibility_levels v where v.name = new.visibility;
  if own_rank is null then
    raise exception using errcode = 'NS010', message = pg_catalog.format('unknown visibility %L', new.visibility),
      detail = pg_catalog.format('namespace_id=%s visibility=%s', new.id, new.visibility),
      hint = (select 'Known visibilities: ' || pg_catalog.string_agg(v.name, ', ' order by v.rank) || '.'
                from lifecycle.visibility_levels v);
  end if;
  if new.parent_id is not null then
    select p.visibility, v.rank into parent_visibility, parent_rank
      from lifecycle.namespaces p
      join lifecycle.visibility_levels v on v.name = p.visibility
     where p.id = new.parent_id;
    if own_rank > parent_rank and tg_op = 'UPDATE' and new.parent_id is distinct from old.parent_id then
      -- A move below a less visible parent. The subtree still has its old traversal_ids (the
      -- cascade runs after this row); its rows are lowered in one statement, which their own run
      -- of this trigger recognises by lifecycle.visibility_lowering: the whole subtree goes to the
      -- same cap, so none is checked against a descendant not lowered yet, and none emits a fact
      -- of its own.
      noted := pg_catalog.set_config('lifecycle.visibility_lowering', new.id::text, true);
      with done as (
        update lifecycle.namespaces d
           set visibility = parent_visibility, updated_at = pg_catalog.now()
         where d.visibility <> 'private'
           and d.visibility = any (array(select v.name from lifecycle.visibility_levels v where v.rank > parent_rank))
           and d.traversal_ids > old.traversal_ids
           and d.traversal_ids < old.traversal_ids[1:pg_catalog.cardinality(old.traversal_ids) - 1]
                                 || (old.traversal_ids[pg_catalog.cardinality(old.traversal_ids)] + 1)
        returning 1)
      select count(*) into lowered from done;
      noted := pg_catalog.set_config('lifecycle.visibility_lowering', '', true)
            || pg_catalog.set_config('lifecycle.visibility_lowered', new.id || ':' || (lowered + 1), true);
      -- The facts trigger fires only for columns the UPDATE names, and a move names parent_id:
      -- the moved namespace's fact is emitted here (it commits or rolls back with the move).
      perform lifecycle.fact_emit('visibility_changed', new.id, new.traversal_ids,
        coalesce(lifecycle.namespace_full_path(new.parent_id) || '/', '') || new.path,
        nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint,
        pg_catalog.jsonb_build_object('from', old.visibility, 'to', parent_visibility, 'reason', 'transfer',
                                      'parent_id', new.parent_id, 'namespaces_lowered', lowered + 1));
      new.visibility := parent_visibility;
      return new;
    end if;
    if own_rank > parent_rank then
      raise exception using errcode = 'NS002',
        message = pg_catalog.format('a namespace cannot be more visible than its parent %s, which is %s',
                                    lifecycle.namespace_full_path(new.parent_id), parent_visibility),
        detail = pg_catalog.format('namespace_id=%s visibility=%s parent_id=%s parent_visibility=%s', new.id,
                                   new.visibility, new.parent_id, parent_visibility),
        hint = pg_catalog.format('Choose %s or less, or make %s more visible first.', parent_visibility,
                                 lifecycle.namespace_full_path(new.parent_id));
    end if;
  end if;
  -- A row lowered with its whole subtree by a move (above) is not checked against its descendants:
  -- they are lowered by the same statement. Recognised by the marker and by running one trigger
  -- level down (inside the move's trigger), which no client statement can fake.
  if tg_op = 'UPDATE' and own_rank < (select v.rank from lifecycle.visibility_levels v where v.name = old.visibility)
     and not (pg_catalog.pg_trigger_depth() > 1
              and coalesce(pg_catalog.current_setting('lifecycle.visibility_lowering', true), '') = any (old.traversal_ids::text[])) then
    select d.id, d.visibility into hit_id, hit_visibility
      from lifecycle.namespaces d
     where d.visibility <> 'private'
       and d.visibility = any (array(select v.name from lifecycle.visibility_levels v where v.rank > own_rank))
       and d.traversal_ids > new.traversal_ids
       and d.traversal_ids < new.traversal_ids[1:depth - 1] || (new.traversal_ids[depth] + 1)
     limit 1;
    if found then
      raise exception using errcode = 'NS003',
        message = pg_catalog.format('descendant %s is %s, more visible than %s', lifecycle.namespace_full_path(hit_id),
                                    hit_visibility, new.visibility),
        detail = pg_catalog.format('namespace_id=%s visibility=%s descendant_id=%s descendant_visibility=%s', new.id,
                                   new.visibility, hit_id, hit_visibility),
        hint = pg_catalog.format('Make %s %s or less first.', lifecycle.namespace_full_path(hit_id), new.visibility);
    end if;
  end if;
  return new;
end
$$;

--
-- Name: operation_check(lifecycle.namespaces, bigint, text, text, boolean); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.operation_check(ns lifecycle.namespaces, actor_id bigint, operation text, action text, needs_writable boolean) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  refusal record;
begin
  select * into refusal
    from lifecycle.actor_refusal(ns.id, ns.traversal_ids, actor_id,
           (select p.min_access_level from lifecycle.operation_policies p where p.operation = operation_check.operation),
           action || ' this namespace');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  if needs_writable then
    select * into refusal from lifecycle.read_only_refusal(ns.id, action);
    if found then
      raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
    end if;
  end if;
end
$$;

--
-- Name: path_normalised(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.path_normalised(legacy text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN COALESCE(NULLIF(regexp_replace("left"(regexp_replace(regexp_replace(regexp_replace(regexp_replace(lower(legacy), '[^a-z0-9._-]+'::text, '-'::text, 'g'::text), '\.{2,}'::text, '.'::text, 'g'::text), '^[^a-z0-9]+|[^a-z0-9]+$'::text, ''::text, 'g'::text), '\.(git|atom)$'::text, '-\1'::text), 100), '[^a-z0-9]+$'::text, ''::text), ''::text), 'namespace'::text);

--
-- Name: FUNCTION path_normalised(legacy text); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.path_normalised(legacy text) IS 'The path an import gives a legacy path the path rules refuse (lowercase slug, at most 100 characters).';

--
-- Name: path_refusal(text, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.path_refusal(path text, parent_id bigint) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
begin
  return coalesce(lifecycle.path_slug_refusal(path),
    case when exists (select from lifecycle.reserved_paths r
                       where r.path = path_refusal.path and (r.scope = 'any' or path_refusal.parent_id is null))
      then pg_catalog.format('path %L is reserved', path) end);
end
$$;

--
-- Name: path_slug_refusal(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.path_slug_refusal(path text) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN CASE WHEN ((path ~ '^(?!.*\.\.)(?!.*\.(git|atom)$)[a-z0-9]([a-z0-9._-]*[a-z0-9])?$'::text) AND (length(path) <= 100)) THEN NULL::text WHEN (path IS NULL) THEN 'path is required'::text WHEN (lifecycle.character_refusal('path'::text, path) IS NOT NULL) THEN lifecycle.character_refusal('path'::text, path) WHEN (length(path) > 100) THEN format('path is %s characters long, more than 100'::text, length(path)) WHEN (path !~ '^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$'::text) THEN format('path %L is not a lowercase slug (a-z, 0-9, _ - . inside; a letter or digit at both ends)'::text, path) WHEN (path ~ '\.\.'::text) THEN format('path %L contains ".."'::text, path) WHEN (path ~ '\.(git|atom)$'::text) THEN format('path %L ends in .git or .atom'::text, path) ELSE NULL::text END;

--
-- Name: placeholder_036(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.placeholder_036() RETURNS integer
    LANGUAGE sql IMMUTABLE
    RETURN 36;

--
-- Name: placeholder_037(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.placeholder_037() RETURNS integer
    LANGUAGE sql IMMUTABLE
    RETURN 37;

--
-- Name: placeholder_038(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.placeholder_038() RETURNS integer
    LANGUAGE sql IMMUTABLE
    RETURN 38;

--
-- Name: placeholder_039(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.placeholder_039() RETURNS integer
    LANGUAGE sql IMMUTABLE
    RETURN 39;

--
-- Name: read_only_refusal(bigint, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.read_only_refusal(namespace_id bigint, action text) RETURNS TABLE(code text, message text, detail text, hint text)
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select case when a.id = n.id then 'NS001' else 'NS002' end,
         case when a.id = n.id
           then pg_catalog.format('cannot %s a namespace that is %s', action, s.name)
           else pg_catalog.format('cannot %s a namespace below %s, which is %s', action,
                                  lifecycle.namespace_full_path(a.id), s.name) end,
         pg_catalog.format('namespace_id=%s read_only_namespace_id=%s state=%s', n.id, a.id, s.name),
         pg_catalog.format('Bring %s back to active first.', lifecycle.namespace_full_path(a.id))
    from lifecycle.namespaces n
    join lifecycle.namespaces a on a.id = any (n.traversal_ids)
    join lifecycle.states s on s.code = a.state
   where n.id = read_only_refusal.namespace_id and s.read_only
   order by pg_catalog.cardinality(a.traversal_ids) desc
   limit 1
$$;

--
-- Name: settings_confirmed(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.settings_confirmed() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if not lifecycle.transaction_flag_raised('importing') then
    raise exception using errcode = 'NS010', message = 'lifecycle.importing is set outside the import',
      detail = pg_catalog.format('table=%s setting=lifecycle.importing', tg_table_name),
      hint = 'RESET lifecycle.importing: the import and the legacy backfill set it for their own statements.';
  end if;
  return new;
end
$$;

--
-- Name: settings; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.settings (
    singleton boolean DEFAULT true NOT NULL,
    deletion_adjourned_period_days integer DEFAULT 7 NOT NULL,
    transfer_request_ttl interval DEFAULT '7 days'::interval NOT NULL,
    rename_limit integer DEFAULT 5 NOT NULL,
    rename_window interval DEFAULT '30 days'::interval NOT NULL,
    sweep_batch_size integer DEFAULT 100 NOT NULL,
    hard_delete_batch_size integer DEFAULT 1000 NOT NULL,
    delete_now_allowed boolean DEFAULT true NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    webhook_allowed_hosts text[] DEFAULT '{}'::text[] NOT NULL,
    CONSTRAINT settings_singleton_check CHECK (singleton)
);

--
-- Name: TABLE settings; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.settings IS 'Operational settings, one row; every change is validated (NS010).';

--
-- Name: COLUMN settings.webhook_allowed_hosts; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.settings.webhook_allowed_hosts IS 'Hosts (lower-case names, matched exactly) and addresses or CIDR ranges webhooks may be sent to although they are loopback, private, link-local, …: the operator''s own receivers. Empty: public addresses only.';

--
-- Name: settings_refusal(lifecycle.settings); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.settings_refusal(s lifecycle.settings) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
  select case
    when s.deletion_adjourned_period_days is null or s.deletion_adjourned_period_days not between 1 and 90
      then pg_catalog.format('deletion_adjourned_period_days must be 1 to 90, not %s', s.deletion_adjourned_period_days)
    when s.transfer_request_ttl is null or s.transfer_request_ttl < interval '1 minute' or s.transfer_request_ttl > interval '90 days'
      then pg_catalog.format('transfer_request_ttl must be 1 minute to 90 days, not %s', s.transfer_request_ttl)
    when s.rename_limit is null or s.rename_limit not between 1 and 1000
      then pg_catalog.format('rename_limit must be 1 to 1000, not %s', s.rename_limit)
    when s.rename_window is null or s.rename_window < interval '1 minute' or s.rename_window > interval '365 days'
      then pg_catalog.format('rename_window must be 1 minute to 365 days, not %s', s.rename_window)
    when s.sweep_batch_size is null or s.sweep_batch_size not between 1 and 10000
      then pg_catalog.format('sweep_batch_size must be 1 to 10000, not %s', s.sweep_batch_size)
    when s.hard_delete_batch_size is null or s.hard_delete_batch_size not between 1 and 100000
      then pg_catalog.format('hard_delete_batch_size must be 1 to 100000, not %s', s.hard_delete_batch_size)
    when s.delete_now_allowed is null
      then 'delete_now_allowed must be true or false'
    else lifecycle.webhook_allowed_hosts_refusal(s.webhook_allowed_hosts)
  end
$$;

--
-- Name: settings_validate(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.settings_validate() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  refusal text := lifecycle.settings_refusal(new);
begin
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid settings', detail = refusal,
      hint = 'See the comments on lifecycle.settings for the allowed ranges.';
  end if;
  new.updated_at := pg_catalog.now();
  return new;
end
$$;

--
-- Name: state_being_created(smallint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_being_created(code smallint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (code = ANY ('{3}'::integer[]));

--
-- Name: FUNCTION state_being_created(code smallint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.state_being_created(code smallint) IS 'Whether a namespace in this state is still being created (lifecycle.states.being_created): a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';

--
-- Name: state_code(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_code(name text) RETURNS smallint
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
begin
  return (select s.code from lifecycle.states s where state_code.name in (s.name, s.alias));
end
$$;

--
-- Name: state_deletion_adjourned(smallint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_deletion_adjourned(code smallint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (code = ANY ('{2}'::integer[]));

--
-- Name: FUNCTION state_deletion_adjourned(code smallint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.state_deletion_adjourned(code smallint) IS 'Whether this state is a deletion adjourned for the grace period (lifecycle.states.deletion_adjourned): a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';

--
-- Name: state_diagram(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_diagram() RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select pg_catalog.concat_ws(E'\n',
    'stateDiagram-v2',
    '    direction LR',
    (select pg_catalog.string_agg(pg_catalog.format('    s%s: %s%s', s.code, s.name, coalesce(' (' || s.alias || ')', '')),
                                  E'\n' order by s.code)
       from lifecycle.states s),
    (select pg_catalog.string_agg(pg_catalog.format('    %s --> s%s: %s', coalesce('s' || t.from_state, '[*]'), t.to_state,
                                                    t.audit_action),
                                  E'\n' order by t.from_state nulls first, t.to_state)
       from lifecycle.state_transitions t))
$$;

--
-- Name: FUNCTION state_diagram(); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.state_diagram() IS 'The state machine as a mermaid stateDiagram (from lifecycle.state_transitions).';

--
-- Name: state_is_own(smallint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_is_own(code smallint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (code <> ALL ('{0}'::integer[]));

--
-- Name: FUNCTION state_is_own(code smallint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.state_is_own(code smallint) IS 'Whether a namespace in this state has a state of its own (lifecycle.states.inherited is false): a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';

--
-- Name: state_metadata_refusal(jsonb); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_metadata_refusal(doc jsonb) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
begin
  return (select case
                   when doc is null then 'metadata is null'
                   when pg_catalog.jsonb_typeof(doc) <> 'object' then 'metadata must be a JSON object'
                   when pg_catalog.octet_length(doc::text) > j.max_bytes
                     then pg_catalog.format('metadata is %s bytes, more than the limit of %s', pg_catalog.octet_length(doc::text), j.max_bytes)
                   else lifecycle.jsonb_schema_violation(j.schema, doc)
                 end
            from lifecycle.json_schemas j
           where j.name = 'state_metadata');
end
$$;

--
-- Name: state_name(smallint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_name(code smallint) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
begin
  return (select s.name from lifecycle.states s where s.code = state_name.code);
end
$$;

--
-- Name: state_operation(smallint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_operation(code smallint) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ('[0:6]={NULL,NULL,NULL,NULL,hard_delete,transfer,NULL}'::text[])[code];

--
-- Name: FUNCTION state_operation(code smallint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.state_operation(code smallint) IS 'The operation that owns this state (lifecycle.states.operation), null for none: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';

--
-- Name: state_path_live(smallint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.state_path_live(code smallint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (code <> ALL ('{2,4}'::integer[]));

--
-- Name: FUNCTION state_path_live(code smallint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.state_path_live(code smallint) IS 'Whether a namespace in this state holds its path (lifecycle.states.pending_deletion is false): a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';

--
-- Name: states_digest(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.states_digest() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  perform lifecycle.states_digest_write();
  return null;
end
$$;

--
-- Name: states_digest_write(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.states_digest_write() RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $_$
declare
  dependent regprocedure;
  names text;
  archived bigint;
  pending_deletion bigint;
  read_only bigint;
  predicate record;
  current_fn regprocedure;
  old_answers text[];
  users text;
  rewritten oid[];
begin
  -- The array's subscripts are the codes themselves ('[0:6]={…}'), gaps null.
  select coalesce(pg_catalog.format('[0:%s]=%s', max(s.code), pg_catalog.array_agg(s.name order by c.code)), '{}'),
         coalesce(bit_or(1::bigint << s.code) filter (where s.name = 'archived'), 0),
         coalesce(bit_or(1::bigint << s.code) filter (where s.pending_deletion), 0),
         coalesce(bit_or(1::bigint << s.code) filter (where s.read_only), 0)
    into names, archived, pending_deletion, read_only
    from pg_catalog.generate_series(0, (select max(m.code) from lifecycle.states m)) c(code)
    left join lifecycle.states s on s.code = c.code;
  execute pg_catalog.format($f$
    create or replace function lifecycle.state_names()
    returns text[]
    language sql
    immutable
    parallel safe
    return %L::text[]$f$, names);
  execute pg_catalog.format($f$
    create or replace function lifecycle.state_flag_mask(flag text)
    returns bigint
    language sql
    immutable
    parallel safe
    return case flag when 'archived' then %s when 'pending_deletion' then %s when 'read_only' then %s end$f$,
    archived, pending_deletion, read_only);
  comment on function lifecycle.state_names() is
    'Each state code''s name, subscripted by code: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';
  comment on function lifecycle.state_flag_mask(text) is
    'The codes that carry a flag (archived, pending_deletion, read_only), a bit per code: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';
  rewritten := array['lifecycle.state_names()'::regprocedure, 'lifecycle.state_flag_mask(text)'::regprocedure]::oid[];

  -- Each predicate's answer for every code (answers, as text) and what its body is written from:
  -- the codes whose answer differs from a missing row's (listed), or their bits (mask), or every
  -- answer (the array of them, subscripted by code). fallback is the answer of a code without a row.
  for predicate in
    with answers as (
      select d.fn, d.form, d.fallback, d.description, c.code, coalesce(d.answer, d.fallback) as answer,
             coalesce((select max(m.code) from lifecycle.states m), 0) as top
        from pg_catalog.generate_series(0, 63) c(code)
        left join lifecycle.states s on s.code = c.code
       cross join lateral (values
         ('state_is_own', 'list', (not s.inherited)::text, 'true',
          'Whether a namespace in this state has a state of its own (lifecycle.states.inherited is false)'),
         ('state_sets_effective', 'mask', (not s.inherited)::text, 'true',
          'state_is_own''s answer as a bit test, for namespace_effective_state and namespaces_stateful_idx'),
         ('state_path_live', 'list', (not s.pending_deletion)::text, 'true',
          'Whether a namespace in this state holds its path (lifecycle.states.pending_deletion is false)'),
         ('state_deletion_adjourned', 'list', s.deletion_adjourned::text, 'false',
          'Whether this state is a deletion adjourned for the grace period (lifecycle.states.deletion_adjourned)'),
         ('state_being_created', 'list', s.being_created::text, 'false',
          'Whether a namespace in this state is still being created (lifecycle.states.being_created)'),
         ('state_operation', 'array', s.operation, null,
          'The operation that owns this state (lifecycle.states.operation), null for none')
       ) d(fn, form, answer, fallback, description)
    )
    select a.fn, a.form, a.fallback, a.description,
           pg_catalog.array_agg(a.answer order by a.code) as answers,
           coalesce(pg_catalog.array_agg(a.code order by a.code) filter (where a.answer is distinct from a.fallback), '{}') as listed,
           coalesce(bit_or(1::bigint << a.code) filter (where a.answer is distinct from a.fallback), 0) as mask,
           -- Up to the highest code with a row; a subscript past it is null.
           pg_catalog.format('[0:%s]=%s', a.top, pg_catalog.array_agg(a.answer order by a.code) filter (where a.code <= a.top)) as array_text
      from answers a
     group by a.fn, a.form, a.fallback, a.description, a.top
     order by a.fn
  loop
    current_fn := pg_catalog.to_regprocedure(pg_catalog.format('lifecycle.%I(smallint)', predicate.fn));
    if current_fn is not null then
      execute pg_catalog.format(
        'select pg_catalog.array_agg(lifecycle.%I(c::smallint)::text order by c) from pg_catalog.generate_series(0, 63) c', predicate.fn)
        into old_answers;
      continue when old_answers is not distinct from predicate.answers;
      select pg_catalog.string_agg(coalesce('index ' || i.oid::regclass::text,
                                            pg_catalog.format('constraint %I of %s', k.conname, k.conrelid::regclass)),
                                   ', ' order by i.oid, k.oid)
        into users
        from pg_catalog.pg_depend d
        left join pg_catalog.pg_class i on d.classid = 'pg_catalog.pg_class'::regclass and i.oid = d.objid and i.relkind = 'i'
        left join pg_catalog.pg_constraint k on d.classid = 'pg_catalog.pg_constraint'::regclass and k.oid = d.objid
       where d.refclassid = 'pg_catalog.pg_proc'::regclass and d.refobjid = current_fn
         and (i.oid is not null or k.oid is not null);
      if users is not null then
        raise exception using errcode = '2BP01',
          message = pg_catalog.format('cannot change what lifecycle.%s answers while %s uses it', predicate.fn, users),
          detail = pg_catalog.format('codes whose answer would change: %s',
                     (select pg_catalog.string_agg(pg_catalog.format('%s %s (%s -> %s)', c - 1, coalesce(s.name, '(no row)'),
                                                                     old_answers[c], predicate.answers[c]), ', ' order by c)
                        from pg_catalog.generate_series(1, 64) c
                        left join lifecycle.states s on s.code = c - 1
                       where old_answers[c] is distinct from predicate.answers[c])),
          hint = 'Drop those indexes and constraints, change lifecycle.states, then build them again (sql/README.md, Where a change goes).';
      end if;
    end if;
    -- The body of each form, from typed values only: the codes (int, as the literals in the
    -- statements were, so an index on the predicate also serves a statement that still says
    -- state <> 2 and state <> 4), the mask, the answers.
    if predicate.form = 'mask' then
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(code smallint) returns boolean language sql immutable parallel safe
        return ((1::bigint << code) & %L::bigint) = 0$f$, predicate.fn, predicate.mask);
    elsif predicate.form = 'array' then
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(code smallint) returns text language sql immutable parallel safe
        return (%L::text[])[code]$f$, predicate.fn, predicate.array_text);
    elsif predicate.fallback = 'true' then
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(code smallint) returns boolean language sql immutable parallel safe
        return code <> all (%L::int[])$f$, predicate.fn, predicate.listed);
    else
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(code smallint) returns boolean language sql immutable parallel safe
        return code = any (%L::int[])$f$, predicate.fn, predicate.listed);
    end if;
    execute pg_catalog.format('comment on function lifecycle.%I(smallint) is %L', predicate.fn,
      predicate.description || ': a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.');
    rewritten := rewritten || pg_catalog.to_regprocedure(pg_catalog.format('lifecycle.%I(smallint)', predicate.fn))::oid;
  end loop;

  for dependent in
    select distinct d.objid::regprocedure
      from pg_catalog.pg_depend d
     where d.classid = 'pg_catalog.pg_proc'::regclass and d.refclassid = 'pg_catalog.pg_proc'::regclass
       and d.refobjid = any (rewritten)
  loop
    execute pg_catalog.format('alter function %s cost %s', dependent,
      (select x.procost from pg_catalog.pg_proc x where x.oid = dependent));
  end loop;
end
$_$;

--
-- Name: sweep_abandoned_creation(bigint, timestamp with time zone, interval); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.sweep_abandoned_creation(namespace_id bigint, as_of timestamp with time zone, creation_timeout interval) RETURNS TABLE(outcome text, detail text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
begin
  if not exists (select from lifecycle.namespaces n where n.id = namespace_id) then
    return query select 'skipped'::text, 'no longer exists'::text;
    return;
  end if;
  ns := lifecycle.namespace_lock(namespace_id);
  if ns.state <> lifecycle.state_code('creation_in_progress') or ns.updated_at >= as_of - creation_timeout then
    return query select 'skipped'::text, pg_catalog.format('state %s since %s', lifecycle.state_name(ns.state), ns.updated_at);
    return;
  end if;
  perform lifecycle.namespace_change_state(ns.id, null, 'deletion_start', null::bigint,
    pg_catalog.jsonb_build_object('last_error',
      pg_catalog.format('creation did not finish within %s (started %s)', creation_timeout, ns.created_at)));
  return query select 'deleting'::text, pg_catalog.format('creation_in_progress since %s', ns.updated_at);
end
$$;

--
-- Name: sweep_adjourned_deletion(bigint, timestamp with time zone); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.sweep_adjourned_deletion(namespace_id bigint, as_of timestamp with time zone) RETURNS TABLE(outcome text, detail text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  refusal record;
  why text;
begin
  -- Listed, then removed by another sweeper before this one could claim it.
  if not exists (select from lifecycle.namespaces n where n.id = namespace_id) then
    return query select 'skipped'::text, 'no longer exists'::text;
    return;
  end if;
  ns := lifecycle.namespace_lock(namespace_id);
  if ns.state <> lifecycle.state_code('deletion_scheduled')
     or ns.deletion_scheduled_at >= as_of - pg_catalog.make_interval(
          days => (select s.deletion_adjourned_period_days from lifecycle.settings s)) then
    return query select 'skipped'::text, pg_catalog.format('no longer due: state %s, scheduled at %s',
                                                           lifecycle.state_name(ns.state), ns.deletion_scheduled_at);
    return;
  end if;

  if ns.deletion_scheduled_by is not null then
    select * into refusal
      from lifecycle.actor_refusal(ns.id, ns.traversal_ids, ns.deletion_scheduled_by,
             (select p.min_access_level from lifecycle.transition_policies p
               where p.to_state = lifecycle.state_code('deletion_in_progress')),
             'delete this namespace');
    if found then
      why := pg_catalog.format('deletion scheduled by user %s not carried out: %s (%s)', ns.deletion_scheduled_by,
                               refusal.message, refusal.detail);
      perform lifecycle.namespace_change_state(ns.id, null, 'restore', null::bigint,
        pg_catalog.jsonb_build_object('last_error', pg_catalog.left(why, 2000), 'reason', 'sweep: scheduler lost the right to delete'));
      return query select 'restored'::text, why;
      return;
    end if;
  end if;

  perform lifecycle.namespace_change_state(ns.id, null, 'deletion_start', null::bigint,
    pg_catalog.jsonb_build_object('reason', pg_catalog.format('sweep: grace period over (scheduled by %s)',
                                                              coalesce(ns.deletion_scheduled_by::text, 'the system'))));
  return query select 'deleting'::text,
    pg_catalog.format('scheduled by %s at %s', coalesce(ns.deletion_scheduled_by::text, 'the system'), ns.deletion_scheduled_at);
end
$$;

--
-- Name: sweep_claim(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.sweep_claim(namespace_id bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  me timestamptz := (select a.backend_start from pg_catalog.pg_stat_activity a where a.pid = pg_catalog.pg_backend_pid());
  claimed boolean;
begin
  delete from lifecycle.sweep_claims c
   where c.namespace_id = sweep_claim.namespace_id
     and not exists (select from pg_catalog.pg_stat_activity a where a.pid = c.pid and a.backend_start = c.backend_start);
  insert into lifecycle.sweep_claims as c (namespace_id, pid, backend_start)
  values (sweep_claim.namespace_id, pg_catalog.pg_backend_pid(), me)
  on conflict on constraint sweep_claims_pkey do update set claimed_at = pg_catalog.now()
   where c.pid = pg_catalog.pg_backend_pid() and c.backend_start = me
  returning true into claimed;
  return coalesce(claimed, false);
end
$$;

--
-- Name: sweep_deletion_candidates(timestamp with time zone, integer, integer, timestamp with time zone, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.sweep_deletion_candidates(as_of timestamp with time zone, max_attempts integer, page_size integer, after_scheduled_at timestamp with time zone DEFAULT NULL::timestamp with time zone, after_id bigint DEFAULT NULL::bigint) RETURNS TABLE(namespace_id bigint, full_path text, deletion_scheduled_at timestamp with time zone, deletion_scheduled_by bigint, attempt_count integer)
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select n.id, lifecycle.namespace_full_path(n.id), n.deletion_scheduled_at, n.deletion_scheduled_by,
         coalesce((d.state_metadata ->> 'attempt_count')::int, 0)
    from lifecycle.namespaces n
    left join lifecycle.namespace_details d on d.namespace_id = n.id
   where lifecycle.state_deletion_adjourned(n.state)
     and n.deletion_scheduled_at < as_of - pg_catalog.make_interval(
           days => (select s.deletion_adjourned_period_days from lifecycle.settings s))
     and (after_scheduled_at is null or (n.deletion_scheduled_at, n.id) > (after_scheduled_at, after_id))
     and coalesce((d.state_metadata ->> 'attempt_count')::int, 0) < max_attempts
   order by n.deletion_scheduled_at, n.id
   limit page_size
$$;

--
-- Name: sweep_deletion_failed(bigint, text, integer); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.sweep_deletion_failed(namespace_id bigint, error text, max_attempts integer) RETURNS TABLE(attempt_count integer, stuck boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  attempts int;
begin
  ns := lifecycle.namespace_lock(namespace_id);
  select coalesce((d.state_metadata ->> 'attempt_count')::int, 0) + 1 into attempts
    from lifecycle.namespace_details d where d.namespace_id = ns.id;
  attempts := coalesce(attempts, 1);
  if ns.state = lifecycle.state_code('deletion_in_progress') then
    perform lifecycle.namespace_change_state(ns.id, null, 'deletion_failed', null::bigint,
      pg_catalog.jsonb_build_object('last_error', pg_catalog.left(coalesce(error, 'unknown error'), 2000),
                                    'attempt_count', attempts));
  end if;
  return query select attempts, attempts >= max_attempts;
end
$$;

--
-- Name: sweep_release(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.sweep_release(namespace_id bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  delete from lifecycle.sweep_claims c
   where c.namespace_id = sweep_release.namespace_id and c.pid = pg_catalog.pg_backend_pid()
     and c.backend_start = (select a.backend_start from pg_catalog.pg_stat_activity a where a.pid = pg_catalog.pg_backend_pid());
  return found;
end
$$;

--
-- Name: sweep_stuck_operations(timestamp with time zone, interval, interval, integer); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.sweep_stuck_operations(as_of timestamp with time zone, stuck_after interval, creation_timeout interval, max_attempts integer) RETURNS TABLE(namespace_id bigint, kind text, full_path text, since timestamp with time zone, attempt_count integer, last_error text)
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select n.id, k.kind, lifecycle.namespace_full_path(n.id), n.updated_at,
         coalesce((d.state_metadata ->> 'attempt_count')::int, 0), d.state_metadata ->> 'last_error'
    from lifecycle.namespaces n
    left join lifecycle.namespace_details d on d.namespace_id = n.id
   cross join lateral (
     select case lifecycle.state_operation(n.state)
              when 'transfer' then 'transfer'
              when 'hard_delete' then 'deletion'
              else case when lifecycle.state_being_created(n.state) then 'creation'
                        when lifecycle.state_deletion_adjourned(n.state) then 'failed_deletion' end
            end as kind
   ) k
   where lifecycle.state_is_own(n.state)
     and ((lifecycle.state_operation(n.state) is not null and n.updated_at < as_of - stuck_after)
       or (lifecycle.state_being_created(n.state) and n.updated_at < as_of - creation_timeout)
       or (lifecycle.state_deletion_adjourned(n.state)
           and coalesce((d.state_metadata ->> 'attempt_count')::int, 0) >= max_attempts))
   order by pg_catalog.array_position(array['transfer', 'deletion', 'creation', 'failed_deletion'], k.kind),
            n.updated_at, n.id
$$;

--
-- Name: syncer_progress_save(text, pg_lsn, timestamp with time zone); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.syncer_progress_save(slot_name text, lsn pg_lsn, committed_at timestamp with time zone) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
  insert into lifecycle.syncer_progress (slot_name, lsn, committed_at)
  values (slot_name, lsn, committed_at)
  on conflict on constraint syncer_progress_pkey do update
    set lsn = greatest(syncer_progress.lsn, excluded.lsn),
        committed_at = excluded.committed_at,
        updated_at = pg_catalog.now()
$$;

--
-- Name: syncer_publication_ensure(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.syncer_publication_ensure(publication_name text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  have text[];
  p record;
begin
  if publication_name !~ '^[a-z_][a-z0-9_]{0,62}$' then
    raise exception using errcode = 'NS010', message = 'invalid publication name',
      detail = pg_catalog.format('publication_name=%s', publication_name),
      hint = 'Use lowercase letters, digits and _, starting with a letter or _.';
  end if;
  select * into p from pg_catalog.pg_publication where pubname = publication_name;
  if not found then
    execute pg_catalog.format('create publication %I for table lifecycle.facts with (publish = ''insert'')', publication_name);
    return 'created';
  end if;
  select pg_catalog.array_agg(t.schemaname || '.' || t.tablename) into have
    from pg_catalog.pg_publication_tables t where t.pubname = publication_name;
  if have is distinct from array['lifecycle.facts'] or not p.pubinsert or p.pubupdate or p.pubdelete or p.pubtruncate
     or p.puballtables then
    if p.puballtables then
      raise exception using errcode = 'NS010', message = 'the publication covers all tables',
        detail = pg_catalog.format('publication_name=%s', publication_name),
        hint = 'Drop it, or give the syncer another publication name; it creates its own.';
    end if;
    execute pg_catalog.format('alter publication %I set table lifecycle.facts', publication_name);
    execute pg_catalog.format('alter publication %I set (publish = ''insert'')', publication_name);
    return 'altered';
  end if;
  return 'unchanged';
end
$_$;

--
-- Name: transaction_flags; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE UNLOGGED TABLE lifecycle.transaction_flags (
    xact xid8 NOT NULL,
    flag text NOT NULL
);

--
-- Name: TABLE transaction_flags; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.transaction_flags IS 'Flags a function raises for the statements it makes in its transaction (transaction_flag_raise), which no client can forge as it can a setting. Empty between transactions: lowered by the function that raised them, or rolled back with it.';

--
-- Name: transaction_flag_lower(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transaction_flag_lower(flag text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    BEGIN ATOMIC
 DELETE FROM lifecycle.transaction_flags f
   WHERE ((f.xact = pg_current_xact_id()) AND (f.flag = transaction_flag_lower.flag));
END;

--
-- Name: transaction_flag_raise(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transaction_flag_raise(flag text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  raised boolean := false;
begin
  insert into lifecycle.transaction_flags as f (xact, flag)
  values (pg_catalog.pg_current_xact_id(), transaction_flag_raise.flag)
  on conflict do nothing
  returning true into raised;
  return coalesce(raised, false);
end
$$;

--
-- Name: transaction_flag_raised(text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transaction_flag_raised(flag text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    BEGIN ATOMIC
 SELECT (EXISTS ( SELECT
            FROM lifecycle.transaction_flags f
           WHERE ((f.xact = pg_current_xact_id_if_assigned()) AND (f.flag = transaction_flag_raised.flag)))) AS "exists";
END;

--
-- Name: transfer_requests; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.transfer_requests (
    id bigint NOT NULL,
    namespace_id bigint NOT NULL,
    from_parent_id bigint,
    to_parent_id bigint NOT NULL,
    requested_by bigint NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    decided_by bigint,
    decided_at timestamp with time zone,
    completed_at timestamp with time zone,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT transfer_requests_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'accepted'::text, 'declined'::text, 'canceled'::text, 'expired'::text, 'completed'::text, 'failed'::text])))
);

--
-- Name: TABLE transfer_requests; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.transfer_requests IS 'Offers to move a namespace below a new parent; the row''s status is the audit fact of each step.';

--
-- Name: transfer_accept_locked(lifecycle.transfer_requests, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transfer_accept_locked(r lifecycle.transfer_requests, actor_id bigint) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  refusal record;
begin
  if r.expires_at <= pg_catalog.now() then
    raise exception using errcode = 'NS009', message = 'transfer request expired',
      detail = pg_catalog.format('request_id=%s expires_at=%s', r.id, r.expires_at),
      hint = 'Request the transfer again.';
  end if;
  select * into refusal from lifecycle.transfer_target_refusal(r.namespace_id, r.to_parent_id);
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  update lifecycle.transfer_requests t
     set status = 'accepted', decided_by = actor_id, decided_at = pg_catalog.now()
   where t.id = r.id;
  perform lifecycle.namespace_change_state(r.namespace_id, null, 'transfer_start', r.requested_by,
                                           pg_catalog.jsonb_build_object('correlation_id', 'transfer-request-' || r.id));
end
$$;

--
-- Name: transfer_request_lock(bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transfer_request_lock(request_id bigint) RETURNS lifecycle.transfer_requests
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  r lifecycle.transfer_requests;
begin
  select * into r from lifecycle.transfer_requests t where t.id = request_id for update;
  if not found then
    raise exception using errcode = 'NS004', message = 'transfer request not found',
      detail = pg_catalog.format('request_id=%s', request_id), hint = 'Check the request id.';
  end if;
  return r;
end
$$;

--
-- Name: transfer_request_lock_open(bigint, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transfer_request_lock_open(request_id bigint, verb text) RETURNS lifecycle.transfer_requests
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  r lifecycle.transfer_requests := lifecycle.transfer_request_lock(request_id);
begin
  if r.status <> 'pending' then
    raise exception using errcode = 'NS009', message = pg_catalog.format('transfer request is %s', r.status),
      detail = pg_catalog.format('request_id=%s status=%s', r.id, r.status),
      hint = pg_catalog.format('Only a pending request can be %s.', verb);
  end if;
  return r;
end
$$;

--
-- Name: transfer_requests_expire(timestamp with time zone); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transfer_requests_expire(as_of timestamp with time zone DEFAULT now()) RETURNS integer
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
  with due as (
    select t.id from lifecycle.transfer_requests t
     where t.status = 'pending' and t.expires_at <= as_of
       for update skip locked
  ), expired as (
    update lifecycle.transfer_requests t set status = 'expired', decided_at = pg_catalog.now()
      from due where t.id = due.id
    returning 1
  )
  select count(*)::int from expired
$$;

--
-- Name: transfer_requests_facts(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transfer_requests_facts() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  ns lifecycle.namespaces;
begin
  if tg_op = 'UPDATE' and new.status = old.status then
    return null;
  end if;
  select * into ns from lifecycle.namespaces n where n.id = new.namespace_id;
  perform lifecycle.fact_emit(
    case when tg_op = 'INSERT' then 'transfer_requested' else 'transfer_' || new.status end,
    new.namespace_id, ns.traversal_ids, lifecycle.namespace_full_path(new.namespace_id),
    case when tg_op = 'INSERT' then new.requested_by else new.decided_by end,
    pg_catalog.jsonb_build_object('request_id', new.id, 'from_parent_id', new.from_parent_id,
                                  'to_parent_id', new.to_parent_id, 'to_parent_path', lifecycle.namespace_full_path(new.to_parent_id),
                                  'requested_by', new.requested_by, 'expires_at', new.expires_at,
                                  'last_error', new.last_error));
  return null;
end
$$;

--
-- Name: transfer_target_refusal(bigint, bigint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transfer_target_refusal(namespace_id bigint, to_parent_id bigint) RETURNS TABLE(code text, message text, detail text, hint text)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  target lifecycle.namespaces;
  blocker bigint;
  blocker_state text;
  height int;
begin
  select * into ns from lifecycle.namespaces n where n.id = namespace_id;
  select * into target from lifecycle.namespaces n where n.id = to_parent_id;
  if target.id is null then
    code := 'NS004'; message := 'target namespace not found';
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s', namespace_id, to_parent_id);
    hint := 'Pass the id of an existing group or organization as the new parent.';
    return next; return;
  end if;
  if not lifecycle.namespace_type_transferable(ns.type) then
    code := 'NS010'; message := pg_catalog.format('a namespace of type %s cannot be transferred', ns.type);
    detail := pg_catalog.format('namespace_id=%s type=%s', namespace_id, ns.type);
    hint := 'Transfer its groups and projects instead.';
    return next; return;
  end if;
  if not lifecycle.namespace_type_can_be_parent(target.type) then
    code := 'NS010'; message := pg_catalog.format('a %s cannot be a new parent', target.type);
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s to_parent_type=%s', namespace_id, to_parent_id, target.type);
    hint := pg_catalog.format('Choose a namespace of a type that takes children: %s.',
                              (select pg_catalog.string_agg(t.name, ', ' order by t.name)
                                 from lifecycle.namespace_types t where t.can_be_parent));
    return next; return;
  end if;
  if target.id = ns.parent_id then
    code := 'NS010'; message := 'the namespace is already below this parent';
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s', namespace_id, to_parent_id);
    hint := 'Choose another parent.';
    return next; return;
  end if;
  if ns.id = any (target.traversal_ids) then
    code := 'NS010'; message := 'a namespace cannot move below itself or its own descendant';
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s', namespace_id, to_parent_id);
    hint := 'Choose a parent outside the namespace''s subtree.';
    return next; return;
  end if;
  -- The subtree's deepest row lands at depth(target) + 1 + its height. Only a move to a deeper
  -- level can cross the limit (every row is within it now), so only that scans the subtree.
  if pg_catalog.cardinality(target.traversal_ids) + 1 > pg_catalog.cardinality(ns.traversal_ids) then
    select max(pg_catalog.cardinality(d.traversal_ids)) - pg_catalog.cardinality(ns.traversal_ids)
      into height
      from lifecycle.namespaces d
     where d.traversal_ids >= ns.traversal_ids
       and d.traversal_ids < ns.traversal_ids[1:pg_catalog.cardinality(ns.traversal_ids) - 1]
                             || (ns.traversal_ids[pg_catalog.cardinality(ns.traversal_ids)] + 1);
    if pg_catalog.cardinality(target.traversal_ids) + 1 + height > lifecycle.namespace_max_depth() then
      code := 'NS010';
      message := pg_catalog.format('moving below %s would place namespaces deeper than %s levels',
                                   lifecycle.namespace_full_path(target.id), lifecycle.namespace_max_depth());
      detail := pg_catalog.format('namespace_id=%s to_parent_id=%s deepest_level_after_move=%s max_depth=%s', namespace_id,
                                  to_parent_id, pg_catalog.cardinality(target.traversal_ids) + 1 + height,
                                  lifecycle.namespace_max_depth());
      hint := 'Choose a parent higher in the tree.';
      return next; return;
    end if;
  end if;
  select a.id, s.name into blocker, blocker_state
    from lifecycle.namespaces a
    join lifecycle.states s on s.code = a.state
   where a.id = any (target.traversal_ids) and lifecycle.state_is_own(a.state)
   order by pg_catalog.cardinality(a.traversal_ids) desc
   limit 1;
  if found then
    code := 'NS002';
    message := pg_catalog.format('cannot move below %s: %s is %s', lifecycle.namespace_full_path(target.id),
                                 lifecycle.namespace_full_path(blocker), blocker_state);
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s blocking_namespace_id=%s blocking_state=%s',
                                namespace_id, to_parent_id, blocker, blocker_state);
    hint := 'The new parent and all its ancestors must be active.';
    return next; return;
  end if;
  select n.id into blocker
    from lifecycle.namespaces n
   where n.parent_id = target.id and n.path = ns.path and lifecycle.state_path_live(n.state);
  if found then
    code := 'NS006';
    message := pg_catalog.format('path %s/%s is taken', lifecycle.namespace_full_path(target.id), ns.path);
    detail := pg_catalog.format('namespace_id=%s to_parent_id=%s path=%s taken_by_namespace_id=%s', namespace_id,
                                to_parent_id, ns.path, blocker);
    hint := 'Rename the namespace (or the one holding the path) first.';
    return next; return;
  end if;
end
$$;

--
-- Name: transition_refusal(bigint, bigint[], smallint, smallint, bigint, text); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transition_refusal(namespace_id bigint, traversal_ids bigint[], from_state smallint, to_state smallint, actor_id bigint, operation text DEFAULT NULL::text) RETURNS TABLE(code text, message text, detail text, hint text)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    SET enable_seqscan TO 'off'
    SET jit TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
#variable_conflict use_variable
declare
  depth int := pg_catalog.cardinality(traversal_ids);
  allowed boolean;
  required_level smallint;
  from_name text;
  to_name text;
  to_permanent boolean;
  from_pending boolean;
  to_pending boolean;
  from_operation text;
  ancestor_id bigint;
  ancestor_state smallint;
  descendant_id bigint;
  descendant_state smallint;
  ns lifecycle.namespaces;
  cfg lifecycle.settings;
  hit_id bigint;
  rule lifecycle.transition_rule;
begin
  -- What the rule tables say of this pair (the matrix, the level it needs, the states a guard
  -- forbids, the two states' names and flags), as constants: their digest, an expression that
  -- reads no table (transition_rules_write).
  rule := lifecycle.transition_rule(from_state, to_state);
  allowed := rule.allowed;
  required_level := rule.min_access_level;
  from_name := rule.from_name;
  to_name := rule.to_name;
  to_permanent := rule.to_permanent;
  from_pending := rule.from_pending;
  to_pending := rule.to_pending;
  from_operation := rule.from_operation;
  -- What the guards find: the nearest ancestor and a descendant in a state a guard forbids, looked
  -- up only when the pair is in the matrix and has a guard of that scope; the checks below still
  -- report in the order listed above.
  -- The ancestors by primary key, then their states: the fence (offset 0) keeps the state test out
  -- of the index choice. With it inside, a plan could scan namespaces_own_state_idx for every row
  -- in those states and pick the ancestors out, a cost that grows with the number of stateful
  -- namespaces (quadratic in one statement that archives many of them).
  if allowed and depth > 1 and rule.ancestor_forbidden <> '{}' then
    select x.id, x.state into ancestor_id, ancestor_state
      from (select n.id, n.state, pg_catalog.cardinality(n.traversal_ids) as level
              from lifecycle.namespaces n
             where n.id = any (traversal_ids[1:depth - 1])
            offset 0) x
     where x.state = any (rule.ancestor_forbidden)
     order by x.level desc
     limit 1;
  end if;
  -- No descendant, at any depth, may have a forbidden own state (none for a creation).
  -- Descendants of X sort after X and before X with its last element + 1.
  if allowed and from_state is not null and rule.descendant_forbidden <> '{}' then
    select y.id, y.state into descendant_id, descendant_state
      from lifecycle.namespaces y
     where lifecycle.state_is_own(y.state)
       and y.state = any (rule.descendant_forbidden)
       and y.traversal_ids > traversal_ids
       and y.traversal_ids < traversal_ids[1:depth - 1] || (traversal_ids[depth] + 1)
     limit 1;
  end if;

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

  -- 2. Authority over a state an operation owns; else authorization: the system (actor null) or
  -- an actor with the policy's access level.
  if from_operation is not null then
    if operation is distinct from from_operation
       and not lifecycle.caller_may_act_as_system() then
      code := 'NS005';
      message := pg_catalog.format('only the %s itself or a worker may move a namespace out of %s',
                                   pg_catalog.replace(from_operation, '_', ' '), from_name);
      detail := pg_catalog.format('namespace_id=%s from_state=%s to_state=%s operation=%s role=%s', namespace_id,
                                  from_name, to_name, from_operation,
                                  coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user));
      hint := case from_operation
                when 'transfer' then 'Wait for the transfer to finish (lifecycle.namespace_transfer_execute); the sweeper ends transfers that are stuck.'
                else 'Wait for the hard delete to finish; the sweeper resumes deletions that are stuck, and a failed one is requeued as deletion_scheduled, which an owner may restore.'
              end;
      return next;
      return;
    end if;
  elsif from_state is not null then
    -- (A change the legacy bridge carries over is judged here like any other: the calling role's
    -- authority, on behalf of the actor the legacy row names. docs/design.md §10.2.)
    return query
      select * from lifecycle.actor_refusal(namespace_id, traversal_ids, actor_id, required_level,
               pg_catalog.format('move this namespace to %s', to_name));
    if found then
      return;
    end if;
  end if;
  if from_state is not null then
    -- The row and the settings matter only when leaving a pending deletion (grace period, delete
    -- now, the path taken meanwhile).
    if from_pending then
      select * into ns from lifecycle.namespaces n where n.id = transition_refusal.namespace_id;
      select * into cfg from lifecycle.settings;

      -- Soft delete (docs/design.md §5). A user's restore ends with the grace period; the system (the
      -- sweeper restoring a namespace whose scheduler lost the right to delete it) may restore later.
      if lifecycle.state_deletion_adjourned(from_state) and actor_id is not null
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
      if lifecycle.state_deletion_adjourned(from_state) and lifecycle.state_operation(to_state) = 'hard_delete'
         and actor_id is not null and not cfg.delete_now_allowed then
        code := 'NS005';
        message := 'deleting before the grace period ends is disabled';
        detail := pg_catalog.format('namespace_id=%s delete_now_allowed=false', namespace_id);
        hint := 'Wait for the sweeper, or have an administrator set lifecycle.settings.delete_now_allowed.';
        return next;
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
                 else pg_catalog.format('cannot change namespace state from %s to %s: ancestor %s is %s', from_name,
                                        to_name, lifecycle.namespace_full_path(ancestor_id), lifecycle.state_name(ancestor_state)) end;
    detail := pg_catalog.format('namespace_id=%s ancestor_id=%s ancestor_state=%s', namespace_id, ancestor_id,
                                lifecycle.state_name(ancestor_state));
    hint := pg_catalog.format('Change the state of %s first, or wait until its operation ends.',
                              lifecycle.namespace_full_path(ancestor_id));
    return next;
    return;
  end if;

  -- 4. The descendant found above.
  if descendant_id is not null then
    code := 'NS003';
    message := pg_catalog.format('cannot change namespace state from %s to %s: descendant %s is %s', from_name,
                                 to_name, lifecycle.namespace_full_path(descendant_id), lifecycle.state_name(descendant_state));
    detail := pg_catalog.format('namespace_id=%s descendant_id=%s descendant_state=%s', namespace_id, descendant_id,
                                lifecycle.state_name(descendant_state));
    hint := pg_catalog.format('Wait until the operation on %s ends, or change its state first.',
                              lifecycle.namespace_full_path(descendant_id));
    return next;
    return;
  end if;

  -- 5. Leaving a pending deletion makes the path live again: a live sibling must not hold it.
  --    (The gate holds the sibling-path lock while this runs.)
  if from_pending and not to_pending and from_state is not null then
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
      return next;
      return;
    end if;
  end if;
end
$$;

--
-- Name: transition_rule(smallint, smallint); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transition_rule(from_state smallint, to_state smallint) RETURNS lifecycle.transition_rule
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    SET search_path TO ''
    AS $$ begin return case coalesce(from_state, -1) * 64 + to_state
    when -64 then '(t,50,"{1,2,3,4,5,6}",{},"(new)",ancestor_inherited,t,f,f,)'::lifecycle.transition_rule
    when -63 then '(f,50,{},{},"(new)",archived,t,f,f,)'::lifecycle.transition_rule
    when -62 then '(f,50,{},{},"(new)",deletion_scheduled,f,f,t,)'::lifecycle.transition_rule
    when -61 then '(t,50,"{1,2,3,4,5,6}",{},"(new)",creation_in_progress,f,f,f,)'::lifecycle.transition_rule
    when -60 then '(f,50,{},{},"(new)",deletion_in_progress,f,f,t,)'::lifecycle.transition_rule
    when -59 then '(f,50,{},{},"(new)",transfer_in_progress,f,f,f,)'::lifecycle.transition_rule
    when -58 then '(f,50,{},{},"(new)",maintenance,f,f,f,)'::lifecycle.transition_rule
    when 0 then '(f,50,{},{},ancestor_inherited,ancestor_inherited,t,f,f,)'::lifecycle.transition_rule
    when 1 then '(t,50,"{1,2,4,5}","{3,5}",ancestor_inherited,archived,t,f,f,)'::lifecycle.transition_rule
    when 2 then '(t,50,"{2,4,5}","{3,5}",ancestor_inherited,deletion_scheduled,f,f,t,)'::lifecycle.transition_rule
    when 3 then '(f,50,{},{},ancestor_inherited,creation_in_progress,f,f,f,)'::lifecycle.transition_rule
    when 4 then '(f,50,{},{},ancestor_inherited,deletion_in_progress,f,f,t,)'::lifecycle.transition_rule
    when 5 then '(t,50,"{2,3,4,5,6}","{2,3,4,5,6}",ancestor_inherited,transfer_in_progress,f,f,f,)'::lifecycle.transition_rule
    when 6 then '(t,50,"{2,4,5}","{3,5}",ancestor_inherited,maintenance,f,f,f,)'::lifecycle.transition_rule
    when 64 then '(t,50,"{2,4}",{},archived,ancestor_inherited,t,f,f,)'::lifecycle.transition_rule
    when 65 then '(f,50,{},{},archived,archived,t,f,f,)'::lifecycle.transition_rule
    when 66 then '(t,50,"{2,4,5}","{3,5}",archived,deletion_scheduled,f,f,t,)'::lifecycle.transition_rule
    when 67 then '(f,50,{},{},archived,creation_in_progress,f,f,f,)'::lifecycle.transition_rule
    when 68 then '(f,50,{},{},archived,deletion_in_progress,f,f,t,)'::lifecycle.transition_rule
    when 69 then '(t,50,"{2,3,4,5,6}","{2,3,4,5,6}",archived,transfer_in_progress,f,f,f,)'::lifecycle.transition_rule
    when 70 then '(f,50,{},{},archived,maintenance,f,f,f,)'::lifecycle.transition_rule
    when 128 then '(t,50,{},{},deletion_scheduled,ancestor_inherited,t,t,f,)'::lifecycle.transition_rule
    when 129 then '(t,50,{1},{},deletion_scheduled,archived,t,t,f,)'::lifecycle.transition_rule
    when 130 then '(f,50,{},{},deletion_scheduled,deletion_scheduled,f,t,t,)'::lifecycle.transition_rule
    when 131 then '(f,50,{},{},deletion_scheduled,creation_in_progress,f,t,f,)'::lifecycle.transition_rule
    when 132 then '(t,50,{},{},deletion_scheduled,deletion_in_progress,f,t,t,)'::lifecycle.transition_rule
    when 133 then '(f,50,{},{},deletion_scheduled,transfer_in_progress,f,t,f,)'::lifecycle.transition_rule
    when 134 then '(f,50,{},{},deletion_scheduled,maintenance,f,t,f,)'::lifecycle.transition_rule
    when 192 then '(t,50,{},{},creation_in_progress,ancestor_inherited,t,f,f,)'::lifecycle.transition_rule
    when 193 then '(f,50,{},{},creation_in_progress,archived,t,f,f,)'::lifecycle.transition_rule
    when 194 then '(f,50,{},{},creation_in_progress,deletion_scheduled,f,f,t,)'::lifecycle.transition_rule
    when 195 then '(f,50,{},{},creation_in_progress,creation_in_progress,f,f,f,)'::lifecycle.transition_rule
    when 196 then '(t,50,{},{},creation_in_progress,deletion_in_progress,f,f,t,)'::lifecycle.transition_rule
    when 197 then '(f,50,{},{},creation_in_progress,transfer_in_progress,f,f,f,)'::lifecycle.transition_rule
    when 198 then '(f,50,{},{},creation_in_progress,maintenance,f,f,f,)'::lifecycle.transition_rule
    when 256 then '(t,50,{},{},deletion_in_progress,ancestor_inherited,t,t,f,hard_delete)'::lifecycle.transition_rule
    when 257 then '(t,50,{1},{},deletion_in_progress,archived,t,t,f,hard_delete)'::lifecycle.transition_rule
    when 258 then '(t,50,{},{},deletion_in_progress,deletion_scheduled,f,t,t,hard_delete)'::lifecycle.transition_rule
    when 259 then '(f,50,{},{},deletion_in_progress,creation_in_progress,f,t,f,hard_delete)'::lifecycle.transition_rule
    when 260 then '(f,50,{},{},deletion_in_progress,deletion_in_progress,f,t,t,hard_delete)'::lifecycle.transition_rule
    when 261 then '(f,50,{},{},deletion_in_progress,transfer_in_progress,f,t,f,hard_delete)'::lifecycle.transition_rule
    when 262 then '(f,50,{},{},deletion_in_progress,maintenance,f,t,f,hard_delete)'::lifecycle.transition_rule
    when 320 then '(t,50,{},{},transfer_in_progress,ancestor_inherited,t,f,f,transfer)'::lifecycle.transition_rule
    when 321 then '(t,50,{},{},transfer_in_progress,archived,t,f,f,transfer)'::lifecycle.transition_rule
    when 322 then '(f,50,{},{},transfer_in_progress,deletion_scheduled,f,f,t,transfer)'::lifecycle.transition_rule
    when 323 then '(f,50,{},{},transfer_in_progress,creation_in_progress,f,f,f,transfer)'::lifecycle.transition_rule
    when 324 then '(f,50,{},{},transfer_in_progress,deletion_in_progress,f,f,t,transfer)'::lifecycle.transition_rule
    when 325 then '(f,50,{},{},transfer_in_progress,transfer_in_progress,f,f,f,transfer)'::lifecycle.transition_rule
    when 326 then '(f,50,{},{},transfer_in_progress,maintenance,f,f,f,transfer)'::lifecycle.transition_rule
    when 384 then '(t,50,{},{},maintenance,ancestor_inherited,t,f,f,)'::lifecycle.transition_rule
    when 385 then '(f,50,{},{},maintenance,archived,t,f,f,)'::lifecycle.transition_rule
    when 386 then '(f,50,{},{},maintenance,deletion_scheduled,f,f,t,)'::lifecycle.transition_rule
    when 387 then '(f,50,{},{},maintenance,creation_in_progress,f,f,f,)'::lifecycle.transition_rule
    when 388 then '(f,50,{},{},maintenance,deletion_in_progress,f,f,t,)'::lifecycle.transition_rule
    when 389 then '(f,50,{},{},maintenance,transfer_in_progress,f,f,f,)'::lifecycle.transition_rule
    when 390 then '(f,50,{},{},maintenance,maintenance,f,f,f,)'::lifecycle.transition_rule
    end; end $$;

--
-- Name: FUNCTION transition_rule(from_state smallint, to_state smallint); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.transition_rule(from_state smallint, to_state smallint) IS 'What the rule tables say of a change from from_state (null: a creation) to to_state, null for an unknown state: a digest of lifecycle.states, state_transitions, transition_guards and transition_policies rewritten by their trigger transition_rules_digest, never by hand.';

--
-- Name: transition_rules_digest(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transition_rules_digest() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  perform lifecycle.transition_rules_write();
  return null;
end
$$;

--
-- Name: transition_rules_write(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.transition_rules_write() RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $_$
declare
  branches text;
  events text;
begin
  select pg_catalog.string_agg(
           pg_catalog.format('when %s then %L::lifecycle.transition_rule',
             coalesce(f.code, -1) * 64 + t.code,
             row(exists (select from lifecycle.state_transitions m
                          where m.from_state is not distinct from f.code and m.to_state = t.code),
                 (select p.min_access_level from lifecycle.transition_policies p where p.to_state = t.code),
                 array(select g.forbidden_state from lifecycle.transition_guards g
                        where g.from_state is not distinct from f.code and g.to_state = t.code
                          and g.scope = 'ancestor' order by g.forbidden_state),
                 array(select g.forbidden_state from lifecycle.transition_guards g
                        where g.from_state is not distinct from f.code and g.to_state = t.code
                          and g.scope = 'descendant' order by g.forbidden_state),
                 coalesce(f.name, '(new)'), t.name, t.permanent, coalesce(f.pending_deletion, false),
                 t.pending_deletion, f.operation)::lifecycle.transition_rule),
           e'\n    ' order by f.code nulls first, t.code)
    into branches
    -- Every state as the source, and null for a creation.
    from (select s.code, s.name, s.pending_deletion, s.operation from lifecycle.states s
          union all
          select null, null, null, null) f
   cross join lifecycle.states t;
  select pg_catalog.string_agg(
           pg_catalog.format('when %L then %L::lifecycle.event_rule', e.name,
             row(e.target_state, e.target_key,
                 array(select s.from_state from lifecycle.event_sources s
                        where s.event = e.name order by s.from_state))::lifecycle.event_rule),
           e'\n    ' order by e.name)
    into events
    from lifecycle.events e;
  execute pg_catalog.format($f$
    create or replace function lifecycle.event_rule(event text)
    returns lifecycle.event_rule
    language plpgsql
    stable
    parallel safe
    set search_path to ''
    as $b$ begin return %s; end $b$ $f$,
    case when events is null then 'null::lifecycle.event_rule'
         else pg_catalog.format(e'case event\n    %s\n    end', events) end);
  comment on function lifecycle.event_rule(text) is
    'An event''s target state, the metadata key that may send it back to where it was, and the states it applies from, null for an unknown event: a digest of lifecycle.events and event_sources rewritten by their trigger transition_rules_digest, never by hand.';
  execute pg_catalog.format($f$
    create or replace function lifecycle.transition_rule(from_state smallint, to_state smallint)
    returns lifecycle.transition_rule
    language plpgsql
    stable
    parallel safe
    set search_path to ''
    as $b$ begin return %s; end $b$ $f$,
    case when branches is null then 'null::lifecycle.transition_rule'
         else pg_catalog.format(e'case coalesce(from_state, -1) * 64 + to_state\n    %s\n    end', branches) end);
  comment on function lifecycle.transition_rule(smallint, smallint) is
    'What the rule tables say of a change from from_state (null: a creation) to to_state, null for an unknown state: a digest of lifecycle.states, state_transitions, transition_guards and transition_policies rewritten by their trigger transition_rules_digest, never by hand.';
end
$_$;

--
-- Name: webhook_address_refusal(inet); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.webhook_address_refusal(address inet) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT
    SET search_path TO ''
    AS $$
  with a as (
    select case
             when pg_catalog.family(address) = 6 and address <<= inet '::ffff:0.0.0.0/96'
               then inet '0.0.0.0' + (pg_catalog.host(address)::inet - inet '::ffff:0.0.0.0')
             when pg_catalog.family(address) = 6 and address <<= inet '64:ff9b::/96'
               then inet '0.0.0.0' + (pg_catalog.host(address)::inet - inet '64:ff9b::')
             else pg_catalog.host(address)::inet
           end as ip
  )
  select r.reason
    from a, (values
      (inet '0.0.0.0/8', 'this network (0.0.0.0/8)'),
      (inet '10.0.0.0/8', 'private (10.0.0.0/8, RFC 1918)'),
      (inet '100.64.0.0/10', 'shared address space of carrier-grade NAT (100.64.0.0/10)'),
      (inet '127.0.0.0/8', 'loopback (127.0.0.0/8)'),
      (inet '169.254.0.0/16', 'link-local (169.254.0.0/16, where cloud metadata services answer)'),
      (inet '172.16.0.0/12', 'private (172.16.0.0/12, RFC 1918)'),
      (inet '192.168.0.0/16', 'private (192.168.0.0/16, RFC 1918)'),
      (inet '224.0.0.0/4', 'multicast (224.0.0.0/4)'),
      (inet '240.0.0.0/4', 'reserved (240.0.0.0/4, broadcast included)'),
      (inet '::/128', 'unspecified (::)'),
      (inet '::1/128', 'loopback (::1)'),
      (inet '::/96', 'IPv4-compatible IPv6 (::/96, deprecated)'),
      (inet '64:ff9b:1::/48', 'local-use NAT64 (64:ff9b:1::/48)'),
      (inet 'fc00::/7', 'unique local (fc00::/7, private)'),
      (inet 'fe80::/10', 'link-local (fe80::/10)'),
      (inet 'fec0::/10', 'site-local (fec0::/10, deprecated)'),
      (inet 'ff00::/8', 'multicast (ff00::/8)')
    ) as r(network, reason)
   where pg_catalog.family(a.ip) = pg_catalog.family(r.network) and a.ip <<= r.network
   order by pg_catalog.masklen(r.network) desc
   limit 1
$$;

--
-- Name: FUNCTION webhook_address_refusal(address inet); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.webhook_address_refusal(address inet) IS 'Why a webhook may not be sent to this address (loopback, private, link-local, CGNAT, unspecified, multicast, reserved; IPv4-mapped judged as IPv4), or null.';

--
-- Name: webhook_allowed_hosts_refusal(text[]); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.webhook_allowed_hosts_refusal(allowed text[]) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO ''
    AS $_$
declare
  entry text;
begin
  if allowed is null then
    return 'webhook_allowed_hosts must be an array (empty: nothing allowed beyond public addresses)';
  elsif pg_catalog.cardinality(allowed) > 100 then
    return pg_catalog.format('webhook_allowed_hosts has %s entries, more than 100', pg_catalog.cardinality(allowed));
  end if;
  foreach entry in array allowed loop
    if entry is null or entry = '' then
      return 'webhook_allowed_hosts: every entry must be a host name or an address or CIDR range';
    elsif entry ~ ':' or entry ~ '/' or entry ~ '(^|\.)(0x[0-9a-fA-F]*|[0-9]+)$' then
      begin
        perform entry::inet;
      exception when invalid_text_representation then
        return pg_catalog.format('webhook_allowed_hosts: %s is neither a host name nor an address or CIDR range (write addresses as 127.0.0.1, 10.0.0.0/8, ::1)', entry);
      end;
      -- In the forms both PostgreSQL and the syncer's parser (Go's net/netip) read alike.
      if entry ~ ':' and entry !~ '^[0-9a-f:.]+(/[0-9]{1,3})?$' then
        return pg_catalog.format('webhook_allowed_hosts: write %s in lower case, without a zone', entry);
      elsif entry !~ ':' and entry !~ '^(0|[1-9][0-9]{0,2})(\.(0|[1-9][0-9]{0,2})){3}(/[0-9]{1,2})?$' then
        return pg_catalog.format('webhook_allowed_hosts: write %s as four decimal numbers without leading zeros, and an optional /prefix length', entry);
      end if;
    elsif pg_catalog.char_length(entry) > 253
          or entry !~ '^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$' then
      return pg_catalog.format('webhook_allowed_hosts: %s is not a lower-case host name (no port, no scheme, no trailing dot)', entry);
    end if;
  end loop;
  return null;
end
$_$;

--
-- Name: FUNCTION webhook_allowed_hosts_refusal(allowed text[]); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.webhook_allowed_hosts_refusal(allowed text[]) IS 'Why a webhook_allowed_hosts value is refused (not host names or addresses/CIDR ranges, more than 100), or null.';

--
-- Name: webhook_deliveries_claim(integer, interval); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.webhook_deliveries_claim(batch_size integer, lease interval) RETURNS TABLE(delivery_id bigint, url text, secret text, body jsonb, idempotency_key text, attempts integer)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
  with due as (
    select d.id from lifecycle.webhook_deliveries d
     where d.status = 'pending' and d.next_attempt_at <= pg_catalog.now()
     order by d.next_attempt_at, d.id
     limit batch_size
       for update skip locked
  ), leased as (
    update lifecycle.webhook_deliveries d set next_attempt_at = pg_catalog.now() + lease
      from due where d.id = due.id
    returning d.id, d.webhook_id, d.body, d.idempotency_key, d.attempts
  )
  select l.id, w.url, w.secret, l.body, l.idempotency_key, l.attempts
    from leased l join lifecycle.webhooks w on w.id = l.webhook_id
$$;

--
-- Name: webhook_delivery_result(bigint, integer, text, integer, interval); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.webhook_delivery_result(delivery_id bigint, status_code integer, error text, max_attempts integer, backoff interval) RETURNS text
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
  update lifecycle.webhook_deliveries d
     set attempts = d.attempts + 1,
         last_status_code = status_code,
         last_error = pg_catalog.left(error, 2000),
         status = case
           when status_code between 200 and 299 then 'delivered'
           when status_code between 400 and 499 and status_code not in (408, 429) then 'failed'
           when d.attempts + 1 >= max_attempts then 'dead'
           else 'pending' end,
         delivered_at = case when status_code between 200 and 299 then pg_catalog.now() end,
         next_attempt_at = pg_catalog.now()
           + least(interval '1 hour', backoff * pg_catalog.power(2, d.attempts))
             * (0.5 + pg_catalog.random() / 2)
   where d.id = delivery_id
  returning d.status
$$;

--
-- Name: webhook_url_refusal(text, text[]); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.webhook_url_refusal(url text, allowed text[]) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO ''
    AS $_$
declare
  authority text := pg_catalog.substring(url, '^[a-zA-Z]+://([^/?#]*)');
  host text;
  port text;
  address inet;
  parts text[];
  part text;
  value numeric;
  total numeric := 0;
  reason text;
begin
  if authority is null then
    return 'url must be an http:// or https:// URL';
  elsif pg_catalog.strpos(authority, '@') > 0 then
    return 'url must not carry a user name or password (user:password@host)';
  elsif pg_catalog.strpos(authority, '\') > 0 then
    return 'url must not hold a backslash in its host';
  elsif pg_catalog.strpos(authority, '%') > 0 then
    -- Go decodes %XX in a host: 127.0.0.%31 would dial 127.0.0.1.
    return 'url must not percent-encode its host';
  end if;

  if authority like '[%' then
    host := pg_catalog.substring(authority, '^\[([^]]*)\]');
    port := pg_catalog.substring(authority, '^\[[^]]*\](.*)$');
    if host is null then
      return 'url has an unclosed [ in its host';
    elsif host ~ '/' then
      return 'url must name a plain IPv6 address between [ and ], without a prefix length';
    end if;
    begin
      address := host::inet;
    exception when invalid_text_representation then
      return pg_catalog.format('url host [%s] is not an IPv6 address', host);
    end;
    if pg_catalog.family(address) <> 6 then
      return pg_catalog.format('url host [%s] is not an IPv6 address', host);
    end if;
  else
    host := pg_catalog.substring(authority, '^([^:]*)');
    port := pg_catalog.substring(authority, '^[^:]*(.*)$');
  end if;
  if port !~ '^(:[0-9]{0,5})?$' or (port ~ '[0-9]' and pg_catalog.substr(port, 2)::int not between 1 and 65535) then
    return 'url port must be a number from 1 to 65535';
  end if;

  host := pg_catalog.lower(pg_catalog.regexp_replace(host, '\.$', ''));
  if host = '' then
    return 'url has no host';
  end if;

  if address is null and host ~ '(^|\.)(0x[0-9a-f]*|[0-9]+)$' then
    parts := pg_catalog.string_to_array(host, '.');
    if pg_catalog.cardinality(parts) > 4 then
      return pg_catalog.format('url host %s ends in a number but is not an IPv4 address', host);
    end if;
    for i in 1 .. pg_catalog.cardinality(parts) loop
      part := parts[i];
      if part ~ '^0x[0-9a-f]*$' then
        value := 0;
        foreach part in array pg_catalog.regexp_split_to_array(pg_catalog.substr(part, 3), '') loop
          exit when part = '' or value > 4294967295;
          value := value * 16 + pg_catalog.strpos('0123456789abcdef', part) - 1;
        end loop;
      elsif part ~ '^0[0-7]+$' then
        value := 0;
        foreach part in array pg_catalog.regexp_split_to_array(pg_catalog.substr(part, 2), '') loop
          exit when value > 4294967295;
          value := value * 8 + part::int;
        end loop;
      elsif part ~ '^(0|[1-9][0-9]{0,11})$' then
        value := part::numeric;
      else
        return pg_catalog.format('url host %s ends in a number but is not an IPv4 address', host);
      end if;
      -- Every part but the last is one byte; the last fills the bytes that are left.
      if (i < pg_catalog.cardinality(parts) and value > 255)
         or (i = pg_catalog.cardinality(parts) and value >= 256::numeric ^ (5 - i)) then
        return pg_catalog.format('url host %s ends in a number but is not an IPv4 address', host);
      end if;
      total := case when i < pg_catalog.cardinality(parts) then total + value * 256::numeric ^ (4 - i)
                    else total + value end;
    end loop;
    address := inet '0.0.0.0' + total::bigint;
  end if;

  if address is null then
    if host = 'localhost' or host like '%.localhost' then
      if host = any (allowed) then
        return null;
      end if;
      return pg_catalog.format('url host %s is this machine (localhost)', host);
    end if;
    return null;
  end if;

  reason := lifecycle.webhook_address_refusal(address);
  if reason is null
     or exists (select from pg_catalog.unnest(allowed) e
                 where (e ~ ':' or e ~ '^[0-9.]+(/[0-9]+)?$') and address <<= e::inet) then
    return null;
  end if;
  if host = pg_catalog.host(address) then
    return pg_catalog.format('url host %s is %s', host, reason);
  end if;
  return pg_catalog.format('url host %s is %s, %s', host, pg_catalog.host(address), reason);
end
$_$;

--
-- Name: FUNCTION webhook_url_refusal(url text, allowed text[]); Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON FUNCTION lifecycle.webhook_url_refusal(url text, allowed text[]) IS 'Why a webhook URL may not be registered (userinfo, a localhost name, an IP-literal host in a forbidden range in any numeric form, unless allowed), or null.';

--
-- Name: webhooks_validate(); Type: FUNCTION; Schema: lifecycle; Owner: -
--

CREATE FUNCTION lifecycle.webhooks_validate() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $_$
declare
  refusal text;
begin
  if not exists (select from lifecycle.namespaces n where n.id = new.namespace_id) then
    raise exception using errcode = 'NS004', message = 'namespace not found',
      detail = pg_catalog.format('namespace_id=%s', new.namespace_id),
      hint = 'A webhook belongs to an existing namespace.';
  end if;
  refusal := case
    when new.url is null then 'url is required'
    when pg_catalog.char_length(new.url) > 2048
      then pg_catalog.format('url is %s characters long, more than 2048', pg_catalog.char_length(new.url))
    when new.url !~ '^https?://[^[:space:][:cntrl:]]+$' then 'url must be an http:// or https:// URL without spaces or control characters'
    when new.secret is null then 'secret is required'
    when pg_catalog.char_length(new.secret) < 16 then 'secret must be at least 16 characters long'
    when pg_catalog.char_length(new.secret) > 1024
      then pg_catalog.format('secret is %s characters long, more than 1024', pg_catalog.char_length(new.secret))
    when new.actions is null then 'actions must be an array (empty: every action)'
    when pg_catalog.cardinality(new.actions) > 100
      then pg_catalog.format('%s actions, more than 100', pg_catalog.cardinality(new.actions))
    when exists (select from pg_catalog.unnest(new.actions) a where a is null or pg_catalog.char_length(a) > 100)
      then 'every action must be a name of at most 100 characters'
  end;
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid webhook', detail = refusal,
      hint = 'A webhook needs an http(s) URL of at most 2048 characters, a secret of 16 to 1024 characters and at most 100 action names.';
  end if;
  -- Only a new URL is judged: a row registered before migration 030 (or before the operator
  -- narrowed the allowlist) can still be deactivated or deleted; the syncer refuses to send it.
  if tg_op = 'INSERT' or new.url is distinct from old.url then
    refusal := lifecycle.webhook_url_refusal(new.url, (select s.webhook_allowed_hosts from lifecycle.settings s));
    if refusal is not null then
      raise exception using errcode = 'NS010', message = 'invalid webhook', detail = refusal,
        hint = 'A webhook URL names a public host: no user name or password, no localhost, no loopback, private, link-local, carrier-grade NAT, unspecified, multicast or reserved address in any form. The operator may allow a host or range in lifecycle.settings.webhook_allowed_hosts.';
    end if;
  end if;
  return new;
end
$_$;

--
-- Name: audit_events; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.audit_events (
    id bigint NOT NULL,
    idempotency_key text NOT NULL,
    source_lsn pg_lsn,
    source_position integer,
    committed_at timestamp with time zone NOT NULL,
    action text NOT NULL,
    namespace_id bigint,
    full_path text,
    actor_id bigint,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: audit_events_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.audit_events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.audit_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: deleted_namespaces; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.deleted_namespaces (
    namespace_id bigint NOT NULL,
    full_path text NOT NULL,
    type text NOT NULL,
    parent_id bigint,
    traversal_ids bigint[] NOT NULL,
    deletion_scheduled_by bigint,
    deletion_scheduled_at timestamp with time zone,
    descendant_count bigint NOT NULL,
    deleted_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: effective_states; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.effective_states (
    namespace_id bigint NOT NULL,
    state text NOT NULL,
    effective_state text NOT NULL,
    inherited_from_namespace_id bigint,
    self_or_ancestor_archived boolean NOT NULL,
    self_or_ancestor_deletion_scheduled boolean NOT NULL,
    read_only boolean NOT NULL,
    full_path text NOT NULL
);

--
-- Name: TABLE effective_states; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.effective_states IS 'Effective state of every namespace for bulk reads, kept by the syncer change by change (lags by the syncer''s delay); namespace_effective_state is always fresh.';

--
-- Name: effective_states_computed; Type: VIEW; Schema: lifecycle; Owner: -
--

CREATE VIEW lifecycle.effective_states_computed AS
 WITH RECURSIVE tree AS (
         SELECT n.id,
            n.state,
            n.path AS full_path,
                CASE
                    WHEN (n.state <> 0) THEN n.id
                    ELSE NULL::bigint
                END AS source_id,
            (s.name = 'archived'::text) AS archived,
            s.pending_deletion,
            s.read_only
           FROM (lifecycle.namespaces n
             JOIN lifecycle.states s ON ((s.code = n.state)))
          WHERE (n.parent_id IS NULL)
        UNION ALL
         SELECT c.id,
            c.state,
            ((t_1.full_path || '/'::text) || c.path),
                CASE
                    WHEN (c.state <> 0) THEN c.id
                    ELSE t_1.source_id
                END AS source_id,
            (t_1.archived OR (s.name = 'archived'::text)),
            (t_1.pending_deletion OR s.pending_deletion),
            (t_1.read_only OR s.read_only)
           FROM ((tree t_1
             JOIN lifecycle.namespaces c ON ((c.parent_id = t_1.id)))
             JOIN lifecycle.states s ON ((s.code = c.state)))
        )
 SELECT t.id AS namespace_id,
    own.name AS state,
    COALESCE(src_state.name, 'active'::text) AS effective_state,
    NULLIF(t.source_id, t.id) AS inherited_from_namespace_id,
    t.archived AS self_or_ancestor_archived,
    t.pending_deletion AS self_or_ancestor_deletion_scheduled,
    t.read_only,
    t.full_path
   FROM (((tree t
     JOIN lifecycle.states own ON ((own.code = t.state)))
     LEFT JOIN lifecycle.namespaces src ON ((src.id = t.source_id)))
     LEFT JOIN lifecycle.states src_state ON ((src_state.code = src.state)));

--
-- Name: VIEW effective_states_computed; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON VIEW lifecycle.effective_states_computed IS 'The definition of lifecycle.effective_states (recursive, from every root): the reference the kept table is verified against.';

--
-- Name: effective_states_pending; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.effective_states_pending (
    id bigint NOT NULL,
    audit_event_id bigint,
    created_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL
)
WITH (autovacuum_vacuum_scale_factor='0', autovacuum_vacuum_threshold='5000');

--
-- Name: TABLE effective_states_pending; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.effective_states_pending IS 'Facts recorded (facts_record) and not yet applied to lifecycle.effective_states (effective_states_apply).';

--
-- Name: effective_states_pending_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.effective_states_pending ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.effective_states_pending_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: event_sources; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.event_sources (
    event text NOT NULL,
    from_state smallint NOT NULL
);

--
-- Name: events; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.events (
    name text NOT NULL,
    target_state smallint NOT NULL,
    target_key text,
    description text NOT NULL,
    CONSTRAINT events_target_key_check CHECK ((target_key = ANY (ARRAY['preserved_state'::text, 'previous_state'::text])))
);

--
-- Name: fact_dead_letters; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.fact_dead_letters (
    id bigint NOT NULL,
    source_lsn pg_lsn NOT NULL,
    source_position integer NOT NULL,
    committed_at timestamp with time zone NOT NULL,
    reason text NOT NULL,
    detail text NOT NULL,
    payload bytea NOT NULL,
    payload_bytes bigint NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT fact_dead_letters_check CHECK ((payload_bytes >= octet_length(payload))),
    CONSTRAINT fact_dead_letters_payload_check CHECK ((octet_length(payload) <= 8192)),
    CONSTRAINT fact_dead_letters_reason_check CHECK ((reason = ANY (ARRAY['too_large'::text, 'unreadable'::text, 'invalid_fact'::text, 'record_failed'::text])))
);

--
-- Name: fact_dead_letters_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.fact_dead_letters ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.fact_dead_letters_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: fact_key; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.fact_key (
    singleton boolean DEFAULT true NOT NULL,
    key bytea NOT NULL,
    legacy_mac_until timestamp with time zone,
    CONSTRAINT fact_key_singleton_check CHECK (singleton)
);

--
-- Name: COLUMN fact_key.legacy_mac_until; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.fact_key.legacy_mac_until IS 'Messages committed before this time may carry the MAC of before migration 026 (SHA-256 of the key and of the key and the text); fact_message_adopt accepts it for them.';

--
-- Name: facts; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.facts (
    id bigint NOT NULL,
    action text NOT NULL,
    namespace_id bigint,
    traversal_ids bigint[],
    full_path text,
    actor_id bigint,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    written_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    applied boolean DEFAULT false NOT NULL
)
WITH (autovacuum_vacuum_scale_factor='0', autovacuum_vacuum_threshold='5000');

--
-- Name: TABLE facts; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.facts IS 'The outbox: one row per committed lifecycle fact not yet recorded as an audit row (fact_emit writes, facts_record deletes).';

--
-- Name: facts_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.facts ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.facts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: json_schemas; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.json_schemas (
    name text NOT NULL,
    schema jsonb NOT NULL,
    max_bytes integer NOT NULL,
    CONSTRAINT json_schemas_max_bytes_check CHECK ((max_bytes > 0)),
    CONSTRAINT json_schemas_schema_check CHECK ((jsonb_typeof(schema) = 'object'::text))
);

--
-- Name: legacy_bridges_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.legacy_bridges ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.legacy_bridges_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: lock_rows; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.lock_rows (
    name text NOT NULL,
    why text NOT NULL
);

--
-- Name: TABLE lock_rows; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.lock_rows IS 'Rows the schema''s functions lock to serialise work that no client may hold up (no role may lock them: FOR SHARE/UPDATE need UPDATE privilege, granted to none).';

--
-- Name: namespace_details; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.namespace_details (
    namespace_id bigint NOT NULL,
    state_metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT namespace_details_state_metadata_check CHECK ((jsonb_typeof(state_metadata) = 'object'::text))
);

--
-- Name: namespace_imports; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.namespace_imports (
    id bigint NOT NULL,
    parent_id bigint,
    type text,
    path text,
    name text,
    visibility text DEFAULT 'private'::text,
    state text DEFAULT 'active'::text,
    state_changed_at timestamp with time zone,
    state_changed_by bigint,
    preserved_state text,
    created_at timestamp with time zone,
    reject_code text,
    reject_reason text
);

--
-- Name: TABLE namespace_imports; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.namespace_imports IS 'Staging for an import: one row per namespace (the application''s id kept); rejected rows stay with reject_code and reject_reason.';

--
-- Name: namespace_members; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.namespace_members (
    namespace_id bigint NOT NULL,
    user_id bigint NOT NULL,
    access_level smallint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT namespace_members_access_level_check CHECK ((access_level = ANY (ARRAY[10, 20, 30, 40, 50])))
);

--
-- Name: TABLE namespace_members; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.namespace_members IS 'Memberships, inherited down the tree: the effective level is the highest on the path root … self.';

--
-- Name: namespace_redirects; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.namespace_redirects (
    id bigint NOT NULL,
    old_full_path text NOT NULL,
    namespace_id bigint NOT NULL,
    kind text NOT NULL,
    actor_id bigint,
    new_full_path text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT namespace_redirects_kind_check CHECK ((kind = ANY (ARRAY['rename'::text, 'transfer'::text, 'import'::text])))
);

--
-- Name: namespace_redirects_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.namespace_redirects ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.namespace_redirects_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: namespace_state_updates; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.namespace_state_updates (
    id bigint NOT NULL,
    namespace_id bigint NOT NULL,
    from_state smallint NOT NULL,
    to_state smallint NOT NULL,
    event text,
    actor_id bigint,
    source text NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT namespace_state_updates_metadata_check CHECK ((jsonb_typeof(metadata) = 'object'::text))
);

--
-- Name: namespace_state_updates_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.namespace_state_updates ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.namespace_state_updates_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: namespace_types; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.namespace_types (
    name text NOT NULL,
    description text NOT NULL,
    root_only boolean DEFAULT false NOT NULL,
    transferable boolean DEFAULT true NOT NULL,
    can_be_parent boolean DEFAULT true NOT NULL
);

--
-- Name: TABLE namespace_types; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.namespace_types IS 'The namespace types (lifecycle.namespaces.type) and what a namespace of each may do; read through the predicates its trigger namespace_types_digest writes.';

--
-- Name: COLUMN namespace_types.root_only; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.namespace_types.root_only IS 'Only ever a root: never below a parent.';

--
-- Name: COLUMN namespace_types.transferable; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.namespace_types.transferable IS 'May move to another parent (a transfer).';

--
-- Name: COLUMN namespace_types.can_be_parent; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON COLUMN lifecycle.namespace_types.can_be_parent IS 'May have children.';

--
-- Name: namespaces_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.namespaces ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME lifecycle.namespaces_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: notifications; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.notifications (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    audit_event_id bigint NOT NULL,
    namespace_id bigint,
    action text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    read_at timestamp with time zone
);

--
-- Name: notifications_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.notifications ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.notifications_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: operation_policies; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.operation_policies (
    operation text NOT NULL,
    min_access_level smallint DEFAULT 50 NOT NULL,
    description text NOT NULL,
    CONSTRAINT operation_policies_min_access_level_check CHECK ((min_access_level = ANY (ARRAY[10, 20, 30, 40, 50])))
);

--
-- Name: path_claims; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE UNLOGGED TABLE lifecycle.path_claims (
    parent_id bigint,
    path text NOT NULL
);

--
-- Name: TABLE path_claims; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.path_claims IS 'Claims of "path below parent" (step 3 of the global lock order, namespace_lock_sibling_path): a row inserted and deleted by the claiming transaction, which holds the key until it ends. Always empty between transactions.';

--
-- Name: reserved_paths; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.reserved_paths (
    path text NOT NULL,
    scope text NOT NULL,
    reason text NOT NULL,
    CONSTRAINT reserved_paths_scope_check CHECK ((scope = ANY (ARRAY['top_level'::text, 'any'::text])))
);

--
-- Name: state_transitions; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.state_transitions (
    from_state smallint,
    to_state smallint NOT NULL,
    reason text NOT NULL,
    audit_action text NOT NULL,
    CONSTRAINT state_transitions_change CHECK ((from_state <> to_state))
);

--
-- Name: TABLE state_transitions; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.state_transitions IS 'docs/design.md §3 transition matrix (ADR 003), one row per allowed pair; from_state null = creation.';

--
-- Name: sweep_claims; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE UNLOGGED TABLE lifecycle.sweep_claims (
    namespace_id bigint NOT NULL,
    pid integer NOT NULL,
    backend_start timestamp with time zone NOT NULL,
    claimed_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: TABLE sweep_claims; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.sweep_claims IS 'The sweeper''s claims of namespaces (sweep_claim), held across the transactions of their work by a session named by pid and start time; taken over when that session is gone. Unlogged: no session outlives a crash.';

--
-- Name: syncer_progress; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.syncer_progress (
    slot_name text NOT NULL,
    lsn pg_lsn NOT NULL,
    committed_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: transfer_requests_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.transfer_requests ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.transfer_requests_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: transition_guards; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.transition_guards (
    from_state smallint,
    to_state smallint NOT NULL,
    scope text NOT NULL,
    forbidden_state smallint NOT NULL,
    CONSTRAINT transition_guards_scope_check CHECK ((scope = ANY (ARRAY['ancestor'::text, 'descendant'::text])))
);

--
-- Name: TABLE transition_guards; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.transition_guards IS 'States forbidden on any ancestor / any descendant for a transition (NS002 / NS003).';

--
-- Name: transition_policies; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.transition_policies (
    to_state smallint NOT NULL,
    min_access_level smallint DEFAULT 50 NOT NULL,
    CONSTRAINT transition_policies_min_access_level_check CHECK ((min_access_level = ANY (ARRAY[10, 20, 30, 40, 50])))
);

--
-- Name: visibility_levels; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.visibility_levels (
    name text NOT NULL,
    rank smallint NOT NULL
);

--
-- Name: TABLE visibility_levels; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON TABLE lifecycle.visibility_levels IS 'Visibility levels by rank: a namespace is never more visible (higher rank) than its parent.';

--
-- Name: webhook_deliveries; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.webhook_deliveries (
    id bigint NOT NULL,
    webhook_id bigint NOT NULL,
    audit_event_id bigint NOT NULL,
    idempotency_key text NOT NULL,
    body jsonb NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_status_code integer,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    delivered_at timestamp with time zone,
    CONSTRAINT webhook_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text, 'dead'::text])))
);

--
-- Name: webhook_deliveries_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.webhook_deliveries ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.webhook_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: webhooks; Type: TABLE; Schema: lifecycle; Owner: -
--

CREATE TABLE lifecycle.webhooks (
    id bigint NOT NULL,
    namespace_id bigint NOT NULL,
    url text NOT NULL,
    secret text NOT NULL,
    actions text[] DEFAULT '{}'::text[] NOT NULL,
    active boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT webhooks_secret_check CHECK ((length(secret) >= 16)),
    CONSTRAINT webhooks_url_check CHECK ((url ~ '^https?://'::text))
);

--
-- Name: webhooks_id_seq; Type: SEQUENCE; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.webhooks ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME lifecycle.webhooks_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: audit_events audit_events_idempotency_key_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.audit_events
    ADD CONSTRAINT audit_events_idempotency_key_key UNIQUE (idempotency_key);

--
-- Name: audit_events audit_events_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.audit_events
    ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id);

--
-- Name: deleted_namespaces deleted_namespaces_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.deleted_namespaces
    ADD CONSTRAINT deleted_namespaces_pkey PRIMARY KEY (namespace_id);

--
-- Name: effective_states_pending effective_states_pending_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.effective_states_pending
    ADD CONSTRAINT effective_states_pending_pkey PRIMARY KEY (id);

--
-- Name: effective_states effective_states_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.effective_states
    ADD CONSTRAINT effective_states_pkey PRIMARY KEY (namespace_id);

--
-- Name: event_sources event_sources_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.event_sources
    ADD CONSTRAINT event_sources_pkey PRIMARY KEY (event, from_state);

--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (name);

--
-- Name: fact_dead_letters fact_dead_letters_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.fact_dead_letters
    ADD CONSTRAINT fact_dead_letters_pkey PRIMARY KEY (id);

--
-- Name: fact_dead_letters fact_dead_letters_source_lsn_source_position_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.fact_dead_letters
    ADD CONSTRAINT fact_dead_letters_source_lsn_source_position_key UNIQUE (source_lsn, source_position);

--
-- Name: fact_key fact_key_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.fact_key
    ADD CONSTRAINT fact_key_pkey PRIMARY KEY (singleton);

--
-- Name: facts facts_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.facts
    ADD CONSTRAINT facts_pkey PRIMARY KEY (id);

--
-- Name: json_schemas json_schemas_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.json_schemas
    ADD CONSTRAINT json_schemas_pkey PRIMARY KEY (name);

--
-- Name: legacy_bridges legacy_bridges_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.legacy_bridges
    ADD CONSTRAINT legacy_bridges_pkey PRIMARY KEY (id);

--
-- Name: legacy_bridges legacy_bridges_source_state_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.legacy_bridges
    ADD CONSTRAINT legacy_bridges_source_state_key UNIQUE (source, state);

--
-- Name: lock_rows lock_rows_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.lock_rows
    ADD CONSTRAINT lock_rows_pkey PRIMARY KEY (name);

--
-- Name: namespace_details namespace_details_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_details
    ADD CONSTRAINT namespace_details_pkey PRIMARY KEY (namespace_id);

--
-- Name: namespace_imports namespace_imports_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_imports
    ADD CONSTRAINT namespace_imports_pkey PRIMARY KEY (id);

--
-- Name: namespace_members namespace_members_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_members
    ADD CONSTRAINT namespace_members_pkey PRIMARY KEY (namespace_id, user_id);

--
-- Name: namespace_redirects namespace_redirects_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_redirects
    ADD CONSTRAINT namespace_redirects_pkey PRIMARY KEY (id);

--
-- Name: namespace_state_updates namespace_state_updates_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_state_updates
    ADD CONSTRAINT namespace_state_updates_pkey PRIMARY KEY (id);

--
-- Name: namespace_state_updates namespace_state_updates_source_check; Type: CHECK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.namespace_state_updates
    ADD CONSTRAINT namespace_state_updates_source_check CHECK ((source = ANY (ARRAY['api'::text, 'sql'::text, 'import'::text, 'bridge'::text]))) NOT VALID;

--
-- Name: namespace_types namespace_types_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_types
    ADD CONSTRAINT namespace_types_pkey PRIMARY KEY (name);

--
-- Name: namespaces namespaces_id_range; Type: CHECK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE lifecycle.namespaces
    ADD CONSTRAINT namespaces_id_range CHECK (((id >= 1) AND (id <= '9223372036854775806'::bigint))) NOT VALID;

--
-- Name: CONSTRAINT namespaces_id_range ON namespaces; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON CONSTRAINT namespaces_id_range ON lifecycle.namespaces IS '0 is the "no parent" key of sibling paths (coalesce(parent_id, 0)); the subtree bound of the guards is the last id + 1.';

--
-- Name: namespaces namespaces_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespaces
    ADD CONSTRAINT namespaces_pkey PRIMARY KEY (id);

--
-- Name: notifications notifications_audit_event_id_user_id_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.notifications
    ADD CONSTRAINT notifications_audit_event_id_user_id_key UNIQUE (audit_event_id, user_id);

--
-- Name: notifications notifications_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.notifications
    ADD CONSTRAINT notifications_pkey PRIMARY KEY (id);

--
-- Name: operation_policies operation_policies_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.operation_policies
    ADD CONSTRAINT operation_policies_pkey PRIMARY KEY (operation);

--
-- Name: path_claims path_claims_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.path_claims
    ADD CONSTRAINT path_claims_key UNIQUE NULLS NOT DISTINCT (parent_id, path);

--
-- Name: reserved_paths reserved_paths_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.reserved_paths
    ADD CONSTRAINT reserved_paths_pkey PRIMARY KEY (path);

--
-- Name: settings settings_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (singleton);

--
-- Name: state_transitions state_transitions_pair_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.state_transitions
    ADD CONSTRAINT state_transitions_pair_key UNIQUE NULLS NOT DISTINCT (from_state, to_state);

--
-- Name: states states_alias_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.states
    ADD CONSTRAINT states_alias_key UNIQUE (alias);

--
-- Name: states states_name_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.states
    ADD CONSTRAINT states_name_key UNIQUE (name);

--
-- Name: states states_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.states
    ADD CONSTRAINT states_pkey PRIMARY KEY (code);

--
-- Name: sweep_claims sweep_claims_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.sweep_claims
    ADD CONSTRAINT sweep_claims_pkey PRIMARY KEY (namespace_id);

--
-- Name: syncer_progress syncer_progress_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.syncer_progress
    ADD CONSTRAINT syncer_progress_pkey PRIMARY KEY (slot_name);

--
-- Name: transaction_flags transaction_flags_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.transaction_flags
    ADD CONSTRAINT transaction_flags_pkey PRIMARY KEY (xact, flag);

--
-- Name: transfer_requests transfer_requests_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.transfer_requests
    ADD CONSTRAINT transfer_requests_pkey PRIMARY KEY (id);

--
-- Name: transition_guards transition_guards_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.transition_guards
    ADD CONSTRAINT transition_guards_key UNIQUE NULLS NOT DISTINCT (from_state, to_state, scope, forbidden_state);

--
-- Name: transition_policies transition_policies_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.transition_policies
    ADD CONSTRAINT transition_policies_pkey PRIMARY KEY (to_state);

--
-- Name: visibility_levels visibility_levels_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.visibility_levels
    ADD CONSTRAINT visibility_levels_pkey PRIMARY KEY (name);

--
-- Name: visibility_levels visibility_levels_rank_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.visibility_levels
    ADD CONSTRAINT visibility_levels_rank_key UNIQUE (rank);

--
-- Name: webhook_deliveries webhook_deliveries_idempotency_key_key; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_idempotency_key_key UNIQUE (idempotency_key);

--
-- Name: webhook_deliveries webhook_deliveries_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id);

--
-- Name: webhooks webhooks_pkey; Type: CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.webhooks
    ADD CONSTRAINT webhooks_pkey PRIMARY KEY (id);

--
-- Name: audit_events_committed_at_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX audit_events_committed_at_idx ON lifecycle.audit_events USING btree (committed_at);

--
-- Name: audit_events_namespace_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX audit_events_namespace_id_idx ON lifecycle.audit_events USING btree (namespace_id, id);

--
-- Name: effective_states_full_path_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX effective_states_full_path_idx ON lifecycle.effective_states USING btree (full_path text_pattern_ops);

--
-- Name: namespace_imports_parent_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespace_imports_parent_id_idx ON lifecycle.namespace_imports USING btree (parent_id);

--
-- Name: namespace_members_user_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespace_members_user_id_idx ON lifecycle.namespace_members USING btree (user_id);

--
-- Name: namespace_redirects_namespace_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespace_redirects_namespace_id_idx ON lifecycle.namespace_redirects USING btree (namespace_id, kind, created_at);

--
-- Name: namespace_redirects_old_full_path_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespace_redirects_old_full_path_idx ON lifecycle.namespace_redirects USING hash (old_full_path);

--
-- Name: namespace_state_updates_namespace_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespace_state_updates_namespace_id_idx ON lifecycle.namespace_state_updates USING btree (namespace_id, id);

--
-- Name: namespaces_deletion_scheduled_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespaces_deletion_scheduled_idx ON lifecycle.namespaces USING btree (deletion_scheduled_at) WHERE lifecycle.state_deletion_adjourned(state);

--
-- Name: namespaces_live_path_key; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE UNIQUE INDEX namespaces_live_path_key ON lifecycle.namespaces USING btree (COALESCE(parent_id, (0)::bigint), path) WHERE lifecycle.state_path_live(state);

--
-- Name: namespaces_own_state_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespaces_own_state_idx ON lifecycle.namespaces USING btree (state, traversal_ids) WHERE lifecycle.state_is_own(state);

--
-- Name: namespaces_parent_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespaces_parent_id_idx ON lifecycle.namespaces USING btree (parent_id);

--
-- Name: namespaces_stateful_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespaces_stateful_idx ON lifecycle.namespaces USING btree (id) INCLUDE (state) WHERE lifecycle.state_sets_effective(state);

--
-- Name: INDEX namespaces_stateful_idx; Type: COMMENT; Schema: lifecycle; Owner: -
--

COMMENT ON INDEX lifecycle.namespaces_stateful_idx IS 'The own states on a path, for namespace_effective_state (id = any (traversal_ids) and state_sets_effective(state)). The predicate is state_sets_effective, not state_is_own (the same codes as a bit test), so that the descendant guards (state_is_own, namespaces_own_state_idx) can never be planned on it.';

--
-- Name: namespaces_traversal_ids_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespaces_traversal_ids_idx ON lifecycle.namespaces USING btree (traversal_ids);

--
-- Name: namespaces_visible_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX namespaces_visible_idx ON lifecycle.namespaces USING btree (visibility, traversal_ids) WHERE (visibility <> 'private'::text);

--
-- Name: notifications_user_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX notifications_user_id_idx ON lifecycle.notifications USING btree (user_id, id) WHERE (read_at IS NULL);

--
-- Name: transfer_requests_expires_at_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX transfer_requests_expires_at_idx ON lifecycle.transfer_requests USING btree (expires_at) WHERE (status = 'pending'::text);

--
-- Name: transfer_requests_open_key; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE UNIQUE INDEX transfer_requests_open_key ON lifecycle.transfer_requests USING btree (namespace_id) WHERE (status = ANY (ARRAY['pending'::text, 'accepted'::text]));

--
-- Name: transfer_requests_to_parent_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX transfer_requests_to_parent_id_idx ON lifecycle.transfer_requests USING btree (to_parent_id);

--
-- Name: webhook_deliveries_due_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX webhook_deliveries_due_idx ON lifecycle.webhook_deliveries USING btree (next_attempt_at) WHERE (status = 'pending'::text);

--
-- Name: webhooks_namespace_id_idx; Type: INDEX; Schema: lifecycle; Owner: -
--

CREATE INDEX webhooks_namespace_id_idx ON lifecycle.webhooks USING btree (namespace_id) WHERE active;

--
-- Name: deleted_namespaces deleted_namespaces_facts; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER deleted_namespaces_facts AFTER INSERT ON lifecycle.deleted_namespaces FOR EACH ROW EXECUTE FUNCTION lifecycle.deleted_namespaces_facts();

--
-- Name: deleted_namespaces facts_truncated; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER facts_truncated AFTER TRUNCATE ON lifecycle.deleted_namespaces FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.facts_truncated();

--
-- Name: namespace_details facts_truncated; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER facts_truncated AFTER TRUNCATE ON lifecycle.namespace_details FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.facts_truncated();

--
-- Name: namespace_members facts_truncated; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER facts_truncated AFTER TRUNCATE ON lifecycle.namespace_members FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.facts_truncated();

--
-- Name: namespace_redirects facts_truncated; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER facts_truncated AFTER TRUNCATE ON lifecycle.namespace_redirects FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.facts_truncated();

--
-- Name: namespace_state_updates facts_truncated; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER facts_truncated AFTER TRUNCATE ON lifecycle.namespace_state_updates FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.facts_truncated();

--
-- Name: namespaces facts_truncated; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER facts_truncated AFTER TRUNCATE ON lifecycle.namespaces FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.facts_truncated();

--
-- Name: transfer_requests facts_truncated; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER facts_truncated AFTER TRUNCATE ON lifecycle.transfer_requests FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.facts_truncated();

--
-- Name: namespace_details namespace_details_0_settings_confirmed; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespace_details_0_settings_confirmed BEFORE INSERT OR UPDATE ON lifecycle.namespace_details FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) = 'on'::text)) EXECUTE FUNCTION lifecycle.settings_confirmed();

--
-- Name: namespace_details namespace_details_validate; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespace_details_validate BEFORE INSERT OR UPDATE ON lifecycle.namespace_details FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION lifecycle.namespace_details_validate();

--
-- Name: namespace_members namespace_members_facts; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespace_members_facts AFTER INSERT OR DELETE OR UPDATE ON lifecycle.namespace_members FOR EACH ROW EXECUTE FUNCTION lifecycle.namespace_members_facts();

--
-- Name: namespace_members namespace_members_validate; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespace_members_validate BEFORE INSERT OR UPDATE ON lifecycle.namespace_members FOR EACH ROW EXECUTE FUNCTION lifecycle.namespace_members_validate();

--
-- Name: namespace_types namespace_types_digest; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespace_types_digest AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON lifecycle.namespace_types FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.namespace_types_digest();

--
-- Name: namespaces namespaces_0_settings_confirmed; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_0_settings_confirmed BEFORE INSERT OR UPDATE ON lifecycle.namespaces FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) = 'on'::text)) EXECUTE FUNCTION lifecycle.settings_confirmed();

--
-- Name: namespaces namespaces_1_traversal_ids_cascade; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_1_traversal_ids_cascade AFTER UPDATE OF parent_id ON lifecycle.namespaces FOR EACH ROW WHEN ((old.traversal_ids IS DISTINCT FROM new.traversal_ids)) EXECUTE FUNCTION lifecycle.namespaces_traversal_ids_cascade();

--
-- Name: namespaces namespaces_1_traversal_ids_maintain; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_1_traversal_ids_maintain BEFORE UPDATE OF parent_id, traversal_ids ON lifecycle.namespaces FOR EACH ROW EXECUTE FUNCTION lifecycle.namespaces_traversal_ids_maintain();

--
-- Name: namespaces namespaces_1_traversal_ids_maintain_insert; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_1_traversal_ids_maintain_insert BEFORE INSERT ON lifecycle.namespaces FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION lifecycle.namespaces_traversal_ids_maintain();

--
-- Name: namespaces namespaces_2_moves; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_2_moves BEFORE UPDATE OF parent_id ON lifecycle.namespaces FOR EACH ROW EXECUTE FUNCTION lifecycle.namespaces_moves();

--
-- Name: namespaces namespaces_2_paths; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_2_paths BEFORE UPDATE OF path, parent_id, name ON lifecycle.namespaces FOR EACH ROW EXECUTE FUNCTION lifecycle.namespaces_paths();

--
-- Name: namespaces namespaces_2_paths_insert; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_2_paths_insert BEFORE INSERT ON lifecycle.namespaces FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION lifecycle.namespaces_paths();

--
-- Name: namespaces namespaces_2_state_gate; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_2_state_gate BEFORE UPDATE OF state ON lifecycle.namespaces FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION lifecycle.namespaces_state_gate();

--
-- Name: namespaces namespaces_2_state_gate_insert; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_2_state_gate_insert BEFORE INSERT ON lifecycle.namespaces FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION lifecycle.namespaces_state_gate();

--
-- Name: namespaces namespaces_2_visibility; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_2_visibility BEFORE UPDATE OF visibility, parent_id ON lifecycle.namespaces FOR EACH ROW EXECUTE FUNCTION lifecycle.namespaces_visibility();

--
-- Name: namespaces namespaces_2_visibility_insert; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_2_visibility_insert BEFORE INSERT ON lifecycle.namespaces FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION lifecycle.namespaces_visibility();

--
-- Name: namespaces namespaces_3_state_record; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_3_state_record AFTER UPDATE OF state ON lifecycle.namespaces FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION lifecycle.namespaces_state_record();

--
-- Name: namespaces namespaces_3_state_record_insert; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_3_state_record_insert AFTER INSERT ON lifecycle.namespaces FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION lifecycle.namespaces_state_record();

--
-- Name: namespaces namespaces_4_facts; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_4_facts AFTER UPDATE OF path, visibility ON lifecycle.namespaces FOR EACH ROW EXECUTE FUNCTION lifecycle.namespaces_facts();

--
-- Name: namespaces namespaces_4_facts_insert; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_4_facts_insert AFTER INSERT ON lifecycle.namespaces FOR EACH ROW WHEN ((current_setting('lifecycle.importing'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION lifecycle.namespaces_facts();

--
-- Name: namespaces namespaces_deletion_guard; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_deletion_guard BEFORE DELETE ON lifecycle.namespaces FOR EACH ROW EXECUTE FUNCTION lifecycle.namespaces_deletion_guard();

--
-- Name: namespaces namespaces_effective_states; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER namespaces_effective_states AFTER DELETE ON lifecycle.namespaces REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.namespaces_effective_states();

--
-- Name: settings settings_validate; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER settings_validate BEFORE INSERT OR UPDATE ON lifecycle.settings FOR EACH ROW EXECUTE FUNCTION lifecycle.settings_validate();

--
-- Name: states states_digest; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER states_digest AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON lifecycle.states FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.states_digest();

--
-- Name: transfer_requests transfer_requests_facts; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER transfer_requests_facts AFTER INSERT OR UPDATE OF status ON lifecycle.transfer_requests FOR EACH ROW EXECUTE FUNCTION lifecycle.transfer_requests_facts();

--
-- Name: event_sources transition_rules_digest; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER transition_rules_digest AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON lifecycle.event_sources FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.transition_rules_digest();

--
-- Name: events transition_rules_digest; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER transition_rules_digest AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON lifecycle.events FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.transition_rules_digest();

--
-- Name: state_transitions transition_rules_digest; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER transition_rules_digest AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON lifecycle.state_transitions FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.transition_rules_digest();

--
-- Name: states transition_rules_digest; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER transition_rules_digest AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON lifecycle.states FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.transition_rules_digest();

--
-- Name: transition_guards transition_rules_digest; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER transition_rules_digest AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON lifecycle.transition_guards FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.transition_rules_digest();

--
-- Name: transition_policies transition_rules_digest; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER transition_rules_digest AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON lifecycle.transition_policies FOR EACH STATEMENT EXECUTE FUNCTION lifecycle.transition_rules_digest();

--
-- Name: webhooks webhooks_validate; Type: TRIGGER; Schema: lifecycle; Owner: -
--

CREATE TRIGGER webhooks_validate BEFORE INSERT OR UPDATE ON lifecycle.webhooks FOR EACH ROW EXECUTE FUNCTION lifecycle.webhooks_validate();

--
-- Name: event_sources event_sources_event_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.event_sources
    ADD CONSTRAINT event_sources_event_fkey FOREIGN KEY (event) REFERENCES lifecycle.events(name);

--
-- Name: event_sources event_sources_from_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.event_sources
    ADD CONSTRAINT event_sources_from_state_fkey FOREIGN KEY (from_state) REFERENCES lifecycle.states(code);

--
-- Name: events events_target_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.events
    ADD CONSTRAINT events_target_state_fkey FOREIGN KEY (target_state) REFERENCES lifecycle.states(code);

--
-- Name: legacy_bridges legacy_bridges_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.legacy_bridges
    ADD CONSTRAINT legacy_bridges_state_fkey FOREIGN KEY (state) REFERENCES lifecycle.states(code);

--
-- Name: namespace_details namespace_details_namespace_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_details
    ADD CONSTRAINT namespace_details_namespace_id_fkey FOREIGN KEY (namespace_id) REFERENCES lifecycle.namespaces(id) ON DELETE CASCADE;

--
-- Name: namespace_members namespace_members_namespace_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_members
    ADD CONSTRAINT namespace_members_namespace_id_fkey FOREIGN KEY (namespace_id) REFERENCES lifecycle.namespaces(id) ON DELETE CASCADE;

--
-- Name: namespace_redirects namespace_redirects_namespace_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_redirects
    ADD CONSTRAINT namespace_redirects_namespace_id_fkey FOREIGN KEY (namespace_id) REFERENCES lifecycle.namespaces(id) ON DELETE CASCADE;

--
-- Name: namespace_state_updates namespace_state_updates_event_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_state_updates
    ADD CONSTRAINT namespace_state_updates_event_fkey FOREIGN KEY (event) REFERENCES lifecycle.events(name);

--
-- Name: namespace_state_updates namespace_state_updates_from_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_state_updates
    ADD CONSTRAINT namespace_state_updates_from_state_fkey FOREIGN KEY (from_state) REFERENCES lifecycle.states(code);

--
-- Name: namespace_state_updates namespace_state_updates_to_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespace_state_updates
    ADD CONSTRAINT namespace_state_updates_to_state_fkey FOREIGN KEY (to_state) REFERENCES lifecycle.states(code);

--
-- Name: namespaces namespaces_parent_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespaces
    ADD CONSTRAINT namespaces_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES lifecycle.namespaces(id);

--
-- Name: namespaces namespaces_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespaces
    ADD CONSTRAINT namespaces_state_fkey FOREIGN KEY (state) REFERENCES lifecycle.states(code);

--
-- Name: namespaces namespaces_visibility_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.namespaces
    ADD CONSTRAINT namespaces_visibility_fkey FOREIGN KEY (visibility) REFERENCES lifecycle.visibility_levels(name);

--
-- Name: notifications notifications_audit_event_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.notifications
    ADD CONSTRAINT notifications_audit_event_id_fkey FOREIGN KEY (audit_event_id) REFERENCES lifecycle.audit_events(id) ON DELETE CASCADE;

--
-- Name: state_transitions state_transitions_from_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.state_transitions
    ADD CONSTRAINT state_transitions_from_state_fkey FOREIGN KEY (from_state) REFERENCES lifecycle.states(code);

--
-- Name: state_transitions state_transitions_to_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.state_transitions
    ADD CONSTRAINT state_transitions_to_state_fkey FOREIGN KEY (to_state) REFERENCES lifecycle.states(code);

--
-- Name: transfer_requests transfer_requests_namespace_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.transfer_requests
    ADD CONSTRAINT transfer_requests_namespace_id_fkey FOREIGN KEY (namespace_id) REFERENCES lifecycle.namespaces(id) ON DELETE CASCADE;

--
-- Name: transfer_requests transfer_requests_to_parent_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.transfer_requests
    ADD CONSTRAINT transfer_requests_to_parent_id_fkey FOREIGN KEY (to_parent_id) REFERENCES lifecycle.namespaces(id) ON DELETE CASCADE;

--
-- Name: transition_guards transition_guards_forbidden_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.transition_guards
    ADD CONSTRAINT transition_guards_forbidden_state_fkey FOREIGN KEY (forbidden_state) REFERENCES lifecycle.states(code);

--
-- Name: transition_guards transition_guards_transition_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.transition_guards
    ADD CONSTRAINT transition_guards_transition_fkey FOREIGN KEY (from_state, to_state) REFERENCES lifecycle.state_transitions(from_state, to_state);

--
-- Name: transition_policies transition_policies_to_state_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.transition_policies
    ADD CONSTRAINT transition_policies_to_state_fkey FOREIGN KEY (to_state) REFERENCES lifecycle.states(code);

--
-- Name: webhook_deliveries webhook_deliveries_audit_event_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_audit_event_id_fkey FOREIGN KEY (audit_event_id) REFERENCES lifecycle.audit_events(id) ON DELETE CASCADE;

--
-- Name: webhook_deliveries webhook_deliveries_webhook_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES lifecycle.webhooks(id) ON DELETE CASCADE;

--
-- Name: webhooks webhooks_namespace_id_fkey; Type: FK CONSTRAINT; Schema: lifecycle; Owner: -
--

ALTER TABLE ONLY lifecycle.webhooks
    ADD CONSTRAINT webhooks_namespace_id_fkey FOREIGN KEY (namespace_id) REFERENCES lifecycle.namespaces(id) ON DELETE CASCADE;

--
-- Name: SCHEMA lifecycle; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA lifecycle TO lifecycle_app;
GRANT USAGE ON SCHEMA lifecycle TO lifecycle_worker;

--
-- Name: FUNCTION actor_refusal(namespace_id bigint, traversal_ids bigint[], actor_id bigint, required_level smallint, action text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.actor_refusal(namespace_id bigint, traversal_ids bigint[], actor_id bigint, required_level smallint, action text) FROM PUBLIC;

--
-- Name: FUNCTION caller_may_act_as_system(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.caller_may_act_as_system() FROM PUBLIC;

--
-- Name: FUNCTION character_refusal(what text, value text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.character_refusal(what text, value text) FROM PUBLIC;

--
-- Name: FUNCTION check_invariants(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.check_invariants() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.check_invariants() TO lifecycle_worker;

--
-- Name: FUNCTION deleted_namespaces_facts(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.deleted_namespaces_facts() FROM PUBLIC;

--
-- Name: FUNCTION effective_states_apply(OUT facts integer, OUT written bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.effective_states_apply(OUT facts integer, OUT written bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.effective_states_apply(OUT facts integer, OUT written bigint) TO lifecycle_worker;

--
-- Name: FUNCTION effective_states_refresh(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.effective_states_refresh() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.effective_states_refresh() TO lifecycle_worker;

--
-- Name: FUNCTION effective_states_verify(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.effective_states_verify() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.effective_states_verify() TO lifecycle_worker;

--
-- Name: FUNCTION effective_states_write(roots bigint[]); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.effective_states_write(roots bigint[]) FROM PUBLIC;

--
-- Name: FUNCTION event_rule(event text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.event_rule(event text) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.event_rule(event text) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.event_rule(event text) TO lifecycle_worker;

--
-- Name: FUNCTION fact_emit(action text, namespace_id bigint, traversal_ids bigint[], full_path text, actor_id bigint, details jsonb); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.fact_emit(action text, namespace_id bigint, traversal_ids bigint[], full_path text, actor_id bigint, details jsonb) FROM PUBLIC;

--
-- Name: FUNCTION fact_mac(fact jsonb); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.fact_mac(fact jsonb) FROM PUBLIC;

--
-- Name: FUNCTION fact_message_adopt(fact jsonb, committed_at timestamp with time zone); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.fact_message_adopt(fact jsonb, committed_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.fact_message_adopt(fact jsonb, committed_at timestamp with time zone) TO lifecycle_worker;

--
-- Name: FUNCTION fact_refusal(fact jsonb); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.fact_refusal(fact jsonb) FROM PUBLIC;

--
-- Name: FUNCTION facts_record(fact_ids bigint[], source_lsns pg_lsn[], source_positions integer[], committed_ats timestamp with time zone[], source_xids bigint[]); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.facts_record(fact_ids bigint[], source_lsns pg_lsn[], source_positions integer[], committed_ats timestamp with time zone[], source_xids bigint[]) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.facts_record(fact_ids bigint[], source_lsns pg_lsn[], source_positions integer[], committed_ats timestamp with time zone[], source_xids bigint[]) TO lifecycle_worker;

--
-- Name: FUNCTION facts_record_pending(max_facts integer, min_age interval); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.facts_record_pending(max_facts integer, min_age interval) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.facts_record_pending(max_facts integer, min_age interval) TO lifecycle_worker;

--
-- Name: FUNCTION facts_truncated(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.facts_truncated() FROM PUBLIC;

--
-- Name: FUNCTION hmac_sha256(data bytea, key bytea); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.hmac_sha256(data bytea, key bytea) FROM PUBLIC;

--
-- Name: FUNCTION jsonb_schema_violation(schema jsonb, doc jsonb, at text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.jsonb_schema_violation(schema jsonb, doc jsonb, at text) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_add(source regclass, namespace_column name, state text, when_column name, at_column name, by_column name, namespace_types text[], actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_add(source regclass, namespace_column name, state text, when_column name, at_column name, by_column name, namespace_types text[], actor_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_apply(bridged smallint, ns_id bigint, at timestamp with time zone, actor bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_apply(bridged smallint, ns_id bigint, at timestamp with time zone, actor bigint) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_attnum(source regclass, column_name name, types regtype[], role text, what text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_attnum(source regclass, column_name name, types regtype[], role text, what text) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_backfill(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_backfill() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.legacy_bridge_backfill() TO lifecycle_worker;

--
-- Name: TABLE legacy_bridges; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.legacy_bridges TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.legacy_bridges TO lifecycle_worker;

--
-- Name: FUNCTION legacy_bridge_broken(b lifecycle.legacy_bridges); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_broken(b lifecycle.legacy_bridges) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_check(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_check() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.legacy_bridge_check() TO lifecycle_worker;

--
-- Name: FUNCTION legacy_bridge_column(source regclass, attnum smallint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_column(source regclass, attnum smallint) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_drop(source regclass); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_drop(source regclass) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_holds(b lifecycle.legacy_bridges, ns_id bigint, ns_type text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_holds(b lifecycle.legacy_bridges, ns_id bigint, ns_type text) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_lock(ns_id bigint, ns_type text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_lock(ns_id bigint, ns_type text) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_refuse(b lifecycle.legacy_bridges, reason text, ns_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_refuse(b lifecycle.legacy_bridges, reason text, ns_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_rows(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_rows() FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_says(bridge_state smallint, ns_state smallint, preserved_state text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_says(bridge_state smallint, ns_state smallint, preserved_state text) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_source(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_source() FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_state(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_state() FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_sync(ns_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_sync(ns_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_usable(b lifecycle.legacy_bridges, ns_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_usable(b lifecycle.legacy_bridges, ns_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION legacy_bridge_write(b lifecycle.legacy_bridges, ns_id bigint, holds boolean, at timestamp with time zone, actor bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.legacy_bridge_write(b lifecycle.legacy_bridges, ns_id bigint, holds boolean, at timestamp with time zone, actor bigint) FROM PUBLIC;

--
-- Name: FUNCTION name_refusal(name text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.name_refusal(name text) FROM PUBLIC;

--
-- Name: FUNCTION namespace_access_level(traversal_ids bigint[], actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_access_level(traversal_ids bigint[], actor_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION namespace_available_transitions(namespace_id bigint, actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_available_transitions(namespace_id bigint, actor_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_available_transitions(namespace_id bigint, actor_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_available_transitions(namespace_id bigint, actor_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_change_state(id bigint, target_state_name text, event_name text, actor bigint, call_metadata jsonb, operation text, changed_at timestamp with time zone, source text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_change_state(id bigint, target_state_name text, event_name text, actor bigint, call_metadata jsonb, operation text, changed_at timestamp with time zone, source text) FROM PUBLIC;

--
-- Name: FUNCTION namespace_details_validate(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_details_validate() FROM PUBLIC;

--
-- Name: FUNCTION state_flag_mask(flag text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.state_flag_mask(flag text) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.state_flag_mask(flag text) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.state_flag_mask(flag text) TO lifecycle_worker;

--
-- Name: FUNCTION state_names(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.state_names() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.state_names() TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.state_names() TO lifecycle_worker;

--
-- Name: TABLE namespaces; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.namespaces TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.namespaces TO lifecycle_worker;

--
-- Name: COLUMN namespaces.parent_id; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT INSERT(parent_id) ON TABLE lifecycle.namespaces TO lifecycle_app;
GRANT INSERT(parent_id) ON TABLE lifecycle.namespaces TO lifecycle_worker;

--
-- Name: COLUMN namespaces.type; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT INSERT(type) ON TABLE lifecycle.namespaces TO lifecycle_app;
GRANT INSERT(type) ON TABLE lifecycle.namespaces TO lifecycle_worker;

--
-- Name: COLUMN namespaces.path; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT INSERT(path) ON TABLE lifecycle.namespaces TO lifecycle_app;
GRANT INSERT(path) ON TABLE lifecycle.namespaces TO lifecycle_worker;

--
-- Name: COLUMN namespaces.name; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT INSERT(name),UPDATE(name) ON TABLE lifecycle.namespaces TO lifecycle_app;
GRANT INSERT(name),UPDATE(name) ON TABLE lifecycle.namespaces TO lifecycle_worker;

--
-- Name: COLUMN namespaces.visibility; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT INSERT(visibility) ON TABLE lifecycle.namespaces TO lifecycle_app;
GRANT INSERT(visibility) ON TABLE lifecycle.namespaces TO lifecycle_worker;

--
-- Name: COLUMN namespaces.state; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT INSERT(state) ON TABLE lifecycle.namespaces TO lifecycle_app;
GRANT INSERT(state) ON TABLE lifecycle.namespaces TO lifecycle_worker;

--
-- Name: FUNCTION namespace_effective_state(namespace_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_effective_state(namespace_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_effective_state(namespace_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_effective_state(namespace_id bigint) TO lifecycle_worker;

--
-- Name: TABLE states; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.states TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.states TO lifecycle_worker;

--
-- Name: FUNCTION namespace_effective_states_below_any(namespace_ids bigint[]); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_effective_states_below_any(namespace_ids bigint[]) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_effective_states_below_any(namespace_ids bigint[]) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_effective_states_below_any(namespace_ids bigint[]) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_effective_states_below(namespace_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_effective_states_below(namespace_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_effective_states_below(namespace_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_effective_states_below(namespace_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_event(namespace_id bigint, event text, actor_id bigint, metadata jsonb); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_event(namespace_id bigint, event text, actor_id bigint, metadata jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_event(namespace_id bigint, event text, actor_id bigint, metadata jsonb) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_event(namespace_id bigint, event text, actor_id bigint, metadata jsonb) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_full_path(namespace_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_full_path(namespace_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_full_path(namespace_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_full_path(namespace_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_hard_delete(namespace_id bigint, batch_size integer); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_hard_delete(namespace_id bigint, batch_size integer) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_hard_delete(namespace_id bigint, batch_size integer) TO lifecycle_worker;

--
-- Name: PROCEDURE namespace_hard_delete_all(IN namespace_id bigint, IN batch_size integer); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON PROCEDURE lifecycle.namespace_hard_delete_all(IN namespace_id bigint, IN batch_size integer) FROM PUBLIC;
GRANT ALL ON PROCEDURE lifecycle.namespace_hard_delete_all(IN namespace_id bigint, IN batch_size integer) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_import_apply(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_import_apply() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_import_apply() TO lifecycle_worker;

--
-- Name: FUNCTION namespace_import_batch(max_rows integer); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_import_batch(max_rows integer) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_import_batch(max_rows integer) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_import_finish(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_import_finish() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_import_finish() TO lifecycle_worker;

--
-- Name: FUNCTION namespace_import_prepare(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_import_prepare() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_import_prepare() TO lifecycle_worker;

--
-- Name: PROCEDURE namespace_import_run(IN batch_size integer, INOUT imported bigint, INOUT rejected bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON PROCEDURE lifecycle.namespace_import_run(IN batch_size integer, INOUT imported bigint, INOUT rejected bigint) FROM PUBLIC;
GRANT ALL ON PROCEDURE lifecycle.namespace_import_run(IN batch_size integer, INOUT imported bigint, INOUT rejected bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_import_skips_rechecks(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_import_skips_rechecks() FROM PUBLIC;

--
-- Name: FUNCTION namespace_import_tables_check(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_import_tables_check() FROM PUBLIC;

--
-- Name: FUNCTION namespace_lock(namespace_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_lock(namespace_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION namespace_lock_path(ids bigint[], exclusive boolean); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_lock_path(ids bigint[], exclusive boolean) FROM PUBLIC;

--
-- Name: FUNCTION namespace_lock_sibling_path(parent_id bigint, path text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_lock_sibling_path(parent_id bigint, path text) FROM PUBLIC;

--
-- Name: FUNCTION namespace_max_depth(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_max_depth() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_max_depth() TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_max_depth() TO lifecycle_worker;

--
-- Name: FUNCTION namespace_members_facts(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_members_facts() FROM PUBLIC;

--
-- Name: FUNCTION namespace_members_validate(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_members_validate() FROM PUBLIC;

--
-- Name: FUNCTION namespace_rename(id bigint, new_path text, actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_rename(id bigint, new_path text, actor_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_rename(id bigint, new_path text, actor_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_rename(id bigint, new_path text, actor_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_resolve(full_path text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_resolve(full_path text) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_resolve(full_path text) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_resolve(full_path text) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_set_visibility(id bigint, new_visibility text, actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_set_visibility(id bigint, new_visibility text, actor_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_set_visibility(id bigint, new_visibility text, actor_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_set_visibility(id bigint, new_visibility text, actor_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_transfer_accept(id bigint, actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_transfer_accept(id bigint, actor_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_accept(id bigint, actor_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_accept(id bigint, actor_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_transfer_cancel(id bigint, actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_transfer_cancel(id bigint, actor_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_cancel(id bigint, actor_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_cancel(id bigint, actor_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_transfer_decline(id bigint, actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_transfer_decline(id bigint, actor_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_decline(id bigint, actor_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_decline(id bigint, actor_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_transfer_execute(namespace_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_transfer_execute(namespace_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_execute(namespace_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_execute(namespace_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_transfer_request(namespace_id bigint, to_parent_id bigint, actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_transfer_request(namespace_id bigint, to_parent_id bigint, actor_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_request(namespace_id bigint, to_parent_id bigint, actor_id bigint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_transfer_request(namespace_id bigint, to_parent_id bigint, actor_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_transition(namespace_id bigint, to_state text, actor_id bigint, metadata jsonb); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_transition(namespace_id bigint, to_state text, actor_id bigint, metadata jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.namespace_transition(namespace_id bigint, to_state text, actor_id bigint, metadata jsonb) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.namespace_transition(namespace_id bigint, to_state text, actor_id bigint, metadata jsonb) TO lifecycle_worker;

--
-- Name: FUNCTION namespace_types_digest_write(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespace_types_digest_write() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_deletion_guard(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_deletion_guard() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_effective_states(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_effective_states() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_facts(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_facts() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_moves(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_moves() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_paths(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_paths() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_state_gate(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_state_gate() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_state_record(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_state_record() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_traversal_ids_cascade(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_traversal_ids_cascade() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_traversal_ids_maintain(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_traversal_ids_maintain() FROM PUBLIC;

--
-- Name: FUNCTION namespaces_visibility(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.namespaces_visibility() FROM PUBLIC;

--
-- Name: FUNCTION operation_check(ns lifecycle.namespaces, actor_id bigint, operation text, action text, needs_writable boolean); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.operation_check(ns lifecycle.namespaces, actor_id bigint, operation text, action text, needs_writable boolean) FROM PUBLIC;

--
-- Name: FUNCTION path_normalised(legacy text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.path_normalised(legacy text) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.path_normalised(legacy text) TO lifecycle_worker;

--
-- Name: FUNCTION path_refusal(path text, parent_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.path_refusal(path text, parent_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION path_slug_refusal(path text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.path_slug_refusal(path text) FROM PUBLIC;

--
-- Name: FUNCTION placeholder_036(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.placeholder_036() FROM PUBLIC;

--
-- Name: FUNCTION placeholder_037(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.placeholder_037() FROM PUBLIC;

--
-- Name: FUNCTION placeholder_038(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.placeholder_038() FROM PUBLIC;

--
-- Name: FUNCTION placeholder_039(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.placeholder_039() FROM PUBLIC;

--
-- Name: FUNCTION read_only_refusal(namespace_id bigint, action text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.read_only_refusal(namespace_id bigint, action text) FROM PUBLIC;

--
-- Name: FUNCTION settings_confirmed(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.settings_confirmed() FROM PUBLIC;

--
-- Name: TABLE settings; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.settings TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.settings TO lifecycle_worker;

--
-- Name: FUNCTION settings_refusal(s lifecycle.settings); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.settings_refusal(s lifecycle.settings) FROM PUBLIC;

--
-- Name: FUNCTION settings_validate(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.settings_validate() FROM PUBLIC;

--
-- Name: FUNCTION state_code(name text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.state_code(name text) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.state_code(name text) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.state_code(name text) TO lifecycle_worker;

--
-- Name: FUNCTION state_diagram(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.state_diagram() FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.state_diagram() TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.state_diagram() TO lifecycle_worker;

--
-- Name: FUNCTION state_metadata_refusal(doc jsonb); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.state_metadata_refusal(doc jsonb) FROM PUBLIC;

--
-- Name: FUNCTION state_name(code smallint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.state_name(code smallint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.state_name(code smallint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.state_name(code smallint) TO lifecycle_worker;

--
-- Name: FUNCTION states_digest_write(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.states_digest_write() FROM PUBLIC;

--
-- Name: FUNCTION sweep_abandoned_creation(namespace_id bigint, as_of timestamp with time zone, creation_timeout interval); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.sweep_abandoned_creation(namespace_id bigint, as_of timestamp with time zone, creation_timeout interval) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.sweep_abandoned_creation(namespace_id bigint, as_of timestamp with time zone, creation_timeout interval) TO lifecycle_worker;

--
-- Name: FUNCTION sweep_adjourned_deletion(namespace_id bigint, as_of timestamp with time zone); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.sweep_adjourned_deletion(namespace_id bigint, as_of timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.sweep_adjourned_deletion(namespace_id bigint, as_of timestamp with time zone) TO lifecycle_worker;

--
-- Name: FUNCTION sweep_claim(namespace_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.sweep_claim(namespace_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.sweep_claim(namespace_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION sweep_deletion_candidates(as_of timestamp with time zone, max_attempts integer, page_size integer, after_scheduled_at timestamp with time zone, after_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.sweep_deletion_candidates(as_of timestamp with time zone, max_attempts integer, page_size integer, after_scheduled_at timestamp with time zone, after_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.sweep_deletion_candidates(as_of timestamp with time zone, max_attempts integer, page_size integer, after_scheduled_at timestamp with time zone, after_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION sweep_deletion_failed(namespace_id bigint, error text, max_attempts integer); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.sweep_deletion_failed(namespace_id bigint, error text, max_attempts integer) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.sweep_deletion_failed(namespace_id bigint, error text, max_attempts integer) TO lifecycle_worker;

--
-- Name: FUNCTION sweep_release(namespace_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.sweep_release(namespace_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.sweep_release(namespace_id bigint) TO lifecycle_worker;

--
-- Name: FUNCTION sweep_stuck_operations(as_of timestamp with time zone, stuck_after interval, creation_timeout interval, max_attempts integer); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.sweep_stuck_operations(as_of timestamp with time zone, stuck_after interval, creation_timeout interval, max_attempts integer) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.sweep_stuck_operations(as_of timestamp with time zone, stuck_after interval, creation_timeout interval, max_attempts integer) TO lifecycle_worker;

--
-- Name: FUNCTION syncer_progress_save(slot_name text, lsn pg_lsn, committed_at timestamp with time zone); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.syncer_progress_save(slot_name text, lsn pg_lsn, committed_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.syncer_progress_save(slot_name text, lsn pg_lsn, committed_at timestamp with time zone) TO lifecycle_worker;

--
-- Name: FUNCTION syncer_publication_ensure(publication_name text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.syncer_publication_ensure(publication_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.syncer_publication_ensure(publication_name text) TO lifecycle_worker;

--
-- Name: FUNCTION transaction_flag_lower(flag text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transaction_flag_lower(flag text) FROM PUBLIC;

--
-- Name: FUNCTION transaction_flag_raise(flag text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transaction_flag_raise(flag text) FROM PUBLIC;

--
-- Name: FUNCTION transaction_flag_raised(flag text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transaction_flag_raised(flag text) FROM PUBLIC;

--
-- Name: TABLE transfer_requests; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.transfer_requests TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.transfer_requests TO lifecycle_worker;

--
-- Name: FUNCTION transfer_accept_locked(r lifecycle.transfer_requests, actor_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transfer_accept_locked(r lifecycle.transfer_requests, actor_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION transfer_request_lock(request_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transfer_request_lock(request_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION transfer_request_lock_open(request_id bigint, verb text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transfer_request_lock_open(request_id bigint, verb text) FROM PUBLIC;

--
-- Name: FUNCTION transfer_requests_expire(as_of timestamp with time zone); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transfer_requests_expire(as_of timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.transfer_requests_expire(as_of timestamp with time zone) TO lifecycle_worker;

--
-- Name: FUNCTION transfer_requests_facts(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transfer_requests_facts() FROM PUBLIC;

--
-- Name: FUNCTION transfer_target_refusal(namespace_id bigint, to_parent_id bigint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transfer_target_refusal(namespace_id bigint, to_parent_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION transition_refusal(namespace_id bigint, traversal_ids bigint[], from_state smallint, to_state smallint, actor_id bigint, operation text); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transition_refusal(namespace_id bigint, traversal_ids bigint[], from_state smallint, to_state smallint, actor_id bigint, operation text) FROM PUBLIC;

--
-- Name: FUNCTION transition_rule(from_state smallint, to_state smallint); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transition_rule(from_state smallint, to_state smallint) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.transition_rule(from_state smallint, to_state smallint) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.transition_rule(from_state smallint, to_state smallint) TO lifecycle_worker;

--
-- Name: FUNCTION transition_rules_write(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.transition_rules_write() FROM PUBLIC;

--
-- Name: FUNCTION webhook_address_refusal(address inet); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.webhook_address_refusal(address inet) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.webhook_address_refusal(address inet) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.webhook_address_refusal(address inet) TO lifecycle_worker;

--
-- Name: FUNCTION webhook_allowed_hosts_refusal(allowed text[]); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.webhook_allowed_hosts_refusal(allowed text[]) FROM PUBLIC;

--
-- Name: FUNCTION webhook_deliveries_claim(batch_size integer, lease interval); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.webhook_deliveries_claim(batch_size integer, lease interval) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.webhook_deliveries_claim(batch_size integer, lease interval) TO lifecycle_worker;

--
-- Name: FUNCTION webhook_delivery_result(delivery_id bigint, status_code integer, error text, max_attempts integer, backoff interval); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.webhook_delivery_result(delivery_id bigint, status_code integer, error text, max_attempts integer, backoff interval) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.webhook_delivery_result(delivery_id bigint, status_code integer, error text, max_attempts integer, backoff interval) TO lifecycle_worker;

--
-- Name: FUNCTION webhook_url_refusal(url text, allowed text[]); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.webhook_url_refusal(url text, allowed text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION lifecycle.webhook_url_refusal(url text, allowed text[]) TO lifecycle_app;
GRANT ALL ON FUNCTION lifecycle.webhook_url_refusal(url text, allowed text[]) TO lifecycle_worker;

--
-- Name: FUNCTION webhooks_validate(); Type: ACL; Schema: lifecycle; Owner: -
--

REVOKE ALL ON FUNCTION lifecycle.webhooks_validate() FROM PUBLIC;

--
-- Name: TABLE audit_events; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.audit_events TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.audit_events TO lifecycle_worker;

--
-- Name: TABLE deleted_namespaces; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.deleted_namespaces TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.deleted_namespaces TO lifecycle_worker;

--
-- Name: TABLE effective_states; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.effective_states TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.effective_states TO lifecycle_worker;

--
-- Name: TABLE effective_states_computed; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.effective_states_computed TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.effective_states_computed TO lifecycle_worker;

--
-- Name: TABLE effective_states_pending; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.effective_states_pending TO lifecycle_worker;

--
-- Name: TABLE event_sources; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.event_sources TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.event_sources TO lifecycle_worker;

--
-- Name: TABLE events; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.events TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.events TO lifecycle_worker;

--
-- Name: TABLE fact_dead_letters; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.fact_dead_letters TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.fact_dead_letters TO lifecycle_worker;

--
-- Name: TABLE facts; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.facts TO lifecycle_worker;

--
-- Name: TABLE json_schemas; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.json_schemas TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.json_schemas TO lifecycle_worker;

--
-- Name: TABLE namespace_details; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.namespace_details TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.namespace_details TO lifecycle_worker;

--
-- Name: TABLE namespace_imports; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT,INSERT,DELETE,TRUNCATE,UPDATE ON TABLE lifecycle.namespace_imports TO lifecycle_worker;
GRANT SELECT ON TABLE lifecycle.namespace_imports TO lifecycle_app;

--
-- Name: TABLE namespace_members; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT,INSERT,DELETE ON TABLE lifecycle.namespace_members TO lifecycle_app;
GRANT SELECT,INSERT,DELETE ON TABLE lifecycle.namespace_members TO lifecycle_worker;

--
-- Name: COLUMN namespace_members.access_level; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT UPDATE(access_level) ON TABLE lifecycle.namespace_members TO lifecycle_app;
GRANT UPDATE(access_level) ON TABLE lifecycle.namespace_members TO lifecycle_worker;

--
-- Name: COLUMN namespace_members.updated_at; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT UPDATE(updated_at) ON TABLE lifecycle.namespace_members TO lifecycle_app;
GRANT UPDATE(updated_at) ON TABLE lifecycle.namespace_members TO lifecycle_worker;

--
-- Name: TABLE namespace_redirects; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.namespace_redirects TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.namespace_redirects TO lifecycle_worker;

--
-- Name: TABLE namespace_state_updates; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.namespace_state_updates TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.namespace_state_updates TO lifecycle_worker;

--
-- Name: TABLE namespace_types; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.namespace_types TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.namespace_types TO lifecycle_worker;

--
-- Name: TABLE notifications; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.notifications TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.notifications TO lifecycle_worker;

--
-- Name: COLUMN notifications.read_at; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT UPDATE(read_at) ON TABLE lifecycle.notifications TO lifecycle_app;

--
-- Name: TABLE operation_policies; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.operation_policies TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.operation_policies TO lifecycle_worker;

--
-- Name: TABLE reserved_paths; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.reserved_paths TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.reserved_paths TO lifecycle_worker;

--
-- Name: TABLE state_transitions; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.state_transitions TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.state_transitions TO lifecycle_worker;

--
-- Name: TABLE syncer_progress; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.syncer_progress TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.syncer_progress TO lifecycle_worker;

--
-- Name: TABLE transition_guards; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.transition_guards TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.transition_guards TO lifecycle_worker;

--
-- Name: TABLE transition_policies; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.transition_policies TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.transition_policies TO lifecycle_worker;

--
-- Name: TABLE visibility_levels; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.visibility_levels TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.visibility_levels TO lifecycle_worker;

--
-- Name: TABLE webhook_deliveries; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT ON TABLE lifecycle.webhook_deliveries TO lifecycle_app;
GRANT SELECT ON TABLE lifecycle.webhook_deliveries TO lifecycle_worker;

--
-- Name: TABLE webhooks; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT INSERT,DELETE,UPDATE ON TABLE lifecycle.webhooks TO lifecycle_app;

--
-- Name: COLUMN webhooks.id; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT(id) ON TABLE lifecycle.webhooks TO lifecycle_app;
GRANT SELECT(id) ON TABLE lifecycle.webhooks TO lifecycle_worker;

--
-- Name: COLUMN webhooks.namespace_id; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT(namespace_id) ON TABLE lifecycle.webhooks TO lifecycle_app;
GRANT SELECT(namespace_id) ON TABLE lifecycle.webhooks TO lifecycle_worker;

--
-- Name: COLUMN webhooks.url; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT(url) ON TABLE lifecycle.webhooks TO lifecycle_app;
GRANT SELECT(url) ON TABLE lifecycle.webhooks TO lifecycle_worker;

--
-- Name: COLUMN webhooks.actions; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT(actions) ON TABLE lifecycle.webhooks TO lifecycle_app;
GRANT SELECT(actions) ON TABLE lifecycle.webhooks TO lifecycle_worker;

--
-- Name: COLUMN webhooks.active; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT(active) ON TABLE lifecycle.webhooks TO lifecycle_app;
GRANT SELECT(active) ON TABLE lifecycle.webhooks TO lifecycle_worker;

--
-- Name: COLUMN webhooks.created_at; Type: ACL; Schema: lifecycle; Owner: -
--

GRANT SELECT(created_at) ON TABLE lifecycle.webhooks TO lifecycle_app;
GRANT SELECT(created_at) ON TABLE lifecycle.webhooks TO lifecycle_worker;

--
-- PostgreSQL database dump complete
--

