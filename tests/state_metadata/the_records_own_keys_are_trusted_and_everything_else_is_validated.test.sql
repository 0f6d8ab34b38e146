-- The state record builds last_updated_at, last_changed_by_user_id, previous_state and
-- preserved_state from values it has checked: a change without call metadata does not walk the
-- document against the schema again (docs/design.md §4.4). Call metadata is still walked, and so is
-- any other write of the details row, even one that claims to be the record's.
begin;
select plan(6);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 1001, 50);
set local track_functions = 'all';

create temporary table walks (n bigint);
create function pg_temp.walks() returns bigint language sql as $$
  select coalesce(sum(calls), 0) from pg_stat_xact_user_functions where schemaname = 'lifecycle' and funcname = 'jsonb_schema_violation'
$$;
insert into walks select pg_temp.walks();

select lifecycle.namespace_event(lifecycle_test.id_of('acme/eng'), 'archive', 1001);
select is(pg_temp.walks() - (select n from walks), 0::bigint, 'a change without metadata walks no document');
select is(
  (select state_metadata ->> 'previous_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/eng')),
  'ancestor_inherited', 'and its keys are written');

update walks set n = pg_temp.walks();
select lifecycle.namespace_event(lifecycle_test.id_of('acme/eng'), 'unarchive', 1001, '{"correlation_id": "req-1"}');
select cmp_ok(pg_temp.walks() - (select n from walks), '>=', 2::bigint,
  'a change with call metadata walks it (the call''s, then the document it is merged into)');

-- A raw UPDATE of state (the owner's) with call metadata that was never checked: the details
-- row is walked, and the unknown key refused.
select throws_ok(
  format($$select set_config('lifecycle.change', '{"metadata": {"bogus": 1}}', true), set_config('lifecycle.actor_id', '', true);
           update lifecycle.namespaces set state = 1 where id = %s$$, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata', 'call metadata a raw change brings is validated');
select set_config('lifecycle.change', '', true);

-- A write that claims to be the record's is trusted for the record's keys only.
select throws_ok(
  format($$select set_config('lifecycle.details_record', '%s', true);
           update lifecycle.namespace_details set state_metadata = state_metadata || '{"bogus": 1}' where namespace_id = %s$$,
         lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata', 'an unknown key is refused even with the record''s marker set');
select throws_ok(
  format($$select set_config('lifecycle.details_record', '%s', true);
           update lifecycle.namespace_details set state_metadata = state_metadata || '{"reason": 42}' where namespace_id = %s$$,
         lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata', 'and so is a known key of the wrong type');

select * from finish();
rollback;
