-- Why a namespace cannot take a write that needs it writable (rename, visibility), or no row: its
-- own state, or an ancestor's, is read-only (lifecycle.states.read_only: archived, pending
-- deletion, moving, in maintenance). Own state: NS001; an ancestor's: NS002.
create or replace function lifecycle.read_only_refusal(namespace_id bigint, action text)
returns table (code text, message text, detail text, hint text)
language sql
stable
set search_path to ''
as $$
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
