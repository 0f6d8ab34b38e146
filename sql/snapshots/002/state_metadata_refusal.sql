-- Why a state_metadata document (or the metadata argument of a transition, which is merged into
-- it) is refused, or null when it is acceptable: it must be an object within the size limit that
-- conforms to the 'state_metadata' schema in lifecycle.json_schemas.
create or replace function lifecycle.state_metadata_refusal(doc jsonb)
returns text
language sql
stable
set search_path to ''
as $$
  select case
           when doc is null then 'metadata is null'
           when pg_catalog.jsonb_typeof(doc) <> 'object' then 'metadata must be a JSON object'
           when pg_catalog.octet_length(doc::text) > j.max_bytes
             then pg_catalog.format('metadata is %s bytes, more than the limit of %s', pg_catalog.octet_length(doc::text), j.max_bytes)
           else lifecycle.jsonb_schema_violation(j.schema, doc)
         end
    from lifecycle.json_schemas j
   where j.name = 'state_metadata'
$$;
