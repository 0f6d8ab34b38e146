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
-- lifecycle.legacy_members_bridge_add, dropped with the bridge; runs as the schema's owner, and
-- writes GitLab's table through legacy_members_write, which runs as lifecycle_bridge: a trigger
-- GitLab's role puts on members runs with no more rights than that role.
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
  removing boolean := tg_op = 'DELETE' or tg_op = 'UPDATE' and (new.namespace_id <> old.namespace_id or new.user_id <> old.user_id);
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
    -- The writes run as lifecycle_bridge (legacy_members_write), and so does what the application's
    -- table fires: the writer is checked before the call and after it (legacy_writer_check says why).
    perform lifecycle.legacy_writer_check('lifecycle.legacy_members_write'::regproc);
    perform lifecycle.legacy_members_write(b, caller,
      case when removing then old.namespace_id end, case when removing then old.user_id end,
      removing and not exists (select from lifecycle.namespaces n where n.id = old.namespace_id),
      case when tg_op <> 'DELETE' then new.namespace_id end, case when tg_op <> 'DELETE' then new.user_id end,
      case when tg_op <> 'DELETE' then new.access_level end, case when tg_op <> 'DELETE' then new.created_at end,
      tg_op <> 'DELETE' and not lifecycle.namespace_type_can_be_parent(ns_type));
    perform lifecycle.legacy_writer_check('lifecycle.legacy_members_write'::regproc);
  exception
    when data_exception or integrity_constraint_violation or syntax_error_or_access_rule_violation or undefined_column then
      get stacked diagnostics failure = message_text, failure_state = returned_sqlstate;
      raise exception using errcode = 'NS010',
        message = pg_catalog.format('legacy members bridge %s (%s) cannot write the membership back: %s (%s)', b.id, src, failure, failure_state),
        detail = pg_catalog.format('members_bridge_id=%s source=%s projects=%s namespace_id=%s user_id=%s', b.id, src, b.projects,
                                   coalesce(new.namespace_id, old.namespace_id), coalesce(new.user_id, old.user_id)),
        hint = pg_catalog.format('Restore GitLab''s columns of %s and %s, give lifecycle_bridge (the role the write-back runs as) '
                                 'SELECT, INSERT, UPDATE, DELETE on the first and SELECT on the second, or end the bridge: '
                                 'select lifecycle.legacy_members_bridge_drop(%L::regclass);', src, b.projects, src);
  end;
  if raised then
    perform lifecycle.transaction_flag_lower('legacy_members_writing');
  end if;
  return null;
end
$$;
