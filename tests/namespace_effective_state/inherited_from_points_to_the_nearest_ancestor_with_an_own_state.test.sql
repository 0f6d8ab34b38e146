begin;
select plan(6);

-- a/b/c/d/e/f, six levels: b is archived, d is scheduled for deletion.
select lifecycle_test.create_namespace(null, 'organization', 'a');
select lifecycle_test.create_namespace(lifecycle_test.id_of('a'), 'group', 'b');
select lifecycle_test.create_namespace(lifecycle_test.id_of('a/b'), 'group', 'c');
select lifecycle_test.create_namespace(lifecycle_test.id_of('a/b/c'), 'group', 'd');
select lifecycle_test.create_namespace(lifecycle_test.id_of('a/b/c/d'), 'group', 'e');
select lifecycle_test.create_namespace(lifecycle_test.id_of('a/b/c/d/e'), 'project', 'f');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('a/b');
update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('a/b/c/d');

select results_eq(
  format($$select effective_state, inherited_from_namespace_id from lifecycle.namespace_effective_state(%s)$$,
         lifecycle_test.id_of('a/b/c/d/e/f')),
  format($$values ('deletion_scheduled'::text, %s::bigint)$$, lifecycle_test.id_of('a/b/c/d')),
  'six levels down, the state comes from the nearest ancestor with one (d), not from b further up'
);
select results_eq(
  format($$select effective_state, inherited_from_namespace_id from lifecycle.namespace_effective_state(%s)$$,
         lifecycle_test.id_of('a/b/c')),
  format($$values ('archived'::text, %s::bigint)$$, lifecycle_test.id_of('a/b')),
  'between the two, c inherits from b'
);
select results_eq(
  format($$select effective_state, inherited_from_namespace_id from lifecycle.namespace_effective_state(%s)$$,
         lifecycle_test.id_of('a/b/c/d')),
  $$values ('deletion_scheduled'::text, null::bigint)$$,
  'a namespace with its own state inherits from nobody'
);
select results_eq(
  format($$select state, effective_state, inherited_from_namespace_id from lifecycle.namespace_effective_state(%s)$$,
         lifecycle_test.id_of('a')),
  $$values ('ancestor_inherited'::text, 'active'::text, null::bigint)$$,
  'a root without a state is active, inherited from nobody'
);

-- Removing d's state makes b the nearest again.
update lifecycle.namespaces set state = 0 where id = lifecycle_test.id_of('a/b/c/d');
select results_eq(
  format($$select effective_state, inherited_from_namespace_id from lifecycle.namespace_effective_state(%s)$$,
         lifecycle_test.id_of('a/b/c/d/e/f')),
  format($$values ('archived'::text, %s::bigint)$$, lifecycle_test.id_of('a/b')),
  'once d is restored, f inherits archived from b'
);
-- And unarchiving b leaves the default.
update lifecycle.namespaces set state = 0 where id = lifecycle_test.id_of('a/b');
select results_eq(
  format($$select effective_state, inherited_from_namespace_id from lifecycle.namespace_effective_state(%s)$$,
         lifecycle_test.id_of('a/b/c/d/e/f')),
  $$values ('active'::text, null::bigint)$$,
  'with no state on the path, f is active and inherits from nobody'
);

select * from finish();
rollback;
