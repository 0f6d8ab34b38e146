-- Bridge GitLab's memberships to the lifecycle's (docs/adoption.md, Memberships): every INSERT,
-- UPDATE or DELETE of a row of members (GitLab's table, its column names) that makes, changes or
-- ends a membership (lifecycle.legacy_members: the import's definition) is carried to
-- lifecycle.namespace_members in the same transaction (legacy_members_source), audited and notified
-- as any membership change is; and a membership the application adds, changes or removes through
-- the product is written back to members in the same transaction (legacy_members_state, a trigger
-- on lifecycle.namespace_members). projects (GitLab's) gives a Project member's namespace. One members
-- bridge: it speaks for every membership of the lifecycle (legacy_members_check compares them all).
-- The columns it reads are checked against the catalog here; one altered or dropped later makes a
-- write of members that changes a membership fail with NS010 naming the bridge, not a raw error.
-- Every other required column of members needs a default (the write-back inserts rows as GitLab
-- writes a direct member: legacy_members_write names the columns it fills). Run by the schema's
-- owner, who must be able to read both tables (the check and the carrying run with its rights)
-- and give lifecycle_bridge what the write-back needs: members to write, projects to read
-- (legacy_writer_grant). Returns the bridge's id.
-- namespace_types are the lifecycle's types of the namespaces a row of members names with
-- source_type Namespace (GitLab: its groups, array['group'], as cmd/adopt's preset passes; a
-- GroupMember's source is a Group, never a user's personal namespace). A project's namespace (a
-- type that cannot be a parent) is named by its Project rows whatever the list says. A membership
-- of a namespace of any other type is one GitLab's members cannot say: refused while the bridge is
-- installed (legacy_members_state), no membership when a row names one (legacy_members_statement),
-- and reported by the check when the lifecycle has one.
create or replace function lifecycle.legacy_members_bridge_add(members regclass, projects regclass, namespace_types text[])
returns bigint
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  t regclass;
  owner_role name;
  missing text;
  bridge_id bigint;
begin
  if members is null or projects is null then
    raise exception using errcode = 'NS010', message = 'members and projects are required',
      -- The types shown are those a bridge installed before 060 kept (for GitLab, only its groups' type).
      hint = pg_catalog.format('lifecycle.legacy_members_bridge_add(''schema.members''::regclass, ''schema.projects''::regclass, %L::text[])',
                               array(select t.name from lifecycle.namespace_types t
                                      where lifecycle.namespace_type_can_be_parent(t.name) and not lifecycle.namespace_type_root_only(t.name)
                                      order by t.name));
  end if;
  -- Each a type of lifecycle.namespace_types that holds others: a project's namespace is named by
  -- its Project rows, never a Namespace row.
  if namespace_types is null or pg_catalog.cardinality(namespace_types) = 0
     or exists (select from pg_catalog.unnest(namespace_types) x (type)
                 where x.type is null or not lifecycle.namespace_type_known(x.type) or not lifecycle.namespace_type_can_be_parent(x.type)) then
    raise exception using errcode = 'NS010', message = 'namespace_types must name types that hold others',
      detail = pg_catalog.format('namespace_types=%s', namespace_types),
      hint = (select 'The types of the namespaces a members row names with source_type Namespace (for GitLab, the type of its groups), among: '
                     || pg_catalog.string_agg(t.name, ', ' order by t.name) || '.'
                from lifecycle.namespace_types t where lifecycle.namespace_type_can_be_parent(t.name));
  end if;
  foreach t in array array[members, projects] loop
    if (select c.relkind not in ('r', 'p') or c.relnamespace = 'lifecycle'::regnamespace from pg_catalog.pg_class c where c.oid = t) then
      raise exception using errcode = 'NS010', message = pg_catalog.format('%s is not a table of the application', t),
        detail = pg_catalog.format('source=%s', t), hint = 'Bridge an ordinary (or partitioned) table outside schema lifecycle.';
    end if;
  end loop;
  -- The columns legacy_members reads, with the types it reads them as.
  select pg_catalog.string_agg(pg_catalog.format('%s.%s (%s)', r.rel, r.col, r.kind), ', ' order by r.rel::text, r.col)
    into missing
    from (values (members, 'source_id', 'integer', array['int2', 'int4', 'int8']::regtype[]),
                 (members, 'source_type', 'text', array['text', 'varchar']::regtype[]),
                 (members, 'user_id', 'integer', array['int2', 'int4', 'int8']::regtype[]),
                 (members, 'access_level', 'integer', array['int2', 'int4', 'int8']::regtype[]),
                 (members, 'requested_at', 'time', array['timestamp', 'timestamptz']::regtype[]),
                 (members, 'invite_token', 'text', array['text', 'varchar']::regtype[]),
                 (members, 'created_at', 'time', array['timestamp', 'timestamptz']::regtype[]),
                 (projects, 'id', 'integer', array['int2', 'int4', 'int8']::regtype[]),
                 (projects, 'project_namespace_id', 'integer', array['int2', 'int4', 'int8']::regtype[])) r (rel, col, kind, types)
   where not exists (select from pg_catalog.pg_attribute a
                      where a.attrelid = r.rel and a.attname = r.col and a.attnum > 0 and not a.attisdropped
                        and a.atttypid = any (r.types));
  if missing is not null then
    raise exception using errcode = 'NS010', message = 'the tables are not GitLab''s members and projects',
      detail = pg_catalog.format('missing, or of another type: %s', missing),
      hint = 'Pass GitLab''s members and projects tables.';
  end if;
  select pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' order by a.attnum) into missing
    from pg_catalog.pg_attribute a
   where a.attrelid = members and a.attnum > 0 and not a.attisdropped and a.attnotnull and not a.atthasdef
     and a.attidentity = '' and a.attgenerated = ''
     and not a.attname = any (array['source_id', 'source_type', 'user_id', 'access_level', 'notification_level', 'type',
                                    'member_namespace_id', 'created_at', 'updated_at']::name[]);
  if missing is not null then
    raise exception using errcode = 'NS010', message = pg_catalog.format('rows of %s cannot be written back by the bridge', members),
      detail = pg_catalog.format('source=%s required columns without a default: %s', members, missing),
      hint = 'Give those columns defaults.';
  end if;
  if exists (select from lifecycle.legacy_members_bridges) then
    raise exception using errcode = 'NS010', message = 'a members bridge exists already',
      detail = pg_catalog.format('source=%s', (select b.source from lifecycle.legacy_members_bridges b)),
      hint = 'Drop it first (lifecycle.legacy_members_bridge_drop): one table holds every membership.';
  end if;
  select r.rolname into owner_role from pg_catalog.pg_proc p join pg_catalog.pg_roles r on r.oid = p.proowner
   where p.oid = 'lifecycle.legacy_members_source()'::regprocedure;
  foreach t in array array[members, projects] loop
    if not pg_catalog.has_table_privilege(owner_role, t, 'SELECT') then
      raise exception using errcode = 'NS005', message = pg_catalog.format('the lifecycle schema''s owner %s cannot read %s', owner_role, t),
        detail = pg_catalog.format('source=%s owner=%s', t, owner_role),
        hint = pg_catalog.format('GRANT SELECT ON %s TO %I;', t, owner_role);
    end if;
  end loop;
  -- The write-back writes members as lifecycle_bridge (legacy_members_write), reading projects.
  perform lifecycle.legacy_writer_grant(members, true);
  perform lifecycle.legacy_writer_grant(projects, false);

  insert into lifecycle.legacy_members_bridges as b (source, projects, namespace_types)
  values (members, projects, namespace_types) returning b.id into bridge_id;
  -- Only the columns that decide a membership fire it: GitLab's other updates of members
  -- (notification_level, expiry notices) cost nothing.
  execute pg_catalog.format(
    'create trigger lifecycle_legacy_members after insert or delete or update of source_id, source_type, user_id, access_level, '
    'requested_at, invite_token on %s for each row execute function lifecycle.legacy_members_source()', members);
  -- Lifecycle -> GitLab: the memberships the application writes through the product.
  create trigger namespace_members_legacy
    after insert or delete or update of namespace_id, user_id, access_level on lifecycle.namespace_members
    for each row execute function lifecycle.legacy_members_state();
  return bridge_id;
end
$$;

comment on function lifecycle.legacy_members_bridge_add(regclass, regclass, text[]) is
  'Keep lifecycle.namespace_members in step with GitLab''s members table, in the same transaction; returns the bridge id.';
