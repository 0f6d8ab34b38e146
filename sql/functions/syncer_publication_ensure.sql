-- Make sure the syncer's publication exists and publishes the inserts into lifecycle.facts (the
-- outbox) and nothing else: the stream brings each fact with its commit position and time as soon
-- as it commits. It serves speed only: a fact stays in the outbox until recorded, whatever the
-- slot saw. Returns 'created', 'altered' (its tables or operations were not these: set back) or
-- 'unchanged'. Definer: a publication over a table needs its owner. The name is checked against a
-- strict pattern and quoted (%I): it is an identifier the operator configures, never user input.
create or replace function lifecycle.syncer_publication_ensure(publication_name text)
returns text
language plpgsql
security definer
set search_path to ''
as $$
declare
  have text[];
  p record;
begin
  if publication_name !~ '^[a-z_][a-z0-9_]{0,62}$' then
    raise exception using errcode = 'NS010', message = 'invalid publication name',
      detail = pg_catalog.format('publication_name=%s', publication_name),
      hint = 'Use lowercase letters, digits and _, starting with a letter or _.';
  end if;
  select * into p from pg_catalog.pg_publication where pubname = publication_name;
  if not found then
    execute pg_catalog.format('create publication %I for table lifecycle.facts with (publish = ''insert'')', publication_name);
    return 'created';
  end if;
  select pg_catalog.array_agg(t.schemaname || '.' || t.tablename) into have
    from pg_catalog.pg_publication_tables t where t.pubname = publication_name;
  if have is distinct from array['lifecycle.facts'] or not p.pubinsert or p.pubupdate or p.pubdelete or p.pubtruncate
     or p.puballtables then
    if p.puballtables then
      raise exception using errcode = 'NS010', message = 'the publication covers all tables',
        detail = pg_catalog.format('publication_name=%s', publication_name),
        hint = 'Drop it, or give the syncer another publication name; it creates its own.';
    end if;
    execute pg_catalog.format('alter publication %I set table lifecycle.facts', publication_name);
    execute pg_catalog.format('alter publication %I set (publish = ''insert'')', publication_name);
    return 'altered';
  end if;
  return 'unchanged';
end
$$;
