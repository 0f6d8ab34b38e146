-- What is wrong with a bridge now, or null when nothing is (docs/design.md §10.2): its table is
-- gone, or a column it keeps by attribute number was dropped or changed to a type the bridge
-- cannot read and write for its role (the same types legacy_bridge_add accepts). The catalog is
-- read at every use because an application's migration may ALTER or DROP its legacy table at any
-- time, and an event trigger that would see it needs a superuser, which the product's owner is not
-- on managed services. Every state change of a bridged database asks this of each bridge, so the
-- usual answer (nothing) costs one probe of pg_attribute with a cached plan (PL/pgSQL; measured:
-- about 50 µs a call as a SQL function, planned afresh each time); the reason is worked out only
-- for a broken bridge.
create or replace function lifecycle.legacy_bridge_broken(b lifecycle.legacy_bridges)
returns text
language plpgsql
stable
set search_path to ''
as $$
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
