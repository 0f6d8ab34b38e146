-- Why a logical message cannot be a fact, or null when it can: the shape of a fact that comes as
-- a message (fact_message_adopt). An object; action a string of 1 to 128 bytes; namespace_id and
-- actor_id an integer, null or absent; traversal_ids an array of integers or absent; full_path a
-- string, null or absent; details an object or absent; other keys (mac, occurred_at, …) are not
-- looked at. An integer is a number jsonb keeps with scale 0 within bigint's range (1e2 is 100,
-- 1.0 is not an integer).
--
-- Anyone may emit a message with the fact prefix, so the syncer ignores other shapes before they
-- reach SQL (internal/syncer/decode.go holds the same rules; a fuzz test checks that the two
-- agree). lifecycle.fact_message_adopt asks this first all the same: the SQL is the last line,
-- and nothing is extracted from a shape it refuses. PL/pgSQL for its cached plan.
create or replace function lifecycle.fact_refusal(fact jsonb)
returns text
language plpgsql
immutable
set search_path to ''
as $$
declare
  k text;
  v jsonb;
begin
  if pg_catalog.jsonb_typeof(fact) is distinct from 'object' then
    return pg_catalog.format('the fact is %s, not an object', coalesce(pg_catalog.jsonb_typeof(fact), 'missing'));
  end if;
  v := fact -> 'action';
  if pg_catalog.jsonb_typeof(v) is distinct from 'string' then
    return pg_catalog.format('action is %s, not a string', coalesce(pg_catalog.jsonb_typeof(v), 'missing'));
  end if;
  if pg_catalog.octet_length(fact ->> 'action') not between 1 and 128 then
    return pg_catalog.format('action is %s bytes long, not 1 to 128', pg_catalog.octet_length(fact ->> 'action'));
  end if;
  foreach k in array array['namespace_id', 'actor_id'] loop
    v := fact -> k;
    -- CASE: a string must not reach the numeric cast.
    if v is not null and pg_catalog.jsonb_typeof(v) <> 'null'
       and not (case when pg_catalog.jsonb_typeof(v) = 'number'
                     then pg_catalog.scale(v::numeric) = 0 and v::numeric between -9223372036854775808 and 9223372036854775807
                     else false end) then
      return pg_catalog.format('%s is not an integer (bigint) or null', k);
    end if;
  end loop;
  v := fact -> 'traversal_ids';
  if v is not null and (pg_catalog.jsonb_typeof(v) <> 'array'
       or exists (select from pg_catalog.jsonb_array_elements(v) e
                   where not (case when pg_catalog.jsonb_typeof(e.value) = 'number'
                                   then pg_catalog.scale(e.value::numeric) = 0
                                        and e.value::numeric between -9223372036854775808 and 9223372036854775807
                                   else false end))) then
    return 'traversal_ids is not an array of integers (bigint)';
  end if;
  v := fact -> 'full_path';
  if v is not null and pg_catalog.jsonb_typeof(v) not in ('string', 'null') then
    return pg_catalog.format('full_path is %s, not a string or null', pg_catalog.jsonb_typeof(v));
  end if;
  v := fact -> 'details';
  if v is not null and pg_catalog.jsonb_typeof(v) <> 'object' then
    return pg_catalog.format('details is %s, not an object', pg_catalog.jsonb_typeof(v));
  end if;
  return null;
end
$$;
