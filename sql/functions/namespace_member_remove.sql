-- Remove a user's membership of a namespace; true when there was one. The application's way to
-- remove a membership: a table-level DELETE privilege on lifecycle.namespace_members would also let
-- its role LOCK TABLE it (ACCESS EXCLUSIVE), and every state change reads that table for its actor's
-- access level, in every organization. The row's triggers judge and record the removal as they
-- judge any (NS011 while the organization moves, the fact member_removed, the members bridge's
-- write-back to GitLab's table). Definer: it deletes the row, which no client role may.
create or replace function lifecycle.namespace_member_remove(namespace_id bigint, user_id bigint)
returns boolean
language plpgsql
security definer
set search_path to ''
as $$
#variable_conflict use_variable
begin
  if namespace_id is null or user_id is null then
    raise exception using errcode = 'NS010', message = 'namespace_id and user_id are required',
      hint = 'Pass the namespace and the user whose membership to remove.';
  end if;
  delete from lifecycle.namespace_members m where m.namespace_id = namespace_id and m.user_id = user_id;
  return found;
end
$$;

comment on function lifecycle.namespace_member_remove(bigint, bigint) is
  'Remove a membership; true when there was one. Errors: NS010 NS011.';
