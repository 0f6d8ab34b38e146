-- Issue 23, hardening round 2: what the import takes as an id, what it reads between its calls,
-- and the characters a name or path may hold.
--
-- Ids. The import took any bigint. 0 is the "no parent" key of sibling paths
-- (coalesce(parent_id, 0): namespaces_live_path_key, namespace_lock_sibling_path, the path
-- triggers, namespace_resolve, check_invariants), so the children of a namespace 0 shared the
-- roots' paths; 2^63 - 1 moved the identity sequence to its end (every later INSERT failed, 2200H)
-- and overflowed the guards' subtree bound (last id + 1, 22003). The import now refuses, per row
-- (NS010), ids outside 1 to 2^62 - 1, so the sequence it moves leaves the application 2^62 ids;
-- and a constraint keeps every namespace's id in 1 to 2^63 - 2 whoever writes it (the schema's
-- owner may choose ids), so 0 is never a real id and the "no parent" key needs no other value
-- (changing it would rebuild namespaces_live_path_key), and id + 1 never overflows. Checking it
-- reads the two ends of the primary key while holding the table's lock: a moment.
--
-- The import's progress between its calls (lifecycle.import_cursor, lifecycle.import_left) was in
-- settings, which the calling session could SET to skip rows or to fail with a raw SQLSTATE; it is
-- now a temporary table only the import writes. lifecycle.import_skip_rechecks is read strictly
-- (on or off, else NS010). CALL namespace_import_run(null or 0) is refused before its first commit.
--
-- Names and paths: control and bidirectional formatting characters (U+202E and its kin: "Trojan
-- Source") are refused, NS010, on every write path and in the import (character_refusal).

-- Checked once, then added NOT VALID: the rows were just read to be in range and none could be
-- written since, and the constraint's own validation would read them all under ACCESS EXCLUSIVE.
-- The lock is the ACCESS EXCLUSIVE that adding the constraint takes anyway, taken first and held
-- for milliseconds (the check reads the primary key's two ends): a SHARE lock for the check, raised
-- to ACCESS EXCLUSIVE by the ALTER, deadlocked with every writer that had read namespaces before
-- writing it (issue 25: under 4 writers, 10 attempts of 10; the migrator's lock_timeout bounds the
-- wait of the clients queued behind this request).
lock table lifecycle.namespaces in access exclusive mode;
do $$
begin
  if exists (select from lifecycle.namespaces n where n.id < 1 or n.id > 9223372036854775806) then
    raise exception using errcode = 'NS010', message = 'lifecycle.namespaces holds ids outside 1 to 2^63 - 2',
      detail = (select pg_catalog.format('ids=%s', pg_catalog.array_agg(n.id order by n.id))
                  from (select n.id from lifecycle.namespaces n
                         where n.id < 1 or n.id > 9223372036854775806 order by n.id limit 20) n),
      hint = 'Such namespaces were imported before 029: move their subtrees to new ids (or hard-delete them), then migrate again.';
  end if;
end
$$;
alter table lifecycle.namespaces
  add constraint namespaces_id_range check (id between 1 and 9223372036854775806) not valid;
comment on constraint namespaces_id_range on lifecycle.namespaces is
  '0 is the "no parent" key of sibling paths (coalesce(parent_id, 0)); the subtree bound of the guards is the last id + 1.';

{{ template "functions/character_refusal.sql" . }}
{{ template "functions/name_refusal.sql" . }}
{{ template "functions/path_slug_refusal.sql" . }}
{{ template "functions/namespace_import_tables_check.sql" . }}
{{ template "functions/namespace_import_skips_rechecks.sql" . }}
{{ template "functions/namespace_import_prepare.sql" . }}
{{ template "snapshots/029/namespace_import_batch.sql" . }}
{{ template "snapshots/029/namespace_import_finish.sql" . }}
{{ template "functions/namespace_import_run.sql" . }}

revoke all on function
  lifecycle.character_refusal(text, text),
  lifecycle.namespace_import_tables_check(),
  lifecycle.namespace_import_skips_rechecks()
  from public;

---- create above / drop below ----

drop procedure lifecycle.namespace_import_run(int, bigint, bigint);
{{ template "snapshots/013/namespace_import_run.sql" . }}
drop function lifecycle.namespace_import_finish();
{{ template "snapshots/013/namespace_import_finish.sql" . }}
drop function lifecycle.namespace_import_batch(int);
{{ template "snapshots/013/namespace_import_batch.sql" . }}
drop function lifecycle.namespace_import_prepare();
{{ template "snapshots/013/namespace_import_prepare.sql" . }}
revoke all on function
  lifecycle.namespace_import_prepare(),
  lifecycle.namespace_import_batch(int),
  lifecycle.namespace_import_finish()
  from public;
revoke all on procedure lifecycle.namespace_import_run(int, bigint, bigint) from public;
grant execute on function
  lifecycle.namespace_import_prepare(),
  lifecycle.namespace_import_batch(int),
  lifecycle.namespace_import_finish()
  to lifecycle_worker;
grant execute on procedure lifecycle.namespace_import_run(int, bigint, bigint) to lifecycle_worker;
drop function lifecycle.namespace_import_skips_rechecks();
drop function lifecycle.namespace_import_tables_check();
drop function lifecycle.path_slug_refusal(text);
{{ template "snapshots/013/path_slug_refusal.sql" . }}
revoke all on function lifecycle.path_slug_refusal(text) from public;
drop function lifecycle.name_refusal(text);
{{ template "snapshots/011/name_refusal.sql" . }}
revoke all on function lifecycle.name_refusal(text) from public;
drop function lifecycle.character_refusal(text, text);
alter table lifecycle.namespaces drop constraint namespaces_id_range;
