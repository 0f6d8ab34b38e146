-- Bridge a legacy table's tree to the lifecycle's (docs/design.md §10.3): each row of source names
-- a namespace (id_column, the lifecycle id: GitLab's namespaces.id, projects.project_namespace_id),
-- its parent (parent_column), path, name, visibility (visibility_column, an integer level of
-- lifecycle.visibility_levels: GitLab's 0, 10, 20) and type: type_column's value mapped by types
-- (a JSON object, legacy value -> lifecycle type: {"Group": "group", "User": "user", "Project":
-- "project"}), or, without type_column, the one type types names (a JSON string: "project").
-- The table speaks for the namespaces of the types in speaks_for (all mapped types when null):
-- its INSERT creates the namespace with the legacy id, a changed path renames it (with the
-- redirects of the legacy path), a changed parent moves it (a transfer, guards checked), a changed
-- visibility or name sets it, a DELETE hard-deletes it, each through the gate in the same
-- transaction, judged as the writing role's API call on behalf of actor_id (legacy_tree_source).
-- Rows of the other mapped types follow: the lifecycle's changes are written to them, theirs are
-- not carried (GitLab writes a project's namespaces row before its projects row; projects speaks).
-- Every change of the lifecycle's tree, whatever its write path, is written to every bridged
-- table's rows of the namespace (legacy_tree_state). row_defaults gives the values a row the
-- write-back inserts takes in columns the bridge does not map (GitLab's organization_id), as JSON
-- values cast to the columns' types; required time columns without a default take the time of
-- the change. One tree bridge per table.
--
-- Identifiers are checked against the catalog and kept as attribute numbers (a renamed column stays
-- bridged); anything else is refused with NS010. Run by the schema's owner, who must be able to
-- read source (the triggers carrying its changes run with the owner's rights) and give
-- lifecycle_bridge, the role the writes back run as, the right to write it and move its id
-- sequence (legacy_writer_grant). Returns the bridge's id.
create or replace function lifecycle.legacy_tree_bridge_add(
  source regclass,
  id_column name,
  parent_column name,
  path_column name,
  name_column name,
  visibility_column name default null,
  type_column name default null,
  types jsonb default null,
  speaks_for text[] default null,
  actor_id bigint default null,
  row_defaults jsonb default '{}'
)
returns bigint
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  rel pg_catalog.pg_class;
  owner_role name;
  bridge_id bigint;
  mapped text[];
  missing text;
  bad text;
  atts smallint[];
  b lifecycle.legacy_tree_bridges;
begin
  if source is null or id_column is null or parent_column is null or path_column is null or name_column is null then
    raise exception using errcode = 'NS010', message = 'source, id_column, parent_column, path_column and name_column are required',
      hint = 'lifecycle.legacy_tree_bridge_add(''schema.table''::regclass, ''id'', ''parent_id'', ''path'', ''name'', ''visibility_level'', ''type'', ''{"Group": "group"}'')';
  end if;
  select * into rel from pg_catalog.pg_class c where c.oid = source;
  if rel.relkind not in ('r', 'p') or rel.relnamespace = 'lifecycle'::regnamespace then
    raise exception using errcode = 'NS010', message = pg_catalog.format('%s is not a table of the application', source),
      detail = pg_catalog.format('source=%s relkind=%s', source, rel.relkind),
      hint = 'Bridge an ordinary (or partitioned) table outside schema lifecycle.';
  end if;
  if type_column is null then
    if pg_catalog.jsonb_typeof(types) is distinct from 'string' then
      raise exception using errcode = 'NS010', message = 'without type_column, types names the one type of every row',
        detail = pg_catalog.format('source=%s types=%s', source, types), hint = 'Pass types => ''"project"''.';
    end if;
    mapped := array[types #>> '{}'];
  else
    if pg_catalog.jsonb_typeof(types) is distinct from 'object' then
      raise exception using errcode = 'NS010', message = 'types maps type_column''s values to lifecycle types',
        detail = pg_catalog.format('source=%s types=%s', source, types),
        hint = 'Pass types => ''{"Group": "group", "User": "user", "Project": "project"}''.';
    end if;
    select pg_catalog.array_agg(distinct t.value order by t.value) into mapped from pg_catalog.jsonb_each_text(types) t;
  end if;
  if mapped is null
     or exists (select from pg_catalog.unnest(mapped) t where not coalesce(lifecycle.namespace_type_known(t), false)) then
    raise exception using errcode = 'NS010', message = 'unknown namespace type in types',
      detail = pg_catalog.format('types=%s', types), hint = pg_catalog.format('Map to the types of lifecycle.namespace_types: %s.', pg_catalog.array_to_string(lifecycle.namespace_type_names(), ', '));
  end if;
  speaks_for := coalesce(speaks_for, mapped);
  if not speaks_for <@ mapped then
    raise exception using errcode = 'NS010', message = 'speaks_for names a type the table holds no rows of',
      detail = pg_catalog.format('speaks_for=%s types=%s', speaks_for, types), hint = 'Name types the types map leads to.';
  end if;
  if pg_catalog.jsonb_typeof(row_defaults) is distinct from 'object' then
    raise exception using errcode = 'NS010', message = 'row_defaults is a JSON object of column values',
      detail = pg_catalog.format('row_defaults=%s', row_defaults), hint = 'Pass row_defaults => ''{"organization_id": 1}''.';
  end if;
  if exists (select from lifecycle.legacy_tree_bridges t where t.source = legacy_tree_bridge_add.source) then
    raise exception using errcode = 'NS010', message = pg_catalog.format('%s has a tree bridge already', source),
      detail = pg_catalog.format('source=%s', source), hint = 'Drop it first (lifecycle.legacy_tree_bridge_drop).';
  end if;

  insert into lifecycle.legacy_tree_bridges as t (source, id_attnum, parent_attnum, path_attnum, name_attnum, visibility_attnum,
                                                  type_attnum, types, speaks_for, actor_id, row_defaults)
  values (source,
          lifecycle.legacy_bridge_attnum(source, id_column, array['int2', 'int4', 'int8']::regtype[], 'id_column', 'integer'),
          lifecycle.legacy_bridge_attnum(source, parent_column, array['int2', 'int4', 'int8']::regtype[], 'parent_column', 'integer'),
          lifecycle.legacy_bridge_attnum(source, path_column, array['text', 'varchar']::regtype[], 'path_column', 'text'),
          lifecycle.legacy_bridge_attnum(source, name_column, array['text', 'varchar']::regtype[], 'name_column', 'text'),
          case when visibility_column is not null then
            lifecycle.legacy_bridge_attnum(source, visibility_column, array['int2', 'int4', 'int8']::regtype[], 'visibility_column',
                                           'integer') end,
          case when type_column is not null then
            lifecycle.legacy_bridge_attnum(source, type_column, array['text', 'varchar']::regtype[], 'type_column', 'text') end,
          types, speaks_for, actor_id, row_defaults)
  returning * into b;
  bridge_id := b.id;
  atts := pg_catalog.array_remove(array[b.id_attnum, b.parent_attnum, b.path_attnum, b.name_attnum, b.visibility_attnum, b.type_attnum], null);

  -- The write-back inserts rows: every other required column needs a default, a row_defaults
  -- value, or a time type (it takes the change's time).
  select pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ') into missing
    from pg_catalog.pg_attribute a
   where a.attrelid = source and a.attnum > 0 and not a.attisdropped and a.attnotnull and not a.atthasdef
     and a.attidentity = '' and a.attgenerated = '' and not a.attnum = any (atts)
     and not row_defaults ? a.attname
     and not a.atttypid = any (array['timestamptz', 'timestamp', 'date']::regtype[]);
  if missing is not null then
    raise exception using errcode = 'NS010', message = pg_catalog.format('rows of %s cannot be inserted by the bridge', source),
      detail = pg_catalog.format('source=%s required columns without a default: %s', source, missing),
      hint = 'Give those columns defaults, or values in row_defaults.';
  end if;
  select pg_catalog.string_agg(pg_catalog.quote_ident(k), ', ') into bad
    from pg_catalog.jsonb_object_keys(row_defaults) k
   where not exists (select from pg_catalog.pg_attribute a
                      where a.attrelid = source and a.attname = k and a.attnum > 0 and not a.attisdropped
                        and a.attgenerated = '' and not a.attnum = any (atts));
  if bad is not null then
    raise exception using errcode = 'NS010', message = pg_catalog.format('row_defaults names columns %s has not, or maps', source),
      detail = pg_catalog.format('source=%s columns: %s', source, bad), hint = 'Name other columns of the table.';
  end if;

  -- The schema's owner reads source (the checks, and the triggers that carry its changes run with
  -- its rights); the writes back run as lifecycle_bridge (legacy_writer_grant).
  select r.rolname into owner_role from pg_catalog.pg_proc p join pg_catalog.pg_roles r on r.oid = p.proowner
   where p.oid = 'lifecycle.legacy_tree_state()'::regprocedure;
  if not pg_catalog.has_table_privilege(owner_role, source, 'SELECT') then
    raise exception using errcode = 'NS005', message = pg_catalog.format('the lifecycle schema''s owner %s cannot read %s', owner_role, source),
      detail = pg_catalog.format('source=%s owner=%s', source, owner_role),
      hint = pg_catalog.format('GRANT SELECT ON %s TO %I;', source, owner_role);
  end if;
  perform lifecycle.legacy_writer_grant(source, true, id_column);

  -- Legacy -> lifecycle: inserts, deletes, and updates of the mapped columns only (an UPDATE of any
  -- other column does not fire it). Named to fire before the state bridges' trigger
  -- (lifecycle_legacy_bridge): a row inserted archived is created, then archived.
  execute pg_catalog.format(
    'create trigger lifecycle_0_legacy_tree after insert or delete or update of %s on %s '
    'for each row execute function lifecycle.legacy_tree_source()',
    (select pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' order by a.attnum)
       from pg_catalog.pg_attribute a where a.attrelid = source and a.attnum = any (atts)),
    source);
  -- Lifecycle -> legacy: after the records (3), the facts (4) and the state bridges (5).
  if not exists (select from pg_catalog.pg_trigger t
                  where t.tgrelid = 'lifecycle.namespaces'::regclass and t.tgname = 'namespaces_6_legacy_tree') then
    create trigger namespaces_6_legacy_tree
      after insert or delete or update of parent_id, path, name, visibility on lifecycle.namespaces
      for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
      execute function lifecycle.legacy_tree_state();
  end if;
  return bridge_id;
end
$$;

comment on function lifecycle.legacy_tree_bridge_add(regclass, name, name, name, name, name, name, jsonb, text[], bigint, jsonb) is
  'Bridge a legacy table''s rows of namespaces to the lifecycle''s tree, both ways, in the same transaction; returns the bridge id.';
