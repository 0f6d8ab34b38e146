-- Memberships are written by the application role directly: a missing namespace is refused with
-- NS004 and an access level outside GitLab's five with NS010, instead of a raw foreign-key or
-- check violation. The namespace row is locked FOR KEY SHARE, as the foreign key's own check
-- would: a hard delete that removes it meanwhile is waited for, and then the membership is refused
-- with NS004 rather than 23503.
create or replace function lifecycle.namespace_members_validate()
returns trigger
language plpgsql
-- Definer: FOR KEY SHARE needs a privilege the application role does not have.
security definer
set search_path to ''
as $$
begin
  if new.access_level is null or new.access_level not in (10, 20, 30, 40, 50) then
    raise exception using errcode = 'NS010', message = pg_catalog.format('invalid access level %s', coalesce(new.access_level::text, 'null')),
      detail = pg_catalog.format('namespace_id=%s user_id=%s access_level=%s', new.namespace_id, new.user_id, new.access_level),
      hint = 'Use a GitLab access level: 10 guest, 20 reporter, 30 developer, 40 maintainer, 50 owner.';
  end if;
  if new.user_id is null then
    raise exception using errcode = 'NS010', message = 'user_id is required',
      detail = pg_catalog.format('namespace_id=%s', new.namespace_id), hint = 'Pass the member''s user id.';
  end if;
  if tg_op = 'INSERT' or new.namespace_id is distinct from old.namespace_id then
    perform 1 from lifecycle.namespaces n where n.id = new.namespace_id for key share;
    if not found then
      raise exception using errcode = 'NS004', message = 'namespace not found',
        detail = pg_catalog.format('namespace_id=%s', new.namespace_id),
        hint = 'Check the id; a hard-deleted namespace is gone for good.';
    end if;
  end if;
  return new;
end
$$;

create or replace trigger namespace_members_validate
  before insert or update on lifecycle.namespace_members
  for each row execute function lifecycle.namespace_members_validate();
