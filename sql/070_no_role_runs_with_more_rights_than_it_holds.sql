-- No trigger, default, policy or operator the application's role puts on its own tables runs with
-- more rights than that role. The bridges' write-backs (legacy_bridge_write, legacy_tree_write, the
-- members trigger's writes, now legacy_members_write, and the deletion of a namespace's rows in the
-- state bridges' tables, now legacy_rows_delete) ran as the schema's owner, SECURITY DEFINER: a
-- trigger GitLab's role created on projects (or members) ran as that owner when the API archived a
-- project (or added a member), and made GitLab's role a superuser. The writers now belong to
-- lifecycle_bridge, a role holding the bridged tables' writes and nothing else; the bridges' triggers
-- check each writer before and after the call (legacy_writer_check), so code that runs as
-- lifecycle_bridge cannot make a writer run as its caller. The bridges' add functions grant
-- lifecycle_bridge what it writes (legacy_writer_grant), and so does this migration for the bridges
-- installed already (a warning names the GRANT where the owner may not give it). The functions
-- that read those tables as the owner run with row_security off: a policy GitLab's role put on its
-- table would have run with the owner's rights; such a read is refused (42501) instead.
{{ template "roles.sql" . }}
{{ template "functions/legacy_writer_check.sql" . }}
{{ template "functions/legacy_writer_grant.sql" . }}
{{ template "functions/legacy_rows_delete.sql" . }}
{{ template "functions/legacy_members_write.sql" . }}
{{ template "functions/legacy_bridge_write.sql" . }}
{{ template "functions/legacy_tree_write.sql" . }}
{{ template "functions/legacy_bridge_sync.sql" . }}
{{ template "functions/legacy_bridge_add.sql" . }}
{{ template "functions/legacy_tree_bridge_add.sql" . }}
{{ template "functions/legacy_members_bridge_add.sql" . }}
{{ template "triggers/legacy_members_state.sql" . }}
{{ template "triggers/legacy_tree_state.sql" . }}
-- The functions that read the application's tables as the schema's owner refuse a read a policy
-- of the application's role would filter, rather than run the policy with the owner's rights.
{{ template "functions/legacy_bridge_check.sql" . }}
{{ template "functions/legacy_bridge_holds.sql" . }}
{{ template "functions/legacy_bridge_lock.sql" . }}
{{ template "functions/legacy_bridge_rows.sql" . }}
{{ template "functions/legacy_bridge_usable.sql" . }}
{{ template "functions/legacy_members.sql" . }}
{{ template "functions/legacy_members_check.sql" . }}
{{ template "functions/legacy_tree_holds.sql" . }}
revoke all on function
  lifecycle.legacy_members_write(lifecycle.legacy_members_bridges,name,bigint,bigint,boolean,bigint,bigint,smallint,timestamp with time zone,boolean),
  lifecycle.legacy_rows_delete(regclass,name,bigint),
  lifecycle.legacy_writer_check(regproc),
  lifecycle.legacy_writer_grant(regclass,boolean,name)
  from public;
-- lifecycle_bridge owns the bridges' writers, which write the application's tables: what the
-- application's role puts on those tables (triggers, defaults, policies, operators in its schema)
-- runs as this role, with nothing the application's role does not hold itself. It holds the
-- bridged tables' writes (granted by the add functions, legacy_writer_grant) and, here, what the
-- writers read and call of the lifecycle: a rules table or two and pure helpers. It may create
-- nothing in the schema: CREATE is held only while the writers are handed over.
grant usage on schema lifecycle to lifecycle_bridge;
grant execute on function
  lifecycle.legacy_bridge_column(regclass,smallint),
  lifecycle.legacy_bridge_refuse(lifecycle.legacy_bridges,text,bigint),
  lifecycle.legacy_path_matches(text,text,bigint),
  lifecycle.legacy_path_suffixed(text,bigint),
  lifecycle.path_normalised(text),
  lifecycle.state_name(smallint)
  to lifecycle_bridge;
grant select on table
  lifecycle.states,
  lifecycle.visibility_levels
  to lifecycle_bridge;
grant create on schema lifecycle to lifecycle_bridge;
alter function lifecycle.legacy_bridge_write(lifecycle.legacy_bridges,bigint,boolean,timestamp with time zone,bigint) owner to lifecycle_bridge;
alter function lifecycle.legacy_members_write(lifecycle.legacy_members_bridges,name,bigint,bigint,boolean,bigint,bigint,smallint,timestamp with time zone,boolean)
  owner to lifecycle_bridge;
