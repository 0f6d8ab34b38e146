-- The last state codes and type names written in live SQL become rows and predicates (issue 27,
-- point 1; sql/literals_test.go's pendingLiterals is empty):
--   * lifecycle.states.permanent is asked through a new named predicate, state_permanent(code),
--     which states_digest_write now writes with the others;
--   * what a legacy bridge of each state does is the new rules table legacy_bridge_states: which
--     states may be bridged (legacy_bridge_add asked a CASE), which wins when several hold for one
--     namespace (rank: the backfill's order), and the event a legacy "off" takes (way_back:
--     legacy_bridge_apply's CASE);
--   * legacy_bridge_says, legacy_bridge_apply, legacy_bridge_backfill, namespace_import_batch and
--     organization_move_in ask the predicates and these rows instead of codes and type names.
-- What each does is unchanged (tests/legacy_bridge*/, tests/namespace_import/, tests/verdicts,
-- tests/organization_move_in/).
--
-- Locks: the new table's foreign keys take SHARE ROW EXCLUSIVE on lifecycle.states and
-- lifecycle.events, which no client writes and which readers (the gate's ACCESS SHARE, a foreign
-- key check's ROW SHARE) pass.

{{ template "functions/states_digest_write.sql" . }}
select lifecycle.states_digest_write();

create table lifecycle.legacy_bridge_states (
  state smallint primary key references lifecycle.states (code),
  rank smallint not null unique,
  way_back text not null references lifecycle.events (name)
);
comment on table lifecycle.legacy_bridge_states is
  'The states a legacy bridge may carry (lifecycle.legacy_bridge_add), and how: the one a namespace gets when several hold, the event the legacy data turned off takes.';
comment on column lifecycle.legacy_bridge_states.rank is
  'When the legacy data of several bridged states holds for one namespace, the backfill gives it the highest; a permanent one below it is the state a restore returns to.';
comment on column lifecycle.legacy_bridge_states.way_back is
  'The event a namespace in the state takes when its legacy data stops saying so (legacy_bridge_apply).';
grant select on lifecycle.legacy_bridge_states to lifecycle_app, lifecycle_worker;
-- The seed rows: deletion_in_progress over deletion_scheduled over maintenance over archived.
insert into lifecycle.legacy_bridge_states (state, rank, way_back) values
  (1, 1, 'unarchive'),
  (6, 2, 'unmaintain'),
  (2, 3, 'restore'),
  (4, 4, 'deletion_failed');

{{ template "functions/legacy_bridge_says.sql" . }}
{{ template "functions/legacy_bridge_apply.sql" . }}
{{ template "functions/legacy_bridge_add.sql" . }}
{{ template "functions/legacy_bridge_backfill.sql" . }}
{{ template "snapshots/050/namespace_import_batch.sql" . }}
{{ template "snapshots/050/organization_move_in.sql" . }}

---- create above / drop below ----

{{ template "snapshots/045/organization_move_in.sql" . }}
{{ template "snapshots/043/namespace_import_batch.sql" . }}
{{ template "snapshots/043/legacy_bridge_backfill.sql" . }}
{{ template "snapshots/045/legacy_bridge_add.sql" . }}
{{ template "snapshots/037/legacy_bridge_apply.sql" . }}
-- 014's version says create, not create or replace: replaced in place (its grants stay).
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_says.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
drop table lifecycle.legacy_bridge_states;
{{ template "snapshots/045/states_digest_write.sql" . }}
drop function lifecycle.state_permanent(smallint);
