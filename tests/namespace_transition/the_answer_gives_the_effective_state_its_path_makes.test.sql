begin;
select plan(8);

-- The answer's effective_state is what namespace_effective_state says right after the call: the
-- own state, else the nearest ancestor's own state, else active. namespace_change_state reads it
-- from the ancestors it holds locked; these cases compare the two.

-- organization o / group g / subgroup s / projects p and q; organization plain / project r.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', 'o'), 'group', 'g'), 'group', 's'), 'project', 'p');
select lifecycle_test.create_namespace(lifecycle_test.id_of('o/g/s'), 'project', 'q');
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'plain'), 'project', 'r');

-- s archived, then p scheduled for deletion below it, then g scheduled above both: restoring p
-- leaves two stateful ancestors, and the nearer (s, archived) decides.
select lifecycle.namespace_transition(lifecycle_test.id_of('o/g/s'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('o/g/s/p'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('o/g'), 'deletion_scheduled', null);

create temporary table answer as
  select * from lifecycle.namespace_transition(lifecycle_test.id_of('o/g/s/p'), 'active', null);
select is((select changed from answer), true, 'p is restored');
select is((select effective_state from answer), 'archived', 'its effective state is the nearest stateful ancestor''s');
select is((select effective_state from answer),
          (select e.effective_state from lifecycle.namespace_effective_state(lifecycle_test.id_of('o/g/s/p')) e),
          'the answer agrees with namespace_effective_state');

-- A no-op answers too.
select is((select t.changed from lifecycle.namespace_transition(lifecycle_test.id_of('o/g/s/q'), 'active', null) t), false,
          'q is already active: nothing changes');
select is((select t.effective_state from lifecycle.namespace_transition(lifecycle_test.id_of('o/g/s/q'), 'active', null) t),
          'archived', 'and the no-op answers the effective state its path makes');

-- An own state answers itself; no stateful ancestor answers active.
select is((select t.effective_state from lifecycle.namespace_transition(lifecycle_test.id_of('plain/r'), 'archived', null) t),
          'archived', 'archiving a project under an active path answers archived');
select is((select t.effective_state from lifecycle.namespace_transition(lifecycle_test.id_of('plain/r'), 'deletion_scheduled', null) t),
          'deletion_scheduled', 'scheduling its deletion answers deletion_scheduled');
select is((select t.effective_state from lifecycle.namespace_transition(lifecycle_test.id_of('plain/r'), 'active', null) t),
          'active', 'restoring it answers active');

select * from finish();
rollback;