alter function lifecycle.legacy_rows_delete(regclass,name,bigint) owner to lifecycle_bridge;
alter function lifecycle.legacy_tree_write(lifecycle.legacy_tree_bridges,text,bigint,bigint,text,text,text,text) owner to lifecycle_bridge;
revoke create on schema lifecycle from lifecycle_bridge;
-- The schema's owner calls them (the bridges' triggers): EXECUTE given back to it, as their owner
-- now is another role.
grant execute on function
  lifecycle.legacy_bridge_write(lifecycle.legacy_bridges,bigint,boolean,timestamp with time zone,bigint),
  lifecycle.legacy_members_write(lifecycle.legacy_members_bridges,name,bigint,bigint,boolean,bigint,bigint,smallint,timestamp with time zone,boolean),
  lifecycle.legacy_rows_delete(regclass,name,bigint),
  lifecycle.legacy_tree_write(lifecycle.legacy_tree_bridges,text,bigint,bigint,text,text,text,text)
  to current_user;
-- The bridges installed already: lifecycle_bridge is given what their write-backs write.
do $grants$
declare
  t record;
  refusal text;
  repair text;
begin
  for t in select b.source, true as writes, null::name as id_column from lifecycle.legacy_bridges b
           union all
           select b.source, true, a.attname from lifecycle.legacy_tree_bridges b
             join pg_catalog.pg_attribute a on a.attrelid = b.source and a.attnum = b.id_attnum and not a.attisdropped
           union all
           select b.source, true, null from lifecycle.legacy_members_bridges b
           union all
           select b.projects, false, null from lifecycle.legacy_members_bridges b loop
    begin
      perform lifecycle.legacy_writer_grant(t.source, t.writes, t.id_column);
    exception when sqlstate 'NS005' then
      get stacked diagnostics refusal = message_text, repair = pg_exception_hint;
      raise warning using message = refusal || ': the bridges'' write-backs of it fail (NS010) until it is granted', hint = repair;
    end;
  end loop;
end
$grants$;

---- create above / drop below ----

alter function lifecycle.legacy_bridge_write(lifecycle.legacy_bridges,bigint,boolean,timestamp with time zone,bigint) owner to current_user;
alter function lifecycle.legacy_tree_write(lifecycle.legacy_tree_bridges,text,bigint,bigint,text,text,text,text) owner to current_user;
{{ template "released/1.0.0/functions/legacy_bridge_write.sql" . }}
{{ template "released/1.0.0/functions/legacy_tree_write.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_sync.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_add.sql" . }}
{{ template "released/1.0.0/functions/legacy_tree_bridge_add.sql" . }}
{{ template "released/1.0.0/functions/legacy_members_bridge_add.sql" . }}
{{ template "released/1.0.0/triggers/legacy_members_state.sql" . }}
{{ template "released/1.0.0/triggers/legacy_tree_state.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_check.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_holds.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_lock.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_rows.sql" . }}
{{ template "released/1.0.0/functions/legacy_bridge_usable.sql" . }}
{{ template "released/1.0.0/functions/legacy_members.sql" . }}
{{ template "released/1.0.0/functions/legacy_members_check.sql" . }}
{{ template "released/1.0.0/functions/legacy_tree_holds.sql" . }}
drop function lifecycle.legacy_members_write(lifecycle.legacy_members_bridges,name,bigint,bigint,boolean,bigint,bigint,smallint,timestamp with time zone,boolean);
drop function lifecycle.legacy_rows_delete(regclass,name,bigint);
drop function lifecycle.legacy_writer_check(regproc);
drop function lifecycle.legacy_writer_grant(regclass,boolean,name);
revoke select on table lifecycle.states, lifecycle.visibility_levels from lifecycle_bridge;
revoke execute on function
  lifecycle.legacy_bridge_column(regclass,smallint),
  lifecycle.legacy_bridge_refuse(lifecycle.legacy_bridges,text,bigint),
  lifecycle.legacy_path_matches(text,text,bigint),
  lifecycle.legacy_path_suffixed(text,bigint),
  lifecycle.path_normalised(text),
  lifecycle.state_name(smallint)
  from lifecycle_bridge;
revoke usage on schema lifecycle from lifecycle_bridge;
-- The role, its membership and its grants on the application's tables stay: roles are
-- cluster-wide and never dropped (sql/roles.sql).
