-- Give this cluster its own range of ids (docs/scaling.md, Cells): every identity of the schema
-- (namespaces, their history, redirects, transfer requests, webhooks, and the outbox, audit and
-- delivery ids, so that a fact's key fact/<id> and a webhook's idempotency key stay unique across
-- clusters) hands out ids from first_id to last_id only. Organizations then move between clusters
-- with their ids (organization_move_in), which no other cluster hands out.
--
-- Refused (NS012) when the range holds an id in use here that the range recorded before does not,
-- in a table whose ids travel with an organization (namespaces, namespace_state_updates,
-- namespace_redirects, transfer_requests, webhooks) or key a fact everywhere (facts, and the
-- audit's fact/<id> keys): one handed out before any range was set, or brought by an organization
-- from another cluster, which that cluster may still hand out. Ids given out from the recorded
-- range stay this cluster's, so a range may be widened or narrowed around them; the other
-- tables' ids never leave the cluster. Each sequence restarts past every
-- id in use inside the range and past the last it gave (a transaction still running may hold it);
-- NS010 when nothing of the range is left, or the bounds are not 1 <= first_id <= last_id <=
-- 2^62 - 1 (the import's bound: the guards compute a subtree's end as the last id + 1).
--
-- Reads every identity's table (the audit too, for the fact keys it holds), and ALTER SEQUENCE
-- holds up nextval in other sessions until this commits: run it when the cluster is installed, or
-- at a quiet moment (a writer holding one sequence and waiting for another may end in a deadlock,
-- 40P01, nothing half-done: run it again). Returns each sequence and the next id it hands out.
create or replace function lifecycle.id_range_set(first_id bigint, last_id bigint)
returns table (sequence_name text, next_id bigint)
language plpgsql
-- Definer: ALTER SEQUENCE needs the sequences' owner.
security definer
set search_path to ''
as $$
#variable_conflict use_column
declare
  recorded lifecycle.id_range;
  s record;
  used bigint;
  stranger bigint;
  given bigint;
  plan jsonb := '[]'::jsonb;
  p jsonb;
begin
  if id_range_set.first_id is null or id_range_set.last_id is null or id_range_set.first_id < 1
     or id_range_set.last_id > 4611686018427387903 or id_range_set.first_id > id_range_set.last_id then
    raise exception using errcode = 'NS010', message = 'invalid id range',
      detail = pg_catalog.format('first_id=%s last_id=%s', id_range_set.first_id, id_range_set.last_id),
      hint = 'Pass 1 <= first_id <= last_id <= 4611686018427387903 (2^62 - 1), a range no other cluster uses.';
  end if;
  -- One setter at a time; the recorded range is read under it.
  perform 1 from lifecycle.lock_rows l where l.name = 'id range' for update;
  select * into recorded from lifecycle.id_range r;

  -- Every check before any sequence changes.
  for s in
    select c.relname as table_name, a.attname as column_name, q.relname as sequence
      from pg_catalog.pg_class c
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attidentity <> '' and not a.attisdropped
      join pg_catalog.pg_depend d on d.refobjid = c.oid and d.refobjsubid = a.attnum and d.deptype = 'i'
                                 and d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass
      join pg_catalog.pg_class q on q.oid = d.objid and q.relkind = 'S'
     where c.relnamespace = 'lifecycle'::pg_catalog.regnamespace and c.relkind = 'r'
     order by c.relname
  loop
    execute pg_catalog.format(
      'select max(t.%1$I), min(t.%1$I) filter (where not coalesce(t.%1$I between $3 and $4, false)) from lifecycle.%2$I t where t.%1$I between $1 and $2',
      s.column_name, s.table_name)
      into used, stranger using id_range_set.first_id, id_range_set.last_id, recorded.first_id, recorded.last_id;
    if s.table_name = 'facts' then
      -- A recorded fact has left the outbox; its key fact/<id> stays in the audit, and a new fact
      -- with its id would collide with it (the audit's keys are unique).
      select greatest(used, max(k.id)), least(stranger, min(k.id) filter (where not coalesce(k.id between recorded.first_id and recorded.last_id, false)))
        into used, stranger
        from (select pg_catalog.substr(a.idempotency_key, 6)::bigint as id
                from lifecycle.audit_events a where a.idempotency_key ~ '^fact/[0-9]{1,18}$') k
       where k.id between id_range_set.first_id and id_range_set.last_id;
    end if;
    if stranger is not null
       and s.table_name in ('namespaces', 'namespace_state_updates', 'namespace_redirects', 'transfer_requests', 'webhooks', 'facts') then
      raise exception using errcode = 'NS012', message = 'the id range holds ids this cluster did not hand out from its range',
        detail = pg_catalog.format('table=%s id=%s first_id=%s last_id=%s recorded_first_id=%s recorded_last_id=%s', s.table_name,
                                   stranger, id_range_set.first_id, id_range_set.last_id, recorded.first_id, recorded.last_id),
        hint = 'Choose a range above every id in use (ids handed out before a range was set, or brought by organizations from other clusters, are another range''s).';
    end if;
    given := pg_catalog.pg_sequence_last_value(pg_catalog.format('lifecycle.%I', s.sequence)::pg_catalog.regclass);
    p := pg_catalog.jsonb_build_object('sequence', s.sequence, 'next', greatest(id_range_set.first_id, used + 1,
           case when given between id_range_set.first_id and id_range_set.last_id then given + 1 end));
    if (p ->> 'next')::bigint > id_range_set.last_id then
      raise exception using errcode = 'NS010', message = 'nothing of the id range is left',
        detail = pg_catalog.format('table=%s first_id=%s last_id=%s in_use_up_to=%s', s.table_name, id_range_set.first_id,
                                   id_range_set.last_id, greatest(used, given)),
        hint = 'Give the cluster a range with room above the ids it uses.';
    end if;
    plan := plan || p;
  end loop;

  for p in select * from pg_catalog.jsonb_array_elements(plan) loop
    execute pg_catalog.format('alter sequence lifecycle.%I as bigint minvalue %s maxvalue %s start with %s restart with %s',
                              p ->> 'sequence', id_range_set.first_id, id_range_set.last_id, id_range_set.first_id,
                              (p ->> 'next')::bigint);
    sequence_name := 'lifecycle.' || (p ->> 'sequence');
    next_id := (p ->> 'next')::bigint;
    return next;
  end loop;
  insert into lifecycle.id_range as r (singleton, first_id, last_id, set_at)
  values (true, id_range_set.first_id, id_range_set.last_id, pg_catalog.now())
  on conflict (singleton) do update set first_id = excluded.first_id, last_id = excluded.last_id, set_at = excluded.set_at;
end
$$;
