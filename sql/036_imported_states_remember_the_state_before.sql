-- An imported or backfilled state leaves previous_state where the API's calls leave it: the state
-- the way from active passes last (deletion_scheduled before deletion_in_progress, the preserved
-- state before another temporary one), not active (issue 27, point 2: found by
-- tests/verdicts, which puts the same rows through INSERT and the state API and through the
-- import). deletion_failed returns to previous_state: an imported or backfilled
-- deletion_in_progress whose hard delete failed went back to active, ending the deletion (and
-- dropping the archived state it preserved), where one the API started is requeued as
-- deletion_scheduled. Rows imported or backfilled before keep what they have.

{{ template "snapshots/036/namespace_import_batch.sql" . }}
{{ template "snapshots/036/legacy_bridge_backfill.sql" . }}

---- create above / drop below ----

{{ template "snapshots/032/namespace_import_batch.sql" . }}
-- 033's version says create, not create or replace: replaced in place (its grants stay).
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/033/legacy_bridge_backfill.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
