-- Nothing the importing session can SET changes what the import does (docs/design.md §10): values
-- of lifecycle.import_cursor and lifecycle.import_left set between its steps (where the import
-- once kept its progress) change nothing; lifecycle.import_skip_rechecks is on or off (either
-- imports the same rows with the same verdicts), and any other value is refused with NS010 before
-- a verdict is cleared. Run as lifecycle_worker, the import's role.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(5);

create temporary table hostile (value text) on commit drop;
insert into hostile values ('-1'), ('abc'), ('1e99'), ('on'), (''), ('99999999999999999999999'), ('0:0'), ('1:7600'),
                           ('9:0'), ('-5:-5'), ('1:99999999999999999999'), ('0'), ('1');
grant select on hostile to public;

-- An import step by step (prepare, batches of one row, finish) with setting = value SET after the
-- prepare step, undone afterwards (the block's exception); answers what it imported and rejected
-- and each staged row's verdict, or the SQLSTATE and message it failed with.
create function pg_temp.import_with(setting text, value text)
returns text
language plpgsql
as $$
declare
  outcome text;
  batch record;
  imported bigint := 0;
  rounds int := 0;
begin
  begin
    perform lifecycle.namespace_import_prepare();
    perform set_config(setting, value, false);
    loop
      select * into batch from lifecycle.namespace_import_batch(1);
      imported := imported + batch.imported;
      rounds := rounds + 1;
      exit when batch.queued <= 0 or rounds > 10;
    end loop;
    outcome := format('%s imported, %s rejected; %s', imported, lifecycle.namespace_import_finish(),
                      (select string_agg(s.id || ' ' || s.reject_code, ', ' order by s.id) from lifecycle.namespace_imports s));
    raise exception 'undo';
  exception when others then
    return coalesce(outcome, sqlstate || ' ' || sqlerrm);
  end;
end
$$;

set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values
  (7600, null, 'organization', 'hostile', 'Hostile'),
  (7601, 7600, 'group', 'inner', 'Inner'),
  (7602, 7600, 'group', 'deeper', 'Deeper'),
  (7603, 7600, 'team', 'odd', 'Odd');

select is_empty(
  $$select h.value, pg_temp.import_with('lifecycle.import_cursor', h.value) as outcome from hostile h
    except all
    select h.value, '3 imported, 1 rejected; 7603 NS010' from hostile h$$,
  'any value of lifecycle.import_cursor set between the steps changes nothing');
select is_empty(
  $$select h.value, pg_temp.import_with('lifecycle.import_left', h.value) as outcome from hostile h
    except all
    select h.value, '3 imported, 1 rejected; 7603 NS010' from hostile h$$,
  'any value of lifecycle.import_left set between the steps changes nothing');

update lifecycle.namespace_imports set reject_code = 'NS010', reject_reason = 'earlier verdict' where id = 7603;
select is_empty(
  $$select h.value, r.outcome from hostile h
     cross join lateral (select pg_temp.import_with('lifecycle.import_skip_rechecks', h.value) as outcome) r
     where r.outcome <> case when h.value in ('on', '', '0', '1') then '3 imported, 1 rejected; 7603 NS010'
                             else 'NS010 lifecycle.import_skip_rechecks is neither on nor off' end$$,
  'lifecycle.import_skip_rechecks set between the steps: on and off import the same, anything else is NS010');
set local lifecycle.import_skip_rechecks = 'abc';
select throws_ok($$select * from lifecycle.namespace_import_apply()$$, 'NS010', 'lifecycle.import_skip_rechecks is neither on nor off',
                 'set before the import, a value that is neither on nor off is refused');
reset lifecycle.import_skip_rechecks;
select results_eq($$select id, reject_reason from lifecycle.namespace_imports where reject_code is not null$$,
                  $$values (7603::bigint, 'earlier verdict'::text)$$, 'and the refused import cleared no verdict');

select * from finish();
rollback;
