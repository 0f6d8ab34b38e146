-- What is wrong with a tree bridge now, or null when nothing is (docs/design.md §10.2, §10.3): its
-- table is gone, or a column it keeps by attribute number was dropped or changed to a type it
-- cannot read and write. Read from the catalog at each use, as legacy_bridge_broken reads it for
-- the state bridges (an application's migration may ALTER or DROP its table at any time); the
-- usual answer costs one probe of pg_attribute.
create or replace function lifecycle.legacy_tree_broken(b lifecycle.legacy_tree_bridges)
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
         and ((a.attnum in (b.id_attnum, b.parent_attnum, b.visibility_attnum) and a.atttypid = any ('{int2,int4,int8}'::regtype[]))
              or (a.attnum in (b.path_attnum, b.name_attnum, b.type_attnum) and a.atttypid = any ('{text,varchar}'::regtype[]))))
     = (select count(distinct x) from pg_catalog.unnest(array[b.id_attnum, b.parent_attnum, b.path_attnum, b.name_attnum,
                                                                b.visibility_attnum, b.type_attnum]) x) then
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
    from (values (1, 'id', b.id_attnum, '{int2,int4,int8}'::regtype[]), (2, 'parent', b.parent_attnum, '{int2,int4,int8}'::regtype[]),
                 (3, 'path', b.path_attnum, '{text,varchar}'::regtype[]), (4, 'name', b.name_attnum, '{text,varchar}'::regtype[]),
                 (5, 'visibility', b.visibility_attnum, '{int2,int4,int8}'::regtype[]),
                 (6, 'type', b.type_attnum, '{text,varchar}'::regtype[])) r (ord, role, attnum, types)
    left join pg_catalog.pg_attribute a on a.attrelid = b.source and a.attnum = r.attnum
   where r.attnum is not null and (a.attnum is null or a.attisdropped or not a.atttypid = any (r.types));
  return reason;
end
$$;
