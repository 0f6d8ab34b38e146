-- The second step of moving an organization between clusters (docs/scaling.md, Cells;
-- cmd/orgmove), on the target: the rows organization_export read on the source, copied into
-- lifecycle.organization_imports in this transaction, become the organization here, with their
-- ids, states, history, redirects, memberships, webhooks and transfer requests, in this one
-- transaction. Nothing is judged as new: no creation, membership or request fact, no history row;
-- one organization_moved_in fact (from, and how many rows of each kind) is the audit's record of
-- the move, and the organization's owners are notified of it. Its rows of
-- lifecycle.effective_states are written here, under that table's lock (step 6 of the global lock
-- order). Returns how many rows of each kind it wrote.
--
-- Everything staged is checked first, set-based, so that a stream cut short or made by hand
-- cannot leave a namespace that breaks the rules (check_invariants), nor reach beyond the
-- organization: an export is input from another cluster, and every row of it must belong to the
-- organization and name only its namespaces and its paths. NS010 when the header is missing, is
-- not the only one, or names another organization or path, a row is of a kind organization_export
-- does not write, the schema versions differ (migrate both clusters to one release), a kind has
-- more or fewer rows than the header counted, a row is staged twice or without its id, the
-- namespaces do not form the organization's tree (each below its parent, traversal_ids the
-- parent's plus its own id, of a known type that is not root-only, no child of a project, no
-- deeper than namespace_max_depth(), never more visible than the parent), an id outside 1 to
-- 2^63 - 2, a path or name the rules refuse, two live siblings on one path, a state an operation
-- or the host is in the middle of, a namespace without exactly one details row or with metadata
-- the schema refuses, history that does not lead to the state or does not count what the
-- namespace counted, a history row naming a state, an event or a source (api, sql, import,
-- bridge) this cluster does not know or with metadata that is not a JSON object, a details row,
-- history row, redirect, membership, webhook or transfer request of a namespace not staged (or of
-- none), a transfer request to or from a parent not staged, an open transfer request, a redirect
-- of a kind this cluster does not know or of an old path outside the organization's path and
-- below (case aside), and, once its path is claimed, a redirect whose old path, as given or case
-- folded, resolves here today: it would take over a path that leads to another tenant's namespace
-- (namespace_resolve follows the longest redirected prefix, and looks a segment with capitals up
-- among the redirects of kind import before the live namespaces). (These rows fire no INSERT
-- trigger of namespaces: this is where the rules of namespaces_traversal_ids_maintain and the gate
-- are judged for them; no foreign key checks the history's states and events, no CHECK constraint
-- its source and metadata, nor the details' metadata. The triggers of memberships and webhooks do
-- fire: the access level, and a webhook's URL against this cluster's allowed hosts, NS010.) The
-- user ids a row names (members, actors) are the host application's, which no cluster can judge:
-- taken as they are. NS012 when an id is in use here, or lies in this cluster's id range
-- (lifecycle.id_range; without one, every id) at or above what its sequence hands out next: the
-- cluster would hand it out again. NS006 when a live organization here holds its path. Refused, it
-- changes nothing.
create or replace function lifecycle.organization_move_in(organization_id bigint, peer text)
returns table (kind text, moved bigint)
language plpgsql
-- Definer: it writes what only the schema's owner may (ids, states, history) and reads the
-- sequences.
security definer
set search_path to ''
-- A move is thousands of rows: hash joins, not the index nested loops the hot path wants.
set jit to off
as $$
#variable_conflict use_column
declare
  org constant bigint := organization_move_in.organization_id;
  max_depth constant int := lifecycle.namespace_max_depth();
  header jsonb;
  root lifecycle.namespaces;
  bad record;
  bad_row text;
  bad_reason text;
  first_fact bigint;
  range_first bigint;
  range_last bigint;
  noted text;
  written jsonb := '{}'::jsonb;
  n bigint;
