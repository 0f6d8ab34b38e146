-- Writes a client makes directly in an organization (a membership, a webhook, a namespace's name)
-- hold the organization's lock row shared, as every change below it does (step 1 of the global
-- lock order, namespace_lock_path, which also refuses them with NS011 while the organization moves
-- to another cluster): the move's start, which takes that lock row exclusively, waits for those
-- already made and exports them; those made after it are refused. The column naming the row's
-- namespace is the trigger's argument (namespace_id, or id for lifecycle.namespaces); a row moved
-- from one namespace to another (a webhook's UPDATE) holds both organizations. A namespace that
-- does not exist holds nothing: the row's own checks refuse it (NS004).
create or replace function lifecycle.organization_moving_guard()
returns trigger
language plpgsql
-- Definer: the lock rows and the marks are read and locked by this schema alone.
security definer
set search_path to ''
as $$
declare
  roots bigint[];
  locked text;
begin
  select pg_catalog.array_agg(distinct n.traversal_ids[1]) into roots
    from lifecycle.namespaces n
   where n.id in (case when tg_op <> 'INSERT' then (pg_catalog.to_jsonb(old) ->> tg_argv[0])::bigint end,
                  case when tg_op <> 'DELETE' then (pg_catalog.to_jsonb(new) ->> tg_argv[0])::bigint end);
  if roots is not null then
    -- An assignment, not PERFORM (which would run a whole query to call it).
    locked := lifecycle.namespace_lock_path(roots)::text;
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

-- Its triggers (namespace_members_moving, webhooks_moving, namespaces_2_moving: before an update
-- of name, the one column of a namespace the application writes itself) are made by migration 036,
-- after it locks their tables.
