-- An event stays while a history row names it: deleting it, renaming it or truncating
-- lifecycle.events (with cascade) is refused with 23503, as the foreign key
-- namespace_state_updates_event_fkey refused it until 056, naming the history row. An event no
-- history row names is renamed and deleted as before, the rules' digest following.
begin;
select plan(7);
select lifecycle_test.lock_rule_tables();

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'chron'), 'group', 'icle');
select lifecycle.namespace_event(lifecycle_test.id_of('chron/icle'), 'archive', null);

select throws_ok($$delete from lifecycle.events where name = 'archive'$$,
  '23503', 'cannot delete event archive: the history names it', 'an event the history names is not deleted');
select throws_ok($$update lifecycle.events set name = 'stow' where name = 'archive'$$,
  '23503', 'cannot rename event archive: the history names it', 'nor renamed');
select throws_ok($$truncate lifecycle.events cascade$$,
  '23503', 'cannot truncate lifecycle.events: the history names its events', 'nor truncated');

create function pg_temp.detail_of(statement text) returns text language plpgsql as $f$
declare
  detail text;
begin
  execute statement;
  return null;
exception when others then
  get stacked diagnostics detail = pg_exception_detail;
  return detail;
end $f$;
select is(pg_temp.detail_of($$delete from lifecycle.events where name = 'archive'$$),
  format('event=archive state_update_id=%s (lifecycle.namespace_state_updates.event)',
         (select min(u.id) from lifecycle.namespace_state_updates u where u.event = 'archive')),
  'the refusal names the first history row');

insert into lifecycle.events (name, target_state, description)
  values ('doze', lifecycle.state_code('archived'), 'An event no history row names.');
select lives_ok($$update lifecycle.events set name = 'nap' where name = 'doze'$$, 'an event nothing names is renamed');
select lives_ok($$delete from lifecycle.events where name = 'nap'$$, 'and deleted');
select is((lifecycle.event_rule('nap')).target_state, null, 'and the rules'' digest follows');

select * from finish();
rollback;
