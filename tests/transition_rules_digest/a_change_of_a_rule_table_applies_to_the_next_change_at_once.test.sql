-- The rule tables stay the one place of the rules: a change of any of them rewrites the digest
-- through its trigger, and the next state change in the same session, whose checks were planned
-- and cached before, follows the new rule at once.
begin;
select plan(10);
select lifecycle_test.lock_rule_tables();

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', 'rules'), 'group', 'g'), 'project', 'p');
select lifecycle_test.id_of('rules/g') as g, lifecycle_test.id_of('rules/g/p') as p \gset
-- Cached: archive and unarchive, twice, so the gate's statements are planned for this session.
select lifecycle.namespace_event(:p, 'archive', null); select lifecycle.namespace_event(:p, 'unarchive', null);
select lifecycle.namespace_event(:p, 'archive', null); select lifecycle.namespace_event(:p, 'unarchive', null);

-- The matrix: without active -> maintenance (and its guards), maintaining is refused.
create temp table saved_pair as select * from lifecycle.state_transitions where from_state = 0 and to_state = 6;
delete from lifecycle.transition_guards where from_state = 0 and to_state = 6;
delete from lifecycle.state_transitions where from_state = 0 and to_state = 6;
select throws_ok(format('select lifecycle.namespace_transition(%s, %L, null)', :p, 'maintenance'), 'NS001', null,
  'a pair taken out of the matrix is refused');
insert into lifecycle.state_transitions select * from pg_temp.saved_pair;
select lives_ok(format('select lifecycle.namespace_transition(%s, %L, null)', :p, 'maintenance'),
  'and allowed again once put back');
select lifecycle.namespace_transition(:p, 'active', null);

-- A guard: archiving below a group in maintenance, allowed until a guard forbids it.
select lifecycle.namespace_transition(:g, 'maintenance', null);
select lives_ok(format('select lifecycle.namespace_event(%s, %L, null)', :p, 'archive'),
  'archiving below a group in maintenance is allowed without a guard');
select lifecycle.namespace_event(:p, 'unarchive', null);
insert into lifecycle.transition_guards (from_state, to_state, scope, forbidden_state) values (0, 1, 'ancestor', 6);
select throws_ok(format('select lifecycle.namespace_event(%s, %L, null)', :p, 'archive'), 'NS002', null,
  'a new ancestor guard refuses it');
select lifecycle.namespace_transition(:g, 'active', null);

-- A policy: the access level a change needs.
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (:p, 4242, 40);
update lifecycle.transition_policies set min_access_level = 40 where to_state = 1;
select lives_ok(format('select lifecycle.namespace_event(%s, %L, 4242)', :p, 'archive'),
  'a member at level 40 may archive when the policy asks for 40');
select lifecycle.namespace_event(:p, 'unarchive', null);
update lifecycle.transition_policies set min_access_level = 50 where to_state = 1;
select throws_ok(format('select lifecycle.namespace_event(%s, %L, 4242)', :p, 'archive'), 'NS005', null,
  'and not once it asks for 50');

-- An event's sources: archive no longer applies to an active namespace, then again.
delete from lifecycle.event_sources where event = 'archive' and from_state = 0;
select throws_ok(format('select lifecycle.namespace_event(%s, %L, null)', :p, 'archive'), 'NS001', null,
  'an event taken from a state no longer applies to it');
insert into lifecycle.event_sources (event, from_state) values ('archive', 0);
select lives_ok(format('select lifecycle.namespace_event(%s, %L, null)', :p, 'archive'),
  'and applies again once put back');
select lifecycle.namespace_event(:p, 'unarchive', null);

-- A state's name, in the refusal's message.
update lifecycle.states set name = 'shelved' where code = 1;
select throws_ok(format('select lifecycle.namespace_event(%s, %L, 4242)', :p, 'archive'), 'NS005',
  format('user 4242 may not move this namespace to %s', 'shelved'), 'a renamed state is named in the refusal');
select is((lifecycle.transition_rule(0::smallint, 1::smallint)).to_name, 'shelved', 'the digest has the new name');

select * from finish();
rollback;
