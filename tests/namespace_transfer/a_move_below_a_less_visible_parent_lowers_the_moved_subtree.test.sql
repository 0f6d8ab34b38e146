-- GitLab's rule (docs/design.md §5): a transfer below a less visible parent is not refused; the
-- moved namespace and every namespace of its subtree more visible than the new parent take the
-- parent's visibility, in the same statement as the move. Less visible ones keep theirs.
begin;
select plan(7);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'web');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'docs');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'vault');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme'), 1001, 50);
update lifecycle.namespaces set visibility = 'public'
 where id in (lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/src'), lifecycle_test.id_of('acme/src/team'),
              lifecycle_test.id_of('acme/src/team/web'));
update lifecycle.namespaces set visibility = 'internal' where id in (lifecycle_test.id_of('acme/src/team/docs'), lifecycle_test.id_of('acme/dst'));

-- An owner of both sides: accepted at once.
select lives_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001)$$,
  'a public group may be offered to an internal parent'
);
select results_eq(
  $$select outcome from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'))$$,
  $$values ('completed'::text)$$,
  'the move completes'
);
select results_eq(
  $$select lifecycle.namespace_full_path(id), visibility from lifecycle.namespaces
     where lifecycle.namespace_full_path(id) like 'acme/dst/%' order by 1$$,
  $$values ('acme/dst/team'::text, 'internal'::text), ('acme/dst/team/docs', 'internal'),
           ('acme/dst/team/vault', 'private'), ('acme/dst/team/web', 'internal')$$,
  'the moved group and its public project are lowered to internal; internal and private ones keep theirs'
);
select is(
  (select visibility from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src')),
  'public', 'the old parent keeps its visibility'
);
select results_eq(
  $$select to_state::int, metadata ->> 'reason' from lifecycle.namespace_state_updates
     where namespace_id = lifecycle_test.id_of('acme/dst/team') order by id desc limit 1$$,
  $$values (0, 'moved below acme/dst, which is less visible: 2 namespaces lowered to internal')$$,
  'the transfer''s history row says what was lowered'
);
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent afterwards');
select is(
  (select count(*)::int from lifecycle.namespaces n
     join lifecycle.visibility_levels v on v.name = n.visibility
     join lifecycle.namespaces p on p.id = n.parent_id
     join lifecycle.visibility_levels pv on pv.name = p.visibility
    where v.rank > pv.rank),
  0, 'no namespace is more visible than its parent'
);

select * from finish();
rollback;
