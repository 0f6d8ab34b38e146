-- Make sure the syncer's publication exists and covers the tables that hold lifecycle facts, for
-- TRUNCATE: every row change already arrives as a fact message from the triggers, but a TRUNCATE
-- fires no row triggers, so the publication is how the syncer learns of one (and audits it).
-- Returns 'created', 'altered' (someone changed its tables or operations; set back) or 'unchanged'.
-- Definer: a publication over tables needs their owner. The name is checked against a strict
-- pattern and quoted (%I): it is an identifier the operator configures, never user input.
create function lifecycle.syncer_publication_ensure(publication_name text)
returns text
language plpgsql
security definer
set search_path to ''
as $$
declare
  want text[] := array['lifecycle.namespaces', 'lifecycle.namespace_details', 'lifecycle.namespace_members',
                       'lifecycle.namespace_state_updates', 'lifecycle.namespace_redirects',
                       'lifecycle.transfer_requests', 'lifecycle.deleted_namespaces'];
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
    execute pg_catalog.format('create publication %I for table %s with (publish = ''truncate'')', publication_name,
                              pg_catalog.array_to_string(want, ', '));
    return 'created';
  end if;
  select pg_catalog.array_agg(t.schemaname || '.' || t.tablename order by t.schemaname || '.' || t.tablename) into have
    from pg_catalog.pg_publication_tables t where t.pubname = publication_name;
  if have is distinct from (select pg_catalog.array_agg(x order by x) from pg_catalog.unnest(want) x)
     or p.pubinsert or p.pubupdate or p.pubdelete or not p.pubtruncate or p.puballtables then
    if p.puballtables then
      raise exception using errcode = 'NS010', message = 'the publication covers all tables',
        detail = pg_catalog.format('publication_name=%s', publication_name),
        hint = 'Drop it, or give the syncer another publication name; it creates its own.';
    end if;
    execute pg_catalog.format('alter publication %I set table %s', publication_name, pg_catalog.array_to_string(want, ', '));
    execute pg_catalog.format('alter publication %I set (publish = ''truncate'')', publication_name);
    return 'altered';
  end if;
  return 'unchanged';
end
$$;
