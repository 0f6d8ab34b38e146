-- lifecycle.namespace_members -> GitLab's members (docs/adoption.md, Memberships in step), in the
-- same transaction: a membership the application adds, changes or removes through the product
-- (a write of namespace_members by lifecycle_app, not one the members bridge carried in) is
-- written to the bridged members table, so that lifecycle.legacy_members (the one definition of a
-- membership) says of the pair what namespace_members says. A new pair becomes one row as GitLab's
-- Members::CreatorService writes a direct member: source_type Namespace and source_id the
-- namespace for every namespace but a project's, Project and the project's id
-- (projects.project_namespace_id) for a project's namespace; a pair GitLab has rows of already has
-- those rows' levels set; a removal deletes the pair's membership rows (access requests and
-- pending invitations are no memberships and stay). A new pair whose user asked for access to the
-- same source (a row with requested_at) approves that request, as GitLab's
-- Members::CreatorService does with the row it finds among members_and_requesters
-- (Members::ApproveAccessRequestService, Member#accept_request: the row takes the level,
-- requested_at is cleared, request_accepted_at set), instead of adding a second row of the user
-- on the source, which GitLab's uniqueness of user_id per source (a validation of Member, no index)
-- never lets it have. created_by_id stays as it was: a membership names no actor.
-- A membership of a namespace no row of members can name (neither a project's nor of one of the
-- bridge's namespace_types: an organization, which GitLab keeps apart from its namespaces, or a
-- user's personal namespace, whose owner is no member) is refused (NS010) while the bridge is
-- installed: written back, it would be a GroupMember of something that is no Group, which GitLab
-- never reads as a membership; kept only here, it would give authority (inherited down the tree,
-- namespace_access_level) that GitLab never gives. Removing one is not refused
-- (legacy_members_statement says why the check reports those the lifecycle has). Each statement
-- touches only rows that disagree. The membership a hard delete of its namespace ends takes GitLab's rows with it, as the
-- tree bridge takes the namespace's row (GitLab's foreign keys would): no NS005 then, the deletion
-- was authorised as such.
--
-- GitLab's columns the bridge maps get what GitLab writes for a direct member (read from
-- app/models/member.rb and its subclasses): notification_level 3 (NotificationSetting's :global,
-- Member's default_value_for), type GroupMember or ProjectMember (its STI class), member_namespace_id
-- the namespace (Member#set_member_namespace_id: a group's id, a project's project_namespace_id),
-- created_at the membership's, updated_at the change's; timestamps without time zone in UTC, as
-- Rails writes them. created_by_id stays null (a membership names no actor); the other columns
-- take their defaults (state 0 active, ldap and override false).
--
-- The write has the writer's authority, no more: the calling role must be allowed the same write
-- of GitLab's table (INSERT to add, UPDATE to change or to approve a request, DELETE to remove),
-- else NS005. An error of
-- the writing (a column altered or dropped, a constraint or trigger of GitLab's table, a project
-- namespace with no projects row) is NS010 naming the bridge and its repair; never a raw SQLSTATE.
-- A write the rules refuse never gets here: namespace_members' own triggers refuse it first.
-- The flags keep the two directions apart, no loops: legacy_members_writing (raised here) makes
-- legacy_members_source carry nothing back; legacy_members_carrying (raised there) and
-- importing (the import's, a move's) make this carry nothing. Created on namespace_members by
-- lifecycle.legacy_members_bridge_add, dropped with the bridge; runs as the schema's owner.
create or replace function lifecycle.legacy_members_state()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  b lifecycle.legacy_members_bridges;
  caller name := coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user)::name;
  src text;
  raised boolean;
  ns_type text;
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
  gone boolean;
  gone_rows text := '';
  failure text;
  failure_state text;
begin
  if tg_op = 'UPDATE' and new.namespace_id = old.namespace_id and new.user_id = old.user_id and new.access_level = old.access_level then
    return null;
  end if;
  if lifecycle.transaction_flag_raised('legacy_members_carrying') or lifecycle.transaction_flag_raised('importing') then
    return null;
  end if;
  select * into b from lifecycle.legacy_members_bridges x order by x.id limit 1;
  if not found then
    return null;
  end if;
  src := b.source::text;
  if tg_op <> 'DELETE' then
    select n.type into ns_type from lifecycle.namespaces n where n.id = new.namespace_id;
    if lifecycle.namespace_type_can_be_parent(ns_type) and not ns_type = any (b.namespace_types) then
      raise exception using errcode = 'NS010',
        message = pg_catalog.format('%s is a namespace of type %s: GitLab''s members cannot name it, so no membership of it while %s is bridged',
                                    lifecycle.namespace_full_path(new.namespace_id), ns_type, src),
        detail = pg_catalog.format('members_bridge_id=%s source=%s namespace_id=%s type=%s user_id=%s namespace_types=%s', b.id, src,
                                   new.namespace_id, ns_type, new.user_id, b.namespace_types),
        hint = pg_catalog.format('Members of %s name only namespaces of type %s and projects'' namespaces: make the user a member '
                                 'of its groups or projects, or end the members bridge after cutover: lifecycle.legacy_members_bridge_drop.',
                                 src, pg_catalog.array_to_string(b.namespace_types, ', '));
    end if;
  end if;
  raised := lifecycle.transaction_flag_raise('legacy_members_writing');
  begin
    if tg_op = 'DELETE' or tg_op = 'UPDATE' and (new.namespace_id <> old.namespace_id or new.user_id <> old.user_id) then
      -- A membership its namespace's hard delete ends was authorised as that deletion; a project's
      -- rows are found by their member_namespace_id then, its projects row may have gone first.
      gone := not exists (select from lifecycle.namespaces n where n.id = old.namespace_id);
      if gone and exists (select from pg_catalog.pg_attribute a where a.attrelid = b.source and a.attname = 'member_namespace_id'
                                                                and a.attnum > 0 and not a.attisdropped) then
        gone_rows := ' or m.source_type = ''Project'' and m.member_namespace_id = $1';
      end if;
      if not gone and not pg_catalog.has_table_privilege(caller, b.source, 'DELETE') then
        raise exception using errcode = 'NS005', message = pg_catalog.format('role %s may not remove members of %s, so not through the API while it is bridged', caller, src),
          detail = pg_catalog.format('namespace_id=%s user_id=%s role=%s source=%s', old.namespace_id, old.user_id, caller, src),
          hint = pg_catalog.format('GRANT DELETE ON %s TO %I;', src, caller);
      end if;
      -- GitLab's own triggers (none on members today) name its tables unqualified: its schema first.
      perform pg_catalog.set_config('search_path',
                 (select pg_catalog.quote_ident(s.nspname) from pg_catalog.pg_class c join pg_catalog.pg_namespace s on s.oid = c.relnamespace
                   where c.oid = b.source), true);
      execute pg_catalog.format('delete from %1$s m where ' || pair_rows, b.source, b.projects, gone_rows) using old.namespace_id, old.user_id;
      perform pg_catalog.set_config('search_path', '', true);
    end if;
    if tg_op <> 'DELETE' then
      execute pg_catalog.format('select exists (select from %1$s m where ' || pair_rows || ')', b.source, b.projects, '')
        into has_rows using new.namespace_id, new.user_id;
      if not has_rows then
        -- A namespace that holds no others is a project's: GitLab's members name it by the project
        -- (source_type Project).
        if not lifecycle.namespace_type_can_be_parent(ns_type) then
          execute pg_catalog.format('select p.id from %s p where p.project_namespace_id = $1', b.projects) into src_id using new.namespace_id;
          if src_id is null then
            raise exception using errcode = 'NS010',
              message = pg_catalog.format('legacy members bridge %s (%s) cannot add a member to project namespace %s: %s has no project of it',
                                          b.id, src, new.namespace_id, b.projects),
              detail = pg_catalog.format('members_bridge_id=%s source=%s projects=%s namespace_id=%s user_id=%s',
                                         b.id, src, b.projects, new.namespace_id, new.user_id),
              hint = 'Create the project first (its projects row, or the tree bridge of projects writes it), then its members.';
          end if;
          src_type := 'Project';
        else
          src_id := new.namespace_id;
          src_type := 'Namespace';
        end if;
        -- The user's access request on that source, if any: approved rather than doubled.
        execute pg_catalog.format('select exists (select from %s m where m.user_id = $1 and m.source_type = $2 and m.source_id = $3 '
                                  'and m.requested_at is not null and m.invite_token is null)', b.source)
          into requested using new.user_id, src_type, src_id;
      end if;
      if not pg_catalog.has_table_privilege(caller, b.source, case when has_rows or requested then 'UPDATE' else 'INSERT' end) then
        raise exception using errcode = 'NS005',
          message = pg_catalog.format('role %s may not %s members of %s, so not through the API while it is bridged', caller,
                                      case when has_rows then 'change' when requested then 'approve access requests to' else 'add' end, src),
          detail = pg_catalog.format('namespace_id=%s user_id=%s role=%s source=%s', new.namespace_id, new.user_id, caller, src),
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
          using new.user_id, src_type, src_id, new.access_level;
      elsif has_rows then
        select pg_catalog.format(', updated_at = %s',
                 case when a.atttypid = 'timestamp'::regtype then 'pg_catalog.timezone(''UTC'', pg_catalog.now())'
                      else pg_catalog.format('pg_catalog.now()::%s', pg_catalog.format_type(a.atttypid, a.atttypmod)) end)
          into vals
          from pg_catalog.pg_attribute a
         where a.attrelid = b.source and a.attname = 'updated_at' and a.attnum > 0 and not a.attisdropped;
        execute pg_catalog.format('update %1$s m set access_level = $3%4$s where m.access_level <> $3 and ' || pair_rows,
                                  b.source, b.projects, '', vals)
          using new.namespace_id, new.user_id, new.access_level;
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
          using new.namespace_id, new.user_id, new.access_level, src_type, new.created_at, src_id;
      end if;
      perform pg_catalog.set_config('search_path', '', true);
    end if;
  exception
    when data_exception or integrity_constraint_violation or syntax_error_or_access_rule_violation or undefined_column then
      get stacked diagnostics failure = message_text, failure_state = returned_sqlstate;
      raise exception using errcode = 'NS010',
        message = pg_catalog.format('legacy members bridge %s (%s) cannot write the membership back: %s (%s)', b.id, src, failure, failure_state),
        detail = pg_catalog.format('members_bridge_id=%s source=%s projects=%s namespace_id=%s user_id=%s', b.id, src, b.projects,
                                   coalesce(new.namespace_id, old.namespace_id), coalesce(new.user_id, old.user_id)),
        hint = pg_catalog.format('Restore GitLab''s columns of %s and %s, grant the schema''s owner their writes, or end the bridge: '
                                 'select lifecycle.legacy_members_bridge_drop(%L::regclass);', src, b.projects, src);
  end;
  if raised then
    perform lifecycle.transaction_flag_lower('legacy_members_writing');
  end if;
  return null;
end
$$;