begin
  -- For plpgsql_check (no-ops at run time): the tables made below.
  perform 'PRAGMA:TABLE: lifecycle_move_namespaces (like lifecycle.namespaces)';
  perform 'PRAGMA:TABLE: lifecycle_move_details (like lifecycle.namespace_details)';
  perform 'PRAGMA:TABLE: lifecycle_move_history (like lifecycle.namespace_state_updates)';
  perform 'PRAGMA:TABLE: lifecycle_move_redirects (like lifecycle.namespace_redirects)';
  perform 'PRAGMA:TABLE: lifecycle_move_members (like lifecycle.namespace_members)';
  perform 'PRAGMA:TABLE: lifecycle_move_webhooks (like lifecycle.webhooks)';
  perform 'PRAGMA:TABLE: lifecycle_move_requests (like lifecycle.transfer_requests)';
  perform 'PRAGMA:TABLE: lifecycle_move_walk (id bigint)';
  if organization_move_in.peer is null or pg_catalog.btrim(organization_move_in.peer) = '' then
    raise exception using errcode = 'NS010', message = 'peer is required', detail = 'peer=',
      hint = 'Name the cluster the organization comes from (cmd/orgmove passes its host, port and database).';
  end if;

  select s.data into header from lifecycle.organization_imports s where s.organization_id = org and s.kind = 'header';
  if header is null then
    raise exception using errcode = 'NS010', message = 'no organization is staged',
      detail = pg_catalog.format('organization_id=%s', org),
      hint = 'Copy the rows of lifecycle.organization_export on the source into lifecycle.organization_imports first, in this transaction.';
  end if;
  if (header ->> 'schema_version')::int is distinct from (select max(v.version) from lifecycle.schema_version v) then
    raise exception using errcode = 'NS010', message = 'the clusters are at different schema versions',
      detail = pg_catalog.format('source=%s target=%s', header ->> 'schema_version', (select max(v.version) from lifecycle.schema_version v)),
      hint = 'Migrate both clusters to the same release (cmd/migrate) first.';
  end if;
  -- The kinds organization_export writes, one header: a row of any other kind would be left
  -- unread, which no row of the organization may be.
  select s.kind, pg_catalog.count(*) as staged into bad
    from lifecycle.organization_imports s
   where s.organization_id = org
   group by s.kind
  having s.kind not in ('header', 'namespace', 'detail', 'history', 'redirect', 'member', 'webhook', 'transfer_request')
      or pg_catalog.count(*) > 1 and s.kind = 'header'
   order by s.kind
   limit 1;
  if found then
    raise exception using errcode = 'NS010', message = 'the staged organization breaks the rules',
      detail = case when bad.kind = 'header'
                    then pg_catalog.format('organization_id=%s header: %s rows, one expected', org, bad.staged)
                    else pg_catalog.format('organization_id=%s kind %s: not a kind of row organization_export writes', org, bad.kind) end,
      hint = 'Move organizations with cmd/orgmove, which stages what lifecycle.organization_export reads.';
  end if;
  select c.kind, c.staged, c.counted into bad
    from (select s.kind, pg_catalog.count(*) as staged from lifecycle.organization_imports s
           where s.organization_id = org and s.kind <> 'header' group by s.kind) x
    full join (select h.key as kind, h.value::bigint as counted from pg_catalog.jsonb_each_text(header -> 'counts') h) y using (kind)
   cross join lateral (select coalesce(x.kind, y.kind) as kind, coalesce(x.staged, 0) as staged, coalesce(y.counted, 0) as counted) c
   where c.staged <> c.counted
   limit 1;
  if found then
    raise exception using errcode = 'NS010', message = 'the staged organization is incomplete',
      detail = pg_catalog.format('organization_id=%s kind=%s staged=%s counted=%s', org, bad.kind, bad.staged, bad.counted),
      hint = 'Copy every row of lifecycle.organization_export, and only those.';
  end if;

  -- The staged rows as the tables' rows.
  if pg_catalog.to_regclass('pg_temp.lifecycle_move_namespaces') is not null then
    drop table pg_temp.lifecycle_move_namespaces, pg_temp.lifecycle_move_details, pg_temp.lifecycle_move_history,
               pg_temp.lifecycle_move_redirects, pg_temp.lifecycle_move_members, pg_temp.lifecycle_move_webhooks,
               pg_temp.lifecycle_move_requests, pg_temp.lifecycle_move_walk;
  end if;
  create temporary table lifecycle_move_namespaces on commit drop as
  select r.*
    from lifecycle.organization_imports s cross join lateral pg_catalog.jsonb_populate_record(null::lifecycle.namespaces, s.data) r
   where s.organization_id = org and s.kind = 'namespace';
  create temporary table lifecycle_move_details on commit drop as
  select r.*
    from lifecycle.organization_imports s cross join lateral pg_catalog.jsonb_populate_record(null::lifecycle.namespace_details, s.data) r
   where s.organization_id = org and s.kind = 'detail';
  create temporary table lifecycle_move_history on commit drop as
  select r.*
    from lifecycle.organization_imports s cross join lateral pg_catalog.jsonb_populate_record(null::lifecycle.namespace_state_updates, s.data) r
   where s.organization_id = org and s.kind = 'history';
  create temporary table lifecycle_move_redirects on commit drop as
  select r.*
    from lifecycle.organization_imports s cross join lateral pg_catalog.jsonb_populate_record(null::lifecycle.namespace_redirects, s.data) r
   where s.organization_id = org and s.kind = 'redirect';
  create temporary table lifecycle_move_members on commit drop as
  select r.*
    from lifecycle.organization_imports s cross join lateral pg_catalog.jsonb_populate_record(null::lifecycle.namespace_members, s.data) r
   where s.organization_id = org and s.kind = 'member';
  create temporary table lifecycle_move_webhooks on commit drop as
  select r.*
    from lifecycle.organization_imports s cross join lateral pg_catalog.jsonb_populate_record(null::lifecycle.webhooks, s.data) r
   where s.organization_id = org and s.kind = 'webhook';
  create temporary table lifecycle_move_requests on commit drop as
  select r.*
    from lifecycle.organization_imports s cross join lateral pg_catalog.jsonb_populate_record(null::lifecycle.transfer_requests, s.data) r
   where s.organization_id = org and s.kind = 'transfer_request';
  -- Each row once, with its id: a row staged twice is no row of the organization (and would
  -- fail below on a unique index or key, not as the rules' refusal).
  select y.kind || ' ' || coalesce(y.id, 'with no id'),
         case when y.id is null then 'no id' else pg_catalog.format('staged %s times', y.copies) end
    into bad_row, bad_reason
    from (select 'namespace' as kind, n.id::text as id, pg_catalog.count(*) as copies from pg_temp.lifecycle_move_namespaces n group by n.id
          union all
          select 'history', u.id::text, pg_catalog.count(*) from pg_temp.lifecycle_move_history u group by u.id
          union all
          select 'redirect', r.id::text, pg_catalog.count(*) from pg_temp.lifecycle_move_redirects r group by r.id
          union all
          select 'member', coalesce(m.namespace_id::text, 'null') || ' user ' || coalesce(m.user_id::text, 'null'), pg_catalog.count(*)
            from pg_temp.lifecycle_move_members m
           group by m.namespace_id, m.user_id
          union all
          select 'webhook', w.id::text, pg_catalog.count(*) from pg_temp.lifecycle_move_webhooks w group by w.id
          union all
          select 'transfer_request', t.id::text, pg_catalog.count(*) from pg_temp.lifecycle_move_requests t group by t.id) y
   where y.copies > 1 or y.id is null
   order by y.kind, y.id
   limit 1;
  if found then
    raise exception using errcode = 'NS010', message = 'the staged organization breaks the rules',
      detail = pg_catalog.format('organization_id=%s %s: %s', org, bad_row, bad_reason),
      hint = 'Move organizations with cmd/orgmove, which stages what lifecycle.organization_export reads.';
  end if;
  create unique index on pg_temp.lifecycle_move_namespaces (id);
  create index on pg_temp.lifecycle_move_namespaces (parent_id);
  analyze pg_temp.lifecycle_move_namespaces, pg_temp.lifecycle_move_details, pg_temp.lifecycle_move_history,
          pg_temp.lifecycle_move_redirects, pg_temp.lifecycle_move_members, pg_temp.lifecycle_move_webhooks,
          pg_temp.lifecycle_move_requests;

  select * into root from pg_temp.lifecycle_move_namespaces n where n.id = org;
  if not found or root.parent_id is not null or not lifecycle.namespace_type_root_only(root.type) or root.traversal_ids <> array[org] then
    raise exception using errcode = 'NS010', message = 'the staged rows hold no such organization',
      detail = pg_catalog.format('organization_id=%s header_organization_id=%s', org, header ->> 'organization_id'),
      hint = 'Stage the rows of lifecycle.organization_export for this organization.';
  end if;
  -- The header speaks for the same organization as the rows, at the same path.
  if header -> 'organization_id' is distinct from pg_catalog.to_jsonb(org) or header ->> 'path' is distinct from root.path then
    raise exception using errcode = 'NS010', message = 'the staged organization breaks the rules',
      detail = pg_catalog.format('organization_id=%s header: organization %s at path %s, not %s at path %s',
                                 org, header -> 'organization_id', header ->> 'path', org, root.path),
      hint = 'Move organizations with cmd/orgmove, which stages what lifecycle.organization_export reads.';
  end if;

  -- The tree: every row reached from the root, each below a staged parent with the parent's
  -- path plus its own id (reached once: a row has one parent), of a type that may move between
  -- parents (namespace_types.transferable: a type that may not, a user's namespace, does not move
  -- with an organization either). A table, so that the rows not reached are found by a hash join,
  -- not by scanning the walk once per row.
  create temporary table lifecycle_move_walk on commit drop as
  with recursive walk as (
    select r.id, r.traversal_ids, r.type, v.rank
      from pg_temp.lifecycle_move_namespaces r
      join lifecycle.visibility_levels v on v.name = r.visibility
     where r.id = org
    union all
    select c.id, c.traversal_ids, c.type, v.rank
      from walk p
      join pg_temp.lifecycle_move_namespaces c on c.parent_id = p.id
      join lifecycle.visibility_levels v on v.name = c.visibility
     where c.traversal_ids = p.traversal_ids || c.id and lifecycle.namespace_type_can_be_parent(p.type)
       and lifecycle.namespace_type_known(c.type) and lifecycle.namespace_type_transferable(c.type)
       and not lifecycle.namespace_type_root_only(c.type)
       and pg_catalog.cardinality(c.traversal_ids) <= lifecycle.namespace_max_depth() and v.rank <= p.rank
  )
  select w.id from walk w;
  analyze pg_temp.lifecycle_move_walk;
  select n.id, n.parent_id into bad
    from pg_temp.lifecycle_move_namespaces n
   where n.id not in (select w.id from pg_temp.lifecycle_move_walk w)
   order by n.id limit 1;
  if found then
    raise exception using errcode = 'NS010', message = 'the staged namespaces do not form the organization''s tree',
      detail = pg_catalog.format('organization_id=%s namespace_id=%s parent_id=%s', org, bad.id, bad.parent_id),
      hint = 'Each namespace must lie below a staged parent that is not a project, with its traversal_ids, of a type that moves and may have a parent, no deeper than the limit and no more visible than its parent.';
  end if;

  -- Each namespace, row by row: first failure wins.
  select 'namespace ' || x.id, x.reason into bad_row, bad_reason
    from (select n.id, n.traversal_ids,
                 case
                   when n.id < 1 or n.id > 9223372036854775806 then pg_catalog.format('id %s is outside 1 to 9223372036854775806 (2^63 - 2)', n.id)
                   when lifecycle.name_refusal(n.name) is not null then lifecycle.name_refusal(n.name)
                   when lifecycle.path_slug_refusal(n.path) is not null then lifecycle.path_slug_refusal(n.path)
                   when s.code is null then pg_catalog.format('unknown state %s', n.state)
                   when s.operation is not null or s.name = 'creation_in_progress' then pg_catalog.format('%s cannot move', s.name)
                   when d.rows is distinct from 1 then pg_catalog.format('%s details rows', coalesce(d.rows, 0))
                   when lifecycle.state_metadata_refusal(d.state_metadata) is not null then lifecycle.state_metadata_refusal(d.state_metadata)
                   when n.state_changes <> coalesce(h.rows, 0)
                     then pg_catalog.format('%s state changes counted, %s history rows', n.state_changes, coalesce(h.rows, 0))
                   when h.last_to is distinct from n.state and (h.last_to is not null or not exists (
                          select from lifecycle.state_transitions t where t.from_state is null and t.to_state = n.state))
                     then pg_catalog.format('state %s is not where its history leads', s.name)
                   when h.broken then 'its history rows do not follow one another'
                 end as reason
            from pg_temp.lifecycle_move_namespaces n
            left join lifecycle.states s on s.code = n.state
            left join (select dd.namespace_id, pg_catalog.count(*) as rows, pg_catalog.min(dd.state_metadata::text)::jsonb as state_metadata
                         from pg_temp.lifecycle_move_details dd group by 1) d on d.namespace_id = n.id
            left join (select hh.namespace_id, pg_catalog.count(*) as rows,
                              (pg_catalog.array_agg(hh.to_state order by hh.id desc))[1] as last_to,
                              pg_catalog.bool_or(hh.previous_to <> hh.from_state) as broken
                         from (select u.namespace_id, u.id, u.from_state, u.to_state,
                                      pg_catalog.lag(u.to_state) over (partition by u.namespace_id order by u.id) as previous_to
                                 from pg_temp.lifecycle_move_history u) hh
                        group by 1) h on h.namespace_id = n.id) x
   where x.reason is not null
   order by x.traversal_ids
   limit 1;
  if not found then
    -- Rows of other kinds that belong to no staged namespace (or name none), open transfer
    -- requests and those that cross the organization's edge, and redirects of paths outside it.
    -- (coalesce: a null namespace id is in no list.)
    select y.kind || ' ' || y.id, y.reason into bad_row, bad_reason
      from (select 'detail' as kind, d.namespace_id as id, 'of a namespace not staged' as reason
              from pg_temp.lifecycle_move_details d
             where coalesce(d.namespace_id not in (select n.id from pg_temp.lifecycle_move_namespaces n), true)
            union all
            select 'history', u.id, 'of a namespace not staged'
              from pg_temp.lifecycle_move_history u
             where coalesce(u.namespace_id not in (select n.id from pg_temp.lifecycle_move_namespaces n), true)
            union all
            select 'history', u.id,
                   case when fs.code is null then pg_catalog.format('unknown state %s', u.from_state)
                        when ts.code is null then pg_catalog.format('unknown state %s', u.to_state)
                        when u.event is not null and e.name is null then pg_catalog.format('unknown event %L', u.event)
                        when not k.known_source then pg_catalog.format('unknown source %L', u.source)
                        else 'metadata must be a JSON object' end
              from pg_temp.lifecycle_move_history u
              left join lifecycle.states fs on fs.code = u.from_state
              left join lifecycle.states ts on ts.code = u.to_state
              left join lifecycle.events e on e.name = u.event
             -- The ways in a history row names (its writers': namespace_change_state's source, api
             -- or bridge; the gate's sql for a raw UPDATE; the import's and the backfill's import).
             cross join lateral (select coalesce(u.source in ('api', 'sql', 'import', 'bridge'), false) as known_source) k
             where fs.code is null or ts.code is null or (u.event is not null and e.name is null)
                or not k.known_source or pg_catalog.jsonb_typeof(u.metadata) is distinct from 'object'
            union all
            select 'redirect', r.id,
                   case when o.outside_namespace then 'of a namespace not staged'
                        when o.outside_path
                          then pg_catalog.format('old path %s lies outside the organization''s paths (%s and below, case aside)',
                                                 coalesce(r.old_full_path, 'null'), root.path)
                        else pg_catalog.format('unknown kind %s', coalesce(pg_catalog.quote_literal(r.kind), 'null')) end
              from pg_temp.lifecycle_move_redirects r
             cross join lateral (
                     select coalesce(r.namespace_id not in (select n.id from pg_temp.lifecycle_move_namespaces n), true) as outside_namespace,
                            not coalesce(pg_catalog.lower(r.old_full_path) = root.path
                                         or pg_catalog.starts_with(pg_catalog.lower(r.old_full_path), root.path || '/'), false) as outside_path,
                            -- The kinds namespace_resolve reads (the table's CHECK constraint says them too).
                            not coalesce(r.kind in ('rename', 'transfer', 'import'), false) as unknown_kind) o
             where o.outside_namespace or o.outside_path or o.unknown_kind
            union all
            select 'member', m.namespace_id, 'of a namespace not staged'
              from pg_temp.lifecycle_move_members m
             where coalesce(m.namespace_id not in (select n.id from pg_temp.lifecycle_move_namespaces n), true)
            union all
            select 'webhook', w.id, 'of a namespace not staged'
              from pg_temp.lifecycle_move_webhooks w
             where coalesce(w.namespace_id not in (select n.id from pg_temp.lifecycle_move_namespaces n), true)
            union all
            select 'transfer_request', t.id,
                   case when t.status in ('pending', 'accepted') then pg_catalog.format('%s: an open request cannot move', t.status)
                        else 'of, to or from a namespace not staged' end
              from pg_temp.lifecycle_move_requests t
             where t.status in ('pending', 'accepted')
                or coalesce(t.namespace_id not in (select n.id from pg_temp.lifecycle_move_namespaces n), true)
                or coalesce(t.to_parent_id not in (select n.id from pg_temp.lifecycle_move_namespaces n), true)
                -- The parent it left: none for a namespace that was a root.
                or t.from_parent_id not in (select n.id from pg_temp.lifecycle_move_namespaces n)
            union all
            select 'namespace', n.id, pg_catalog.format('path %s is held by another live sibling', n.path)
              from pg_temp.lifecycle_move_namespaces n
             where lifecycle.state_path_live(n.state)
               and exists (select from pg_temp.lifecycle_move_namespaces o
                            where o.parent_id = n.parent_id and o.path = n.path and o.id < n.id and lifecycle.state_path_live(o.state))) y
     order by y.kind, y.id
     limit 1;
  end if;
  if bad_row is not null then
    raise exception using errcode = 'NS010', message = 'the staged organization breaks the rules',
      detail = pg_catalog.format('organization_id=%s %s: %s', org, bad_row, bad_reason),
      hint = 'Move organizations with cmd/orgmove, which stages what lifecycle.organization_export reads.';
  end if;

  -- Ids: none in use here, none this cluster could hand out itself.
  select r.first_id, r.last_id into range_first, range_last from lifecycle.id_range r;
  select y.kind, y.id into bad
    from (select 'namespace' as kind, n.id, (select case when s.is_called then s.last_value + 1 else s.last_value end
                                               from lifecycle.namespaces_id_seq s) as next_id,
                 exists (select from lifecycle.namespaces x where x.id = n.id) as used
            from pg_temp.lifecycle_move_namespaces n
          union all
          select 'history', u.id, (select case when s.is_called then s.last_value + 1 else s.last_value end
                                     from lifecycle.namespace_state_updates_id_seq s),
                 exists (select from lifecycle.namespace_state_updates x where x.id = u.id)
            from pg_temp.lifecycle_move_history u
          union all
          select 'redirect', r.id, (select case when s.is_called then s.last_value + 1 else s.last_value end
                                      from lifecycle.namespace_redirects_id_seq s),
                 exists (select from lifecycle.namespace_redirects x where x.id = r.id)
            from pg_temp.lifecycle_move_redirects r
          union all
          select 'webhook', w.id, (select case when s.is_called then s.last_value + 1 else s.last_value end
                                     from lifecycle.webhooks_id_seq s),
                 exists (select from lifecycle.webhooks x where x.id = w.id)
            from pg_temp.lifecycle_move_webhooks w
          union all
          select 'transfer_request', t.id, (select case when s.is_called then s.last_value + 1 else s.last_value end
                                              from lifecycle.transfer_requests_id_seq s),
                 exists (select from lifecycle.transfer_requests x where x.id = t.id)
            from pg_temp.lifecycle_move_requests t) y
   where y.used
      or (y.id >= y.next_id and y.id between coalesce(range_first, 1) and coalesce(range_last, 9223372036854775807))
   order by y.used desc, y.kind <> 'namespace', y.kind, y.id
   limit 1;
  if found then
    raise exception using errcode = 'NS012', message = pg_catalog.format('%s id %s of the organization is taken here', bad.kind, bad.id),
      detail = pg_catalog.format('organization_id=%s kind=%s id=%s id_range=%s..%s', org, bad.kind, bad.id, range_first, range_last),
      hint = 'Give every cluster an id range of its own (lifecycle.id_range_set) before organizations move between them; docs/scaling.md.';
  end if;

  -- Its path, as a creation claims one (step 3 of the global lock order): a creation of the same
  -- path here waits for this, or this for it, and the second finds the first's row.
  noted := lifecycle.namespace_lock_sibling_path(null, root.path)::text;
  if exists (select from lifecycle.namespaces x where x.parent_id is null and x.path = root.path and lifecycle.state_path_live(x.state)) then
    raise exception using errcode = 'NS006', message = pg_catalog.format('path %s is taken', root.path),
      detail = pg_catalog.format('organization_id=%s path=%s', org, root.path),
      hint = 'Rename the organization here or there first.';
  end if;
  -- Its redirects lead only to it: none may take over a path that resolves here today, as given
  -- or case folded (to another tenant's namespace: none of the organization's is here yet).
  -- Judged once its path is claimed, so that a namespace made or renamed onto that path here,
  -- below which new paths could resolve, waits for this. A path longer or deeper than
  -- namespace_resolve reads is not resolved: no lookup reaches its redirect.
  select 'redirect ' || r.id,
         pg_catalog.format('old path %s resolves here to namespace %s (%s), outside the organization', r.old_full_path, x.namespace_id, x.canonical_path)
    into bad_row, bad_reason
    from pg_temp.lifecycle_move_redirects r
   cross join lateral (select distinct p.path from pg_catalog.unnest(array[r.old_full_path, pg_catalog.lower(r.old_full_path)]) p(path)) p
   cross join lateral lifecycle.namespace_resolve(p.path) x
   where pg_catalog.char_length(r.old_full_path) <= max_depth * 101 + 1
     and coalesce(pg_catalog.cardinality(pg_catalog.string_to_array(pg_catalog.btrim(pg_catalog.lower(r.old_full_path), '/'), '/')), 0) <= max_depth
     and x.namespace_id not in (select n.id from pg_temp.lifecycle_move_namespaces n)
   order by r.id
   limit 1;
  if found then
    raise exception using errcode = 'NS010', message = 'the staged organization breaks the rules',
      detail = pg_catalog.format('organization_id=%s %s: %s', org, bad_row, bad_reason),
      hint = 'Move organizations with cmd/orgmove, which stages what lifecycle.organization_export reads; a path that leads to another namespace here stays that namespace''s.';
  end if;

  -- The outbox's next id: the facts the rows' triggers emit below are this transaction's.
  select case when s.is_called then s.last_value + 1 else s.last_value end into first_fact from lifecycle.facts_id_seq s;
  -- The rows, as they were: the INSERT triggers of namespaces and details do not fire (their
  -- checks are the ones above), nor is any state change recorded.
  noted := lifecycle.transaction_flag_raise('importing')::text
           || pg_catalog.set_config('lifecycle.importing', 'on', true);
  -- Its record here first: a move out of this cluster earlier (a row with direction out, which
  -- refuses writes) ends with it.
  insert into lifecycle.organization_moves as o (organization_id, path, direction, peer, started_at, finished_at, summary)
  values (org, root.path, 'in', organization_move_in.peer, pg_catalog.now(), pg_catalog.now(), '{}')
  on conflict (organization_id) do update
     set path = excluded.path, direction = excluded.direction, peer = excluded.peer, started_at = excluded.started_at,
         finished_at = excluded.finished_at, mover_pid = null, mover_role = null, summary = excluded.summary;

  insert into lifecycle.namespaces
  select n.* from pg_temp.lifecycle_move_namespaces n order by pg_catalog.cardinality(n.traversal_ids), n.id;
  get diagnostics n = row_count;
  written := written || pg_catalog.jsonb_build_object('namespace', n);
  insert into lifecycle.namespace_details select d.* from pg_temp.lifecycle_move_details d;
  get diagnostics n = row_count;
  written := written || pg_catalog.jsonb_build_object('detail', n);
  insert into lifecycle.namespace_state_updates overriding system value select u.* from pg_temp.lifecycle_move_history u order by u.id;
  get diagnostics n = row_count;
  written := written || pg_catalog.jsonb_build_object('history', n);
  insert into lifecycle.namespace_redirects overriding system value select r.* from pg_temp.lifecycle_move_redirects r order by r.id;
  get diagnostics n = row_count;
  written := written || pg_catalog.jsonb_build_object('redirect', n);
  insert into lifecycle.transfer_requests overriding system value select t.* from pg_temp.lifecycle_move_requests t order by t.id;
  get diagnostics n = row_count;
  written := written || pg_catalog.jsonb_build_object('transfer_request', n);
  insert into lifecycle.webhooks overriding system value select w.* from pg_temp.lifecycle_move_webhooks w order by w.id;
  get diagnostics n = row_count;
  written := written || pg_catalog.jsonb_build_object('webhook', n);
  insert into lifecycle.namespace_members select m.* from pg_temp.lifecycle_move_members m;
  get diagnostics n = row_count;
  written := written || pg_catalog.jsonb_build_object('member', n);
  noted := lifecycle.transaction_flag_lower('importing')::text
           || pg_catalog.set_config('lifecycle.importing', '', true);

  -- The membership and request triggers told of rows as new (member_added, transfer_requested):
  -- they were not, and nobody is to hear of them. Deleted before they commit, they are never
  -- recorded (facts_record skips an id no longer in the outbox).
  delete from lifecycle.facts f
   where f.id >= first_fact and f.action in ('member_added', 'transfer_requested')
     and f.namespace_id in (select x.id from pg_temp.lifecycle_move_namespaces x);

  perform 1 from lifecycle.lock_rows l where l.name = 'effective_states' for update;
  n := lifecycle.effective_states_write(array[org]);

  update lifecycle.organization_moves o set summary = written where o.organization_id = org;
  perform lifecycle.fact_emit('organization_moved_in', org, array[org], root.path, null,
                              pg_catalog.jsonb_build_object('from', organization_move_in.peer, 'rows', written));
  delete from lifecycle.organization_imports s where s.organization_id = org;
  return query select e.key, e.value::bigint from pg_catalog.jsonb_each_text(written) e order by e.key;
end
$$;
