-- A state stays while a namespace is in it: deleting it, changing its code or truncating
-- lifecycle.states (with cascade: the rule tables' own foreign keys refuse it without) is refused
-- with 23503, as the foreign key namespaces_state_fkey refused it until 056, naming the namespace.
-- Those statements changed nothing, and the state's namespace keeps it; a state nothing uses is
-- renumbered and deleted as before, its digest following.
begin;
select plan(8);
select lifecycle_test.lock_rule_tables();

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'keeper'), 'group', 'kept');
select lifecycle.namespace_transition(lifecycle_test.id_of('keeper/kept'), 'archived', null, '{}');
-- No history row names archived, so what refuses is the namespace in it.
delete from lifecycle.namespace_state_updates u where u.namespace_id = lifecycle_test.id_of('keeper/kept');

select throws_ok($$delete from lifecycle.states where name = 'archived'$$,
  '23503', 'cannot delete state archived: a namespace is in it', 'a state a namespace is in is not deleted');
select throws_ok($$update lifecycle.states set code = 40 where name = 'archived'$$,
  '23503', 'cannot change the code of state archived: a namespace is in it', 'nor given another code');
select throws_ok($$truncate lifecycle.states cascade$$,
  '23503', 'cannot truncate lifecycle.states: namespaces are in its states', 'nor truncated');
select is(lifecycle_test.detail_of($$delete from lifecycle.states where name = 'archived'$$),
  format('code=%s namespace_id=%s (lifecycle.namespaces.state)', lifecycle.state_code('archived'), lifecycle_test.id_of('keeper/kept')),
  'the refusal names the namespace');
select is((select s.name from lifecycle.namespaces n join lifecycle.states s on s.code = n.state
            where n.id = lifecycle_test.id_of('keeper/kept')), 'archived', 'which is still archived');


insert into lifecycle.states (code, name, description, permanent, read_only, pending_deletion)
  values ((select max(code) + 1 from lifecycle.states), 'dormant', 'A state nothing uses.', false, false, false);
select lives_ok($$update lifecycle.states set code = code + 1 where name = 'dormant'$$, 'a state nothing uses takes another code');
select lives_ok($$delete from lifecycle.states where name = 'dormant'$$, 'and is deleted');
select ok(not ('dormant' = any (lifecycle.state_names())), 'and the digest follows');

select * from finish();
rollback;
