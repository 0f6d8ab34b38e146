begin;
select plan(4);

-- A details row removed by hand (check_invariants reports it) comes back with the next state
-- change: the same document the change would have written, started from nothing.

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'o'), 'project', 'p');
delete from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('o/p');

select lifecycle.namespace_transition(lifecycle_test.id_of('o/p'), 'archived', null,
                                      '{"reason": "tidy up", "attempt_count": 2}');
select is((select count(*)::int from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('o/p')), 1,
          'the details row is back');
select is((select state_metadata ->> 'previous_state' from lifecycle.namespace_details
            where namespace_id = lifecycle_test.id_of('o/p')),
          'ancestor_inherited', 'with the state it left');
select is((select state_metadata ?| array['reason', 'attempt_count'] from lifecycle.namespace_details
            where namespace_id = lifecycle_test.id_of('o/p')),
          false, 'without the reason, and without the attempts a permanent state ends');

-- Leaving the permanent state for a temporary one records it, as on any row.
select lifecycle.namespace_transition(lifecycle_test.id_of('o/p'), 'deletion_scheduled', null);
select is((select state_metadata ->> 'preserved_state' from lifecycle.namespace_details
            where namespace_id = lifecycle_test.id_of('o/p')),
          'archived', 'and the next change merges into it as usual');

select * from finish();
rollback;
