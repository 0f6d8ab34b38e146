-- A move checks its whole subtree against the depth limit (docs/design.md §8): a group with two
-- levels below it cannot move below level 98 (its deepest namespace would be at 101).
begin;
select plan(3);

insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
select lifecycle_test.create_namespace(null, 'organization', 'deep'), 1001, 50;
do $$
declare
  parent bigint := lifecycle_test.id_of('deep');
begin
  for i in 2..98 loop
    parent := lifecycle_test.create_namespace(parent, 'group', 'g' || i);
  end loop;
end
$$;
select lifecycle_test.create_namespace(lifecycle_test.id_of('deep'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('deep/team'), 'group', 'sub');
select lifecycle_test.create_namespace(lifecycle_test.id_of('deep/team/sub'), 'project', 'app');

select throws_ok(
  format($$select * from lifecycle.namespace_transfer_request(%s, %s, 1001)$$, lifecycle_test.id_of('deep/team'),
         (select id from lifecycle.namespaces where cardinality(traversal_ids) = 98)),
  'NS010', null, 'a move that would put deep/team/sub/app at level 101 is refused');
select lives_ok(
  format($$select * from lifecycle.namespace_transfer_request(%s, %s, 1001)$$, lifecycle_test.id_of('deep/team'),
         (select id from lifecycle.namespaces where cardinality(traversal_ids) = 97)),
  'one level higher it fits (level 100)');
select results_eq(
  $$select outcome from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('deep/team'))$$,
  $$values ('completed'::text)$$, 'and the move completes');

select * from finish();
rollback;
