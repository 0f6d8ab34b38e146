-- The first way doc breaks schema, as "<json path>: <what>", or null when it conforms. Supports the
-- JSON Schema subset the product's schemas use (lifecycle.json_schemas): type (one or a list),
-- enum, properties, required, additionalProperties false, minimum, maxLength, format date-time,
-- and format lifecycle-state (a state name in lifecycle.states).
create or replace function lifecycle.jsonb_schema_violation(schema jsonb, doc jsonb, at text default '$')
returns text
language plpgsql
stable
set search_path to ''
as $$
declare
  doc_type text := pg_catalog.jsonb_typeof(doc);
  types jsonb;
  t text;
  matched boolean := false;
  k text;
  v jsonb;
  found_violation text;
begin
  if schema ? 'type' then
    types := case pg_catalog.jsonb_typeof(schema -> 'type')
               when 'array' then schema -> 'type'
               else pg_catalog.jsonb_build_array(schema -> 'type') end;
    for t in select pg_catalog.jsonb_array_elements_text(types) loop
      if t = doc_type
         or (t = 'integer' and doc_type = 'number'
             and (doc #>> '{}')::numeric = pg_catalog.trunc((doc #>> '{}')::numeric)) then
        matched := true;
        exit;
      end if;
    end loop;
    if not matched then
      return pg_catalog.format('%s: expected %s, got %s', at, types #>> '{}', doc_type);
    end if;
  end if;

  if schema ? 'enum' and not (schema -> 'enum') @> pg_catalog.jsonb_build_array(doc) then
    return pg_catalog.format('%s: %s is not one of %s', at, doc, schema -> 'enum');
  end if;

  case doc_type
  when 'string' then
    if schema ? 'maxLength' and pg_catalog.length(doc #>> '{}') > (schema ->> 'maxLength')::int then
      return pg_catalog.format('%s: longer than %s characters', at, schema ->> 'maxLength');
    end if;
    if schema ->> 'format' = 'date-time'
       and (doc #>> '{}') !~ '^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)$' then
      return pg_catalog.format('%s: %s is not an RFC 3339 date-time', at, doc);
    end if;
    if schema ->> 'format' = 'lifecycle-state'
       and not exists (select from lifecycle.states s where s.name = doc #>> '{}') then
      return pg_catalog.format('%s: %s is not a state name', at, doc);
    end if;
  when 'number' then
    if schema ? 'minimum' and (doc #>> '{}')::numeric < (schema ->> 'minimum')::numeric then
      return pg_catalog.format('%s: less than %s', at, schema ->> 'minimum');
    end if;
  when 'object' then
    if schema ? 'required' then
      for k in select pg_catalog.jsonb_array_elements_text(schema -> 'required') loop
        if not doc ? k then
          return pg_catalog.format('%s: missing key %s', at, k);
        end if;
      end loop;
    end if;
    for k, v in select e.key, e.value from pg_catalog.jsonb_each(doc) e order by e.key loop
      if schema -> 'properties' ? k then
        found_violation := lifecycle.jsonb_schema_violation(schema -> 'properties' -> k, v, at || '.' || k);
        if found_violation is not null then
          return found_violation;
        end if;
      elsif schema -> 'additionalProperties' = 'false'::jsonb then
        return pg_catalog.format('%s: unknown key %s', at, k);
      end if;
    end loop;
  else
    null;
  end case;
  return null;
end
$$;
