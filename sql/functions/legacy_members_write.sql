-- Write one membership change of lifecycle.namespace_members back to GitLab's members table (the
-- rows and columns legacy_members_state says): the removed pair's membership rows deleted, the
-- added or changed pair's rows set, its access request approved, or a direct member's row
-- inserted. The caller's authority is asked for each write (NS005), as its own write of members
-- would be. A writer of the bridges: it runs as its owner, lifecycle_bridge, which holds members'
-- writes and projects' reads and nothing else, so a trigger (or default, policy, operator) that
-- GitLab's role puts on its tables runs with no more rights than that role; the caller checks the
-- function before and after (legacy_writer_check). Only legacy_members_state calls it.
create or replace function lifecycle.legacy_members_write(
  b lifecycle.legacy_members_bridges,
  caller name,
  removed_namespace bigint,
  removed_user bigint,
  removed_gone boolean,
  added_namespace bigint,
  added_user bigint,
  added_level smallint,
  added_created timestamptz,
  added_project boolean
)
returns void
language plpgsql
security definer
set search_path to ''
as $$
declare
  src text := b.source::text;
  src_type text;
  src_id bigint;
  has_rows boolean;
  requested boolean := false;
  cols text := '';
  vals text := '';
  col record;
  -- The pair's membership rows in GitLab's table, as lifecycle.legacy_members reads them.
  pair_rows constant text := 'm.user_id = $2 and m.requested_at is null and m.invite_token is null '
                             'and (m.source_type = ''Namespace'' and m.source_id = $1 '
                             'or m.source_type = ''Project'' and m.source_id in (select p.id from %2$s p where p.project_namespace_id = $1)%3$s)';
  gone_rows text := '';
