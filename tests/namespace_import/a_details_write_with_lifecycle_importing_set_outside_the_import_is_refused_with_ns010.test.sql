-- A details row written while lifecycle.importing is on without the import's flag (a session set
-- the setting itself) is refused with NS010, worded as settings_confirmed words it for
-- lifecycle.namespaces (one function, importing_unconfirmed_refuse), even when the statement sets
-- it itself; with the flag, as the import, the backfill and organization_move_in write them, the
-- row is not walked. Since 058 namespace_details_validate asks this first, the details' one row
-- trigger (no WHEN clause: namespace_details_0_settings_confirmed and the validate trigger's
-- WHEN were read back and prepared by every statement writing the table).
begin;
select plan(7);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
create function pg_temp.error_of(statement text) returns text language plpgsql as $f$
declare
  state text;
  message text;
  detail text;
  hint text;
begin
  execute statement;
  return null;
exception when others then
  get stacked diagnostics state = returned_sqlstate, message = message_text, detail = pg_exception_detail, hint = pg_exception_hint;
  return concat_ws(' | ', state, message, detail, hint);
end $f$;

set local lifecycle.importing = 'on';
select is(pg_temp.error_of(format($$update lifecycle.namespace_details set state_metadata = '{"reason": "x"}' where namespace_id = %s$$,
                                  lifecycle_test.id_of('acme'))),
          'NS010 | lifecycle.importing is set outside the import | table=namespace_details setting=lifecycle.importing | '
          'RESET lifecycle.importing: the import and the legacy backfill set it for their own statements.',
          'an UPDATE of a details row with lifecycle.importing set is NS010, naming the table and the setting');
select is(pg_temp.error_of($$insert into lifecycle.namespace_details (namespace_id, state_metadata) values (-1, '[]')$$),
          'NS010 | lifecycle.importing is set outside the import | table=namespace_details setting=lifecycle.importing | '
          'RESET lifecycle.importing: the import and the legacy backfill set it for their own statements.',
          'an INSERT of one is NS010 as well, before anything else of the row is looked at');
-- The same words as for a namespace (settings_confirmed), but the table.
select is(pg_temp.error_of($$insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'other', 'o')$$),
          'NS010 | lifecycle.importing is set outside the import | table=namespaces setting=lifecycle.importing | '
          'RESET lifecycle.importing: the import and the legacy backfill set it for their own statements.',
          'a namespace written with it set is refused in the same words');
reset lifecycle.importing;
-- Set in the middle of the statement, after it began (by the expression that feeds the UPDATE).
select is(pg_temp.error_of(format($$update lifecycle.namespace_details
                                       set state_metadata = jsonb_build_object('reason', pg_catalog.set_config('lifecycle.importing', 'on', true))
                                     where namespace_id = %s$$, lifecycle_test.id_of('acme'))),
          'NS010 | lifecycle.importing is set outside the import | table=namespace_details setting=lifecycle.importing | '
          'RESET lifecycle.importing: the import and the legacy backfill set it for their own statements.',
          'set by the statement itself, before its row, it is refused as well');
reset lifecycle.importing;

-- With the import's flag the row is the writer's (built from checked values): not walked.
select lifecycle.transaction_flag_raise('importing');
set local lifecycle.importing = 'on';
select lives_ok(format($$update lifecycle.namespace_details set state_metadata = '{"no_such_key": 1}' where namespace_id = %s$$,
                       lifecycle_test.id_of('acme')),
                'with the import''s flag raised, the row goes through unwalked');
reset lifecycle.importing;
select lifecycle.transaction_flag_lower('importing');
-- Without the setting, the same document is walked and refused.
select throws_ok(format($$update lifecycle.namespace_details set state_metadata = '{"no_such_key": 2}' where namespace_id = %s$$,
                        lifecycle_test.id_of('acme')),
                 'NS010', 'invalid state_metadata', 'without it the row is walked: an unknown key is NS010');

select is((select count(*)::int from pg_trigger t
            where t.tgrelid = 'lifecycle.namespace_details'::regclass and not t.tgisinternal
              and t.tgtype & 1 = 1 and t.tgtype & 2 = 2),
          1, 'one BEFORE row trigger on lifecycle.namespace_details: each row calls one');

select * from finish();
rollback;
