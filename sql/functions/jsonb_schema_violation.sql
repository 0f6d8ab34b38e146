-- The first way doc breaks schema, as "<json path>: <what>", or null when it conforms. Supports the
-- JSON Schema subset the product's schemas use (lifecycle.json_schemas): type (one or a list),
-- enum, properties, required, additionalProperties false, minimum, maxLength, format date-time,
-- and format lifecycle-state (a state name in lifecycle.states).
--
-- The document is walked depth first, a node's own checks before its properties and the
-- properties in key order, so the first violation reported is the first in that order. The walk
-- keeps its own stack rather than calling itself for every property: every state change validates
-- its metadata, and a call per key cost more than the checks.
create or replace function lifecycle.jsonb_schema_violation(schema jsonb, doc jsonb, at text default '$')
returns text
language plpgsql
stable
set search_path to ''
as $$
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
$$;
