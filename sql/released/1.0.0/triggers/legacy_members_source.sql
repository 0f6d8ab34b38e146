-- GitLab's members -> lifecycle.namespace_members (docs/adoption.md, Memberships), in the same
-- transaction: a row inserted, updated or deleted in the bridged members table. Which memberships
-- the row was and is (its old and new versions, each read on its own by lifecycle.legacy_members,
-- the one definition of a membership) names the pairs of namespace and user it touched; each pair
-- is then brought to what GitLab's table now says of it (legacy_members again, on the table: the
-- higher level of the pair's rows), so an invitation accepted or a request approved becomes a
-- membership, a removal removes it, a level change changes it, and a second row of the pair
-- decides nothing alone. The lifecycle's writes fire its triggers as any write does: validated,
-- audited and notified (member_added, member_changed, member_removed). A pair on a namespace the
-- lifecycle does not have, or at a level it has not, holds nothing (as the import skips it).
--
-- The write has the writer's authority, no more: the calling role must be allowed the same write
-- of lifecycle.namespace_members (lifecycle_app and lifecycle_worker are), else NS005. An error
-- of the carrying (a column of members altered or dropped, a refusal of namespace_members'
-- triggers) is NS010 naming the bridge and its repair, or the refusal's own NS code; never a raw
-- SQLSTATE. A write of members that legacy_members_state makes (the API's changes carried back: the
-- transaction flag legacy_members_writing, which no client can raise) carries nothing, and what
-- this carries is not written back (legacy_members_carrying, raised around its writes): no loops.
-- Created on the table by lifecycle.legacy_members_bridge_add; runs as the schema's owner.
create or replace function lifecycle.legacy_members_source()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  b lifecycle.legacy_members_bridges;
  caller name := coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user)::name;
  pairs bigint[] := '{}'::bigint[];
  pair bigint[];
  touched record;
  want record;
  have lifecycle.namespace_members;
  failure text;
  failure_state text;
  raised boolean;
begin
  if lifecycle.transaction_flag_raised('legacy_members_writing') then
    return null;
  end if;
  select * into b from lifecycle.legacy_members_bridges x where x.source = tg_relid;
  if not found then
    return null;
  end if;
  begin
    -- (old is null for an INSERT, new for a DELETE: an empty row then, which is no membership.)
    for touched in select m.namespace_id, m.user_id
                  from lifecycle.legacy_members(b.source, b.projects, member_row => coalesce(pg_catalog.to_jsonb(old), '{}')) m
                 where tg_op <> 'INSERT'
                union
                select m.namespace_id, m.user_id
                  from lifecycle.legacy_members(b.source, b.projects, member_row => coalesce(pg_catalog.to_jsonb(new), '{}')) m
                 where tg_op <> 'DELETE' loop
      pairs := pairs || array[array[touched.namespace_id, touched.user_id]];
    end loop;
    if pg_catalog.cardinality(pairs) = 0 then
      return null;  -- the row was and is no membership: GitLab's request or invitation, nothing to carry
    end if;
    raised := lifecycle.transaction_flag_raise('legacy_members_carrying');
    foreach pair slice 1 in array pairs loop
      -- Locked: a concurrent carrying of the same pair waits, then sees this one's row.
      select * into have from lifecycle.namespace_members x where x.namespace_id = pair[1] and x.user_id = pair[2] for update;
      select * into want from lifecycle.legacy_members(b.source, b.projects, pair[2], pair[1]) m where m.held;
      if want.namespace_id is not null and have.namespace_id is null then
        if not pg_catalog.has_table_privilege(caller, 'lifecycle.namespace_members', 'INSERT') then
          raise exception using errcode = 'NS005', message = pg_catalog.format('role %s may not add members, through a legacy members bridge neither', caller),
            detail = pg_catalog.format('namespace_id=%s user_id=%s role=%s source=%s', pair[1], pair[2], caller, b.source),
            hint = 'Write as a member of lifecycle_app (or lifecycle_worker).';
        end if;
        insert into lifecycle.namespace_members (namespace_id, user_id, access_level, created_at)
        values (want.namespace_id, want.user_id, want.access_level, want.created_at);
      elsif want.namespace_id is not null and have.access_level <> want.access_level then
        if not pg_catalog.has_column_privilege(caller, 'lifecycle.namespace_members', 'access_level', 'UPDATE') then
          raise exception using errcode = 'NS005', message = pg_catalog.format('role %s may not change members, through a legacy members bridge neither', caller),
            detail = pg_catalog.format('namespace_id=%s user_id=%s role=%s source=%s', pair[1], pair[2], caller, b.source),
            hint = 'Write as a member of lifecycle_app (or lifecycle_worker).';
        end if;
        update lifecycle.namespace_members x set access_level = want.access_level, updated_at = pg_catalog.now()
         where x.namespace_id = pair[1] and x.user_id = pair[2];
      elsif want.namespace_id is null and have.namespace_id is not null then
        if not pg_catalog.has_table_privilege(caller, 'lifecycle.namespace_members', 'DELETE') then
          raise exception using errcode = 'NS005', message = pg_catalog.format('role %s may not remove members, through a legacy members bridge neither', caller),
            detail = pg_catalog.format('namespace_id=%s user_id=%s role=%s source=%s', pair[1], pair[2], caller, b.source),
            hint = 'Write as a member of lifecycle_app (or lifecycle_worker).';
        end if;
        delete from lifecycle.namespace_members x where x.namespace_id = pair[1] and x.user_id = pair[2];
      end if;
    end loop;
    if raised then
      perform lifecycle.transaction_flag_lower('legacy_members_carrying');
    end if;
  exception
    when data_exception or integrity_constraint_violation or syntax_error_or_access_rule_violation then
      get stacked diagnostics failure = message_text, failure_state = returned_sqlstate;
      raise exception using errcode = 'NS010',
        message = pg_catalog.format('legacy members bridge %s (%s) cannot carry the change: %s (%s)', b.id, b.source, failure, failure_state),
        detail = pg_catalog.format('members_bridge_id=%s source=%s projects=%s', b.id, b.source, b.projects),
        hint = pg_catalog.format('Restore GitLab''s columns of %s and %s, or end the bridge: select lifecycle.legacy_members_bridge_drop(%L::regclass);',
                                 b.source, b.projects, b.source);
  end;
  return null;
end
$$;
