-- What is wrong with a bridge now, or null when nothing is (docs/design.md §10.2): its table is
-- gone, or a column it keeps by attribute number was dropped or changed to a type the bridge
-- cannot read and write for its role (the same types legacy_bridge_add accepts). The catalog is
-- read at every use because an application's migration may ALTER or DROP its legacy table at any
-- time, and an event trigger that would see it needs a superuser, which the product's owner is not
-- on managed services.
create function lifecycle.legacy_bridge_broken(b lifecycle.legacy_bridges)
returns text
language sql
stable
set search_path to ''
begin atomic
  select case
    when not exists (select from pg_catalog.pg_class c where c.oid = b.source) then 'its table is gone'
    else (select pg_catalog.string_agg(pg_catalog.format('%s column (attribute %s) %s', r.role, r.attnum,
                                         case when a.attnum is null or a.attisdropped then 'was dropped'
                                              else 'is now ' || pg_catalog.format_type(a.atttypid, a.atttypmod) end),
                                       '; ' order by r.ord)
            from (values (1, 'namespace', b.namespace_attnum, array['int2', 'int4', 'int8']::regtype[]),
                         (2, 'when', b.when_attnum,
                          case b.kind when 'flag' then array['bool']::regtype[]
                                      else array['timestamptz', 'timestamp', 'date']::regtype[] end),
                         (3, 'at', b.at_attnum, array['timestamptz', 'timestamp', 'date']::regtype[]),
                         (4, 'by', b.by_attnum, array['int2', 'int4', 'int8']::regtype[])) r (ord, role, attnum, types)
            left join pg_catalog.pg_attribute a on a.attrelid = b.source and a.attnum = r.attnum
           where r.attnum is not null and (a.attnum is null or a.attisdropped or not a.atttypid = any (r.types)))
  end;
end;
