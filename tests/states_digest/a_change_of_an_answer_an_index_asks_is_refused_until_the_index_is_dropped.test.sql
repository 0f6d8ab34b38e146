-- A backend inlines an index's predicate when it loads the index and keeps it, and the rows in the
-- index stay where the old answers put them: so the states trigger refuses (2BP01, naming the
-- index) any change that would alter what a predicate an index asks answers for a code, a new
-- state included. A new state whose columns keep their defaults changes no answer and goes in;
-- once the index is dropped, the change goes in too (a migration then builds it again).
begin;
select plan(9);
select lifecycle_test.lock_rule_tables();

select throws_ok(
  $$update lifecycle.states set pending_deletion = false where name = 'deletion_scheduled'$$,
  '2BP01', 'cannot change what lifecycle.state_path_live answers while index lifecycle.namespaces_live_path_key uses it',
  'a pending deletion that would hold its path again is refused while namespaces_live_path_key asks it');
select throws_ok(
  $$insert into lifecycle.states (code, name, description, permanent, read_only, pending_deletion)
    values (7, 'shredding', 'Being shredded.', false, true, true)$$,
  '2BP01', null,
  'so is a new state that releases its path: code 7 was live');
select throws_ok(
  $$update lifecycle.states set inherited = true where name = 'maintenance'$$,
  '2BP01', 'cannot change what lifecycle.state_is_own answers while index lifecycle.namespaces_own_state_idx uses it',
  'and a state that would stop being one of its own');

select lives_ok(
  $$insert into lifecycle.states (code, name, description, permanent, read_only, pending_deletion)
    values (7, 'frozen', 'Frozen.', true, true, false)$$,
  'a new state with the defaults'' answers goes in');
select ok(lifecycle.state_is_own(7::smallint) and lifecycle.state_path_live(7::smallint)
          and not lifecycle.state_deletion_adjourned(7::smallint) and lifecycle.state_operation(7::smallint) is null,
  'and is an own state that holds its path, as it was before its row');

-- A predicate no index asks follows the table at once.
update lifecycle.states set operation = 'freeze' where name = 'frozen';
select is(lifecycle.state_operation(7::smallint), 'freeze', 'state_operation follows operation at once');

drop index lifecycle.namespaces_live_path_key;
select lives_ok($$update lifecycle.states set pending_deletion = false where name = 'deletion_scheduled'$$,
  'with the index dropped the change goes in');
select ok(lifecycle.state_path_live(lifecycle.state_code('deletion_scheduled')),
  'and state_path_live answers as the row says');
create unique index namespaces_live_path_key on lifecycle.namespaces (coalesce(parent_id, 0), path)
  where lifecycle.state_path_live(state);
select throws_ok($$update lifecycle.states set pending_deletion = true where name = 'deletion_scheduled'$$,
  '2BP01', null, 'built again, the index guards the new answers as it did the old');

select * from finish();
rollback;