begin
  if removed_namespace is not null then
    -- A membership its namespace's hard delete ends was authorised as that deletion; a project's
    -- rows are found by their member_namespace_id then, its projects row may have gone first.
    if removed_gone and exists (select from pg_catalog.pg_attribute a where a.attrelid = b.source and a.attname = 'member_namespace_id'
                                                              and a.attnum > 0 and not a.attisdropped) then
      gone_rows := ' or m.source_type = ''Project'' and m.member_namespace_id = $1';
    end if;
    if not removed_gone and not pg_catalog.has_table_privilege(caller, b.source, 'DELETE') then
      raise exception using errcode = 'NS005', message = pg_catalog.format('role %s may not remove members of %s, so not through the API while it is bridged', caller, src),
        detail = pg_catalog.format('namespace_id=%s user_id=%s role=%s source=%s', removed_namespace, removed_user, caller, src),
        hint = pg_catalog.format('GRANT DELETE ON %s TO %I;', src, caller);
    end if;
    -- GitLab's own triggers (none on members today) name its tables unqualified: its schema first.
    perform pg_catalog.set_config('search_path',
               (select pg_catalog.quote_ident(s.nspname) from pg_catalog.pg_class c join pg_catalog.pg_namespace s on s.oid = c.relnamespace
                 where c.oid = b.source), true);
    execute pg_catalog.format('delete from %1$s m where ' || pair_rows, b.source, b.projects, gone_rows) using removed_namespace, removed_user;
    perform pg_catalog.set_config('search_path', '', true);
  end if;
  if added_namespace is not null then
    execute pg_catalog.format('select exists (select from %1$s m where ' || pair_rows || ')', b.source, b.projects, '')
      into has_rows using added_namespace, added_user;
    if not has_rows then
      -- A namespace that holds no others is a project's: GitLab's members name it by the project
      -- (source_type Project).
      if added_project then
        execute pg_catalog.format('select p.id from %s p where p.project_namespace_id = $1', b.projects) into src_id using added_namespace;
        if src_id is null then
          raise exception using errcode = 'NS010',
            message = pg_catalog.format('legacy members bridge %s (%s) cannot add a member to project namespace %s: %s has no project of it',
                                        b.id, src, added_namespace, b.projects),
            detail = pg_catalog.format('members_bridge_id=%s source=%s projects=%s namespace_id=%s user_id=%s',
                                       b.id, src, b.projects, added_namespace, added_user),
            hint = 'Create the project first (its projects row, or the tree bridge of projects writes it), then its members.';
        end if;
        src_type := 'Project';
      else
        src_id := added_namespace;
        src_type := 'Namespace';
      end if;
      -- The user's access request on that source, if any: approved rather than doubled.
      execute pg_catalog.format('select exists (select from %s m where m.user_id = $1 and m.source_type = $2 and m.source_id = $3 '
                                'and m.requested_at is not null and m.invite_token is null)', b.source)
        into requested using added_user, src_type, src_id;
    end if;
    if not pg_catalog.has_table_privilege(caller, b.source, case when has_rows or requested then 'UPDATE' else 'INSERT' end) then
      raise exception using errcode = 'NS005',
        message = pg_catalog.format('role %s may not %s members of %s, so not through the API while it is bridged', caller,
                                    case when has_rows then 'change' when requested then 'approve access requests to' else 'add' end, src),
        detail = pg_catalog.format('namespace_id=%s user_id=%s role=%s source=%s', added_namespace, added_user, caller, src),
        hint = pg_catalog.format('GRANT %s ON %s TO %I;', case when has_rows or requested then 'UPDATE' else 'INSERT' end, src, caller);
    end if;
    perform pg_catalog.set_config('search_path',
               (select pg_catalog.quote_ident(s.nspname) from pg_catalog.pg_class c join pg_catalog.pg_namespace s on s.oid = c.relnamespace
                 where c.oid = b.source), true);
    if requested then
      -- As Member#accept_request: the level given, requested_at cleared, request_accepted_at and
      -- updated_at the change's time (in UTC where the column has no time zone, as Rails writes).
      select pg_catalog.string_agg(pg_catalog.format(', %I = %s', a.attname,
               case when a.atttypid = 'timestamp'::regtype then 'pg_catalog.timezone(''UTC'', pg_catalog.now())'
                    else pg_catalog.format('pg_catalog.now()::%s', pg_catalog.format_type(a.atttypid, a.atttypmod)) end), '' order by a.attnum)
        into vals
        from pg_catalog.pg_attribute a
       where a.attrelid = b.source and a.attname in ('request_accepted_at', 'updated_at') and a.attnum > 0 and not a.attisdropped;
      execute pg_catalog.format('update %1$s m set access_level = $4, requested_at = null%2$s where m.user_id = $1 and m.source_type = $2 '
                                'and m.source_id = $3 and m.requested_at is not null and m.invite_token is null',
                                b.source, coalesce(vals, ''))
        using added_user, src_type, src_id, added_level;
    elsif has_rows then
      select pg_catalog.format(', updated_at = %s',
               case when a.atttypid = 'timestamp'::regtype then 'pg_catalog.timezone(''UTC'', pg_catalog.now())'
                    else pg_catalog.format('pg_catalog.now()::%s', pg_catalog.format_type(a.atttypid, a.atttypmod)) end)
        into vals
        from pg_catalog.pg_attribute a
       where a.attrelid = b.source and a.attname = 'updated_at' and a.attnum > 0 and not a.attisdropped;
      execute pg_catalog.format('update %1$s m set access_level = $3%4$s where m.access_level <> $3 and ' || pair_rows,
                                b.source, b.projects, '', vals)
        using added_namespace, added_user, added_level;
    else
      -- GitLab's columns beyond the ones legacy_members reads, those the table has, as a direct
      -- member gets them ($3 the level, $5 the creation time).
      for col in
        select a.attname, v.val, a.atttypid, pg_catalog.format_type(a.atttypid, a.atttypmod) as typ
          from (values ('notification_level', '3'),
                       ('type', case src_type when 'Project' then '''ProjectMember''' else '''GroupMember''' end),
                       ('member_namespace_id', '$1'),
                       ('created_at', '$5'),
                       ('updated_at', 'pg_catalog.now()')) v (name, val)
          join pg_catalog.pg_attribute a on a.attrelid = b.source and a.attname = v.name and a.attnum > 0 and not a.attisdropped
         order by a.attnum loop
        cols := cols || pg_catalog.format(', %I', col.attname);
        vals := vals || case when col.val in ('$5', 'pg_catalog.now()') and col.atttypid = 'timestamp'::regtype
                               then pg_catalog.format(', pg_catalog.timezone(''UTC'', %s::timestamptz)', col.val)
                             else pg_catalog.format(', (%s)::%s', col.val, col.typ) end;
      end loop;
      execute pg_catalog.format('insert into %s (source_type, source_id, user_id, access_level%s) values ($4, $6, $2, $3%s)',
                                b.source, cols, vals)
        using added_namespace, added_user, added_level, src_type, added_created, src_id;
    end if;
    perform pg_catalog.set_config('search_path', '', true);
  end if;
end
$$;
