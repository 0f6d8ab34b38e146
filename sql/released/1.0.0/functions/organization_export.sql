-- Everything of an organization that moves to another cluster, as rows (kind, data) for
-- organization_move_in there: a header (the organization, this cluster's schema version, the
-- number of rows of each kind, so that the target can tell a stream cut short), then its
-- namespaces (root first), their namespace_details rows, state history, redirects, memberships,
-- webhooks (secrets included) and the transfer requests whose namespace and target are both in
-- it. Each row is the table's row as JSON (to_jsonb), ids and all. Read in one snapshot (a stable
-- function): nothing of it changes meanwhile anyway, since every write to the organization is
-- refused while it moves. Not carried: the audit rows, notifications, webhook deliveries and the
-- snapshots of hard deletes (deleted_namespaces), which are this cluster's record of what it did
-- and stay here, and closed transfer requests that cross the organization's edge (the target has
-- no namespace at their other end). Only the session that holds the move may read it
-- (organization_move_claim, from organization_move_out_start): NS010 otherwise.
create or replace function lifecycle.organization_export(organization_id bigint)
returns table (kind text, data jsonb)
language plpgsql
stable
-- Definer: the rows are read as the schema's owner (webhook secrets included).
security definer
set search_path to ''
as $$
#variable_conflict use_column
declare
  org constant bigint := organization_export.organization_id;
  m lifecycle.organization_moves;
begin
  select * into m from lifecycle.organization_moves o
   where o.organization_id = org and o.direction = 'out' and o.finished_at is null
     and o.mover_pid = pg_catalog.pg_backend_pid()
     and o.mover_role = (select a.usesysid from pg_catalog.pg_stat_activity a where a.pid = pg_catalog.pg_backend_pid());
  if not found then
    raise exception using errcode = 'NS010', message = 'this session is not moving the organization',
      detail = pg_catalog.format('organization_id=%s', org),
      hint = 'Call lifecycle.organization_move_out_start first, in this session.';
  end if;
  return query
  with ns as materialized (
    select n.* from lifecycle.namespaces n
     where n.traversal_ids >= array[org] and n.traversal_ids < array[org + 1]
  ), rows as materialized (
    select 1 as part, 'namespace' as kind, pg_catalog.to_jsonb(n) as data, pg_catalog.cardinality(n.traversal_ids) as pos, n.id
      from ns n
    union all
    select 2, 'detail', pg_catalog.to_jsonb(d), 0, d.namespace_id
      from ns n join lifecycle.namespace_details d on d.namespace_id = n.id
    union all
    select 3, 'history', pg_catalog.to_jsonb(u), 0, u.id
      from ns n join lifecycle.namespace_state_updates u on u.namespace_id = n.id
    union all
    select 4, 'redirect', pg_catalog.to_jsonb(r), 0, r.id
      from ns n join lifecycle.namespace_redirects r on r.namespace_id = n.id
    union all
    select 5, 'member', pg_catalog.to_jsonb(mb), 0, mb.namespace_id
      from ns n join lifecycle.namespace_members mb on mb.namespace_id = n.id
    union all
    select 6, 'webhook', pg_catalog.to_jsonb(w), 0, w.id
      from ns n join lifecycle.webhooks w on w.namespace_id = n.id
    union all
    select 7, 'transfer_request', pg_catalog.to_jsonb(t), 0, t.id
      from ns n join lifecycle.transfer_requests t on t.namespace_id = n.id
     where t.to_parent_id in (select x.id from ns x)
  )
  select 'header', pg_catalog.jsonb_build_object(
           'organization_id', org, 'path', m.path,
           'schema_version', (select max(v.version) from lifecycle.schema_version v),
           'counts', (select pg_catalog.jsonb_object_agg(c.kind, c.n)
                        from (select r.kind, pg_catalog.count(*) as n from rows r group by r.kind) c))
  union all
  (select r.kind, r.data from rows r order by r.part, r.pos, r.id);
end
$$;
