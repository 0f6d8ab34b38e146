-- Bridge a legacy column or table to a state (docs/design.md §10): the namespace whose id is in
-- source.namespace_column is in `state` while when_column is true (a boolean column), or not null
-- (a date or time column), or, when when_column is null, while the row exists (an existence
-- bridge, like GitLab's group_deletion_schedules). at_column and by_column carry the time and the
-- actor of the legacy change. namespace_types limits the namespaces the bridge speaks for (an
-- existence bridge speaks for every namespace otherwise; a flag or column bridge for those with a
-- row in its table). actor_id is the user a legacy write of this bridge is made on behalf of when
-- the row names none (no by_column, or it is null): a legacy write has the writer's authority, no
-- more (docs/design.md §10.2), so a write by lifecycle_app is judged as that role's API call for
-- this actor; without one, as the system, which only lifecycle_worker members and superusers may
-- act as (NS005 for the application). insert_missing (a flag or column bridge) makes a namespace of
-- namespace_types without a row in source one the bridge speaks for, its condition off: when its
-- state turns the condition on, the write-back inserts its row (GitLab's namespace_settings row of
-- a group that has none, archived); every other required column then needs a default (a time
-- column takes the change's time).
--
-- Every identifier is checked against the catalog (pg_class, pg_attribute, pg_type) and kept as
-- its attribute number; the statements built from it quote the name with format('%I'). Anything
-- else is refused with NS010. Then, from now on, in the same transaction as each change:
--   * a change of the legacy data that turns the condition on or off moves the namespace through
--     the same gate (legacy_bridge_source), so a refusal refuses the legacy statement;
--   * a state change of the namespace, whatever its write path, writes the legacy data
--     (legacy_bridge_state).
-- Returns the bridge's id. Run by the schema's owner (or a superuser), who must be able to write
-- the source table (the bridge's triggers run with the owner's rights).
create or replace function lifecycle.legacy_bridge_add(
  source regclass,
  namespace_column name,
  state text,
  when_column name default null,
  at_column name default null,
  by_column name default null,
  namespace_types text[] default null,
  actor_id bigint default null,
  insert_missing boolean default false
)
returns bigint
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  rel pg_catalog.pg_class;
  owner_role name;
  code smallint;
  ns_att smallint;
  when_att smallint;
  at_att smallint;
  by_att smallint;
  kind text;
  bridge_id bigint;
  missing text;
begin
  if source is null or namespace_column is null or state is null then
    raise exception using errcode = 'NS010', message = 'source, namespace_column and state are required',
      hint = 'lifecycle.legacy_bridge_add(''schema.table''::regclass, ''namespace_id_column'', ''archived'', ''flag_column'')';
  end if;
  select * into rel from pg_catalog.pg_class c where c.oid = source;
  if rel.relkind not in ('r', 'p') or rel.relnamespace = 'lifecycle'::regnamespace then
    raise exception using errcode = 'NS010', message = pg_catalog.format('%s is not a table of the application', source),
      detail = pg_catalog.format('source=%s relkind=%s', source, rel.relkind),
      hint = 'Bridge an ordinary (or partitioned) table outside schema lifecycle.';
  end if;
  select r.state into code
    from lifecycle.legacy_bridge_states r join lifecycle.states s on s.code = r.state
   where s.name = legacy_bridge_add.state;
  if code is null then
    raise exception using errcode = 'NS010', message = pg_catalog.format('state %L cannot be bridged', state),
      detail = pg_catalog.format('state=%s', state),
      hint = (select 'Bridge ' || pg_catalog.array_to_string(b.names[:pg_catalog.cardinality(b.names) - 1], ', ')
                     || ' or ' || b.names[pg_catalog.cardinality(b.names)] || '.'
                from (select pg_catalog.array_agg(s.name order by r.state) as names
                        from lifecycle.legacy_bridge_states r join lifecycle.states s on s.code = r.state) b);
  end if;
  if exists (select from pg_catalog.unnest(namespace_types) t where not coalesce(lifecycle.namespace_type_known(t), false)) then
    raise exception using errcode = 'NS010', message = 'unknown namespace type in namespace_types',
      detail = pg_catalog.format('namespace_types=%s', namespace_types),
      hint = pg_catalog.format('Use the types of lifecycle.namespace_types: %s.', pg_catalog.array_to_string(lifecycle.namespace_type_names(), ', '));
  end if;

  -- Each column: it exists (not dropped), with a type the bridge can read and write.
  ns_att := lifecycle.legacy_bridge_attnum(source, namespace_column, array['int2', 'int4', 'int8']::regtype[],
                                           'namespace_column', 'integer');
  if when_column is null then
    kind := 'exists';
  else
    when_att := lifecycle.legacy_bridge_attnum(source, when_column,
                                               array['bool', 'timestamptz', 'timestamp', 'date']::regtype[],
                                               'when_column', 'boolean, date or time');
    kind := case when (select a.atttypid from pg_catalog.pg_attribute a
                        where a.attrelid = source and a.attnum = when_att) = 'bool'::regtype then 'flag' else 'value' end;
  end if;
  if at_column is not null then
    at_att := lifecycle.legacy_bridge_attnum(source, at_column, array['timestamptz', 'timestamp', 'date']::regtype[],
                                             'at_column', 'date or time');
  end if;
  if by_column is not null then
    by_att := lifecycle.legacy_bridge_attnum(source, by_column, array['int2', 'int4', 'int8']::regtype[], 'by_column', 'integer');
  end if;
  if insert_missing and kind = 'exists' then
    raise exception using errcode = 'NS010', message = 'insert_missing is for a flag or column bridge',
      detail = pg_catalog.format('source=%s', source), hint = 'An existence bridge inserts its rows already.';
  end if;
  -- An existence bridge, or one that inserts missing rows, inserts rows: every other required
  -- column needs a default (a time column of one that inserts missing rows takes the change's time).
  if kind = 'exists' or insert_missing then
    select pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ') into missing
      from pg_catalog.pg_attribute a
     where a.attrelid = source and a.attnum > 0 and not a.attisdropped and a.attnotnull and not a.atthasdef
       and a.attidentity = '' and a.attgenerated = ''
       and a.attnum not in (ns_att, coalesce(when_att, 0), coalesce(at_att, 0), coalesce(by_att, 0))
       and not (insert_missing and a.atttypid = any (array['timestamptz', 'timestamp', 'date']::regtype[]));
    if missing is not null then
      raise exception using errcode = 'NS010', message = pg_catalog.format('rows of %s cannot be inserted by the bridge', source),
        detail = pg_catalog.format('source=%s required columns without a default: %s', source, missing),
        hint = 'Give those columns defaults, or bridge at_column/by_column to them.';
    end if;
  end if;
  -- The bridge's triggers run as the schema's owner, who writes the source table.
  select r.rolname into owner_role from pg_catalog.pg_proc p join pg_catalog.pg_roles r on r.oid = p.proowner
   where p.oid = 'lifecycle.legacy_bridge_state()'::regprocedure;
  if not pg_catalog.has_table_privilege(owner_role, source, 'SELECT, INSERT, UPDATE, DELETE') then
    raise exception using errcode = 'NS005', message = pg_catalog.format('the lifecycle schema''s owner %s cannot write %s', owner_role, source),
      detail = pg_catalog.format('source=%s owner=%s', source, owner_role),
      hint = pg_catalog.format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO %I;', source, owner_role);
  end if;
  if exists (select from lifecycle.legacy_bridges b where b.source = legacy_bridge_add.source and b.state = code) then
    raise exception using errcode = 'NS010', message = pg_catalog.format('%s is bridged to %s already', source, state),
      detail = pg_catalog.format('source=%s state=%s', source, state),
      hint = 'Drop the bridge first (lifecycle.legacy_bridge_drop) to change it.';
  end if;

  insert into lifecycle.legacy_bridges (source, state, kind, namespace_attnum, when_attnum, at_attnum, by_attnum, namespace_types,
                                        actor_id, insert_missing)
  values (source, code, kind, ns_att, when_att, at_att, by_att, namespace_types, actor_id, coalesce(insert_missing, false))
  returning id into bridge_id;

  -- Legacy → state: the source's rows (its triggers, made again for its bridges now).
  perform lifecycle.legacy_bridge_watch(source);
  -- State → legacy: after the state record (3) and the facts (4), so the details row is current.
  if not exists (select from pg_catalog.pg_trigger t
                  where t.tgrelid = 'lifecycle.namespaces'::regclass and t.tgname = 'namespaces_5_legacy_bridge') then
    create trigger namespaces_5_legacy_bridge
      after update of state on lifecycle.namespaces
      for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
      execute function lifecycle.legacy_bridge_state();
  end if;
  return bridge_id;
end
$$;

comment on function lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[], bigint, boolean) is
  'Bridge a legacy flag, column or table to a state, both ways, in the same transaction as each change; returns the bridge id.';
