-- A state stays while a history row names it, from or to, even when no namespace is in it any
-- more: deleting it or changing its code is refused with 23503, as the foreign keys of
-- lifecycle.namespace_state_updates refused it until 056, naming the history row.
begin;
select plan(4);
select lifecycle_test.lock_rule_tables();

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'annals'), 'group', 'past');
select lifecycle.namespace_transition(lifecycle_test.id_of('annals/past'), 'archived', null, '{}');
select lifecycle.namespace_transition(lifecycle_test.id_of('annals/past'), 'active', null, '{}');
select is((select count(*) from lifecycle.namespaces n where n.state = lifecycle.state_code('archived')), 0::bigint,
  'no namespace is archived');

select throws_ok($$delete from lifecycle.states where name = 'archived'$$,
  '23503', 'cannot delete state archived: the history names it', 'a state the history names is not deleted');
select throws_ok($$update lifecycle.states set code = 40 where name = 'archived'$$,
  '23503', 'cannot change the code of state archived: the history names it', 'nor given another code');

select is(lifecycle_test.detail_of($$delete from lifecycle.states where name = 'archived'$$),
  format('code=%s state_update_id=%s (lifecycle.namespace_state_updates.from_state, to_state)', lifecycle.state_code('archived'),
         (select min(u.id) from lifecycle.namespace_state_updates u
           where u.namespace_id = lifecycle_test.id_of('annals/past'))),
  'the refusal names the first history row');

select * from finish();
rollback;
