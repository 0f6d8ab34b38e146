-- Give lifecycle_bridge, the owner of the bridges' writers, what they need of one of the
-- application's tables (USAGE on its schema, and all of SELECT, INSERT, UPDATE and DELETE to write
-- it, SELECT to read it), and of its columns' sequences; or refuse with NS005 and the GRANT the
-- table's owner can run. Called by the bridges' add functions, as the schema's owner, who grants
-- what it holds with grant option (a superuser anything); a table the application's role owns may
-- need the grant from that role.
create or replace function lifecycle.legacy_writer_grant(source regclass, writes boolean, id_column name default null)
returns void
language plpgsql
set search_path to ''
as $$
declare
  privileges constant text := case when writes then 'SELECT, INSERT, UPDATE, DELETE' else 'SELECT' end;
  schema_name name;
  seq record;
begin
  select n.nspname into schema_name from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where c.oid = source;
  if not pg_catalog.has_schema_privilege('lifecycle_bridge', schema_name, 'USAGE') then
    begin
      execute pg_catalog.format('grant usage on schema %I to lifecycle_bridge', schema_name);
    exception when insufficient_privilege then
      null;  -- refused below, with the grant to ask for
    end;
  end if;
  if not pg_catalog.has_table_privilege('lifecycle_bridge', source, privileges) then
    begin
      -- privileges is one of two constants; the table is a regclass, quoted by its output.
      execute pg_catalog.format('grant %s on table %s to lifecycle_bridge', privileges, source);
    exception when insufficient_privilege then
      null;
    end;
  end if;
  if not pg_catalog.has_schema_privilege('lifecycle_bridge', schema_name, 'USAGE')
     or not pg_catalog.has_table_privilege('lifecycle_bridge', source, privileges) then
    raise exception using errcode = 'NS005',
      message = pg_catalog.format('lifecycle_bridge, the role the bridges write as, cannot %s %s, and %s may not grant it',
                                  case when writes then 'write' else 'read' end, source, current_user),
      detail = pg_catalog.format('source=%s privileges=%s role=lifecycle_bridge grantor=%s', source, privileges, current_user),
      hint = pg_catalog.format('As the owner of %s and its schema: GRANT USAGE ON SCHEMA %I TO lifecycle_bridge; GRANT %s ON %s TO '
                               'lifecycle_bridge; then add the bridge again.', source, schema_name, privileges, source);
  end if;
  -- The sequences of its columns: USAGE for the defaults of the rows a write-back inserts, and
  -- SELECT and UPDATE of the id column's, which a tree bridge moves past the ids it inserts.
  if writes then
    for seq in select x.seq::regclass as seq, a.attname = id_column as of_id
                 from pg_catalog.pg_attribute a
                 cross join lateral (select pg_catalog.pg_get_serial_sequence(source::text, a.attname) as seq) x
                where a.attrelid = source and a.attnum > 0 and not a.attisdropped and a.attidentity = '' and x.seq is not null loop
      if not pg_catalog.has_sequence_privilege('lifecycle_bridge', seq.seq, case when seq.of_id then 'USAGE, SELECT, UPDATE' else 'USAGE' end) then
        begin
          execute pg_catalog.format('grant %s on sequence %s to lifecycle_bridge',
                                    case when seq.of_id then 'usage, select, update' else 'usage' end, seq.seq);
        exception when insufficient_privilege then
          raise warning using
            message = pg_catalog.format('lifecycle_bridge may not use %s, so the bridges'' writes of %s may fail', seq.seq, source),
            hint = pg_catalog.format('As the owner of %s: GRANT %s ON SEQUENCE %s TO lifecycle_bridge;', seq.seq,
                                     case when seq.of_id then 'USAGE, SELECT, UPDATE' else 'USAGE' end, seq.seq);
        end;
      end if;
    end loop;
  end if;
end
$$;
