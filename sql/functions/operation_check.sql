-- Raises what refuses actor_id the operation on a namespace: the level lifecycle.operation_policies
-- sets for it (actor_refusal, NS005), and, when the operation needs the namespace writable, a
-- read-only state on it or an ancestor (read_only_refusal, NS001/NS002). Rename and visibility
-- changes ask it before they write.
create or replace function lifecycle.operation_check(ns lifecycle.namespaces, actor_id bigint, operation text, action text,
                                          needs_writable boolean)
returns void
language plpgsql
set search_path to ''
as $$
declare
  refusal record;
begin
  select * into refusal
    from lifecycle.actor_refusal(ns.id, ns.traversal_ids, actor_id,
           (select p.min_access_level from lifecycle.operation_policies p where p.operation = operation_check.operation),
           action || ' this namespace');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  if needs_writable then
    select * into refusal from lifecycle.read_only_refusal(ns.id, action);
    if found then
      raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
    end if;
  end if;
end
$$;
