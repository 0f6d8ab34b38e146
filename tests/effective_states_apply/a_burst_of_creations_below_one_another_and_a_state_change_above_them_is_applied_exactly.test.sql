begin;
select plan(4);

-- What one INSERT of many namespaces hands the syncer (issue 24): thousands of creation facts, some
-- of them below others of the set (subgroups made in the burst and projects in them), most of them
-- leaves below namespaces that have rows already, and in the same call the archival of a group above
-- some of them; the facts in no particular order. Below acme of tests/helpers.sql's mixed tree, owned by user 1001.
select lifecycle_test.create_mixed_tree();
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 1001, 50);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'bulk');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/bulk'), 'group', 'old');
insert into lifecycle.namespaces (parent_id, type, path, name)
select lifecycle_test.id_of('acme/bulk/old'), 'project', 'kept' || i, 'kept' from generate_series(1, 100) i;
select lifecycle.effective_states_refresh();
create temp table before as select max(id) as id from lifecycle.namespaces;

insert into lifecycle.namespaces (parent_id, type, path, name)
select lifecycle_test.id_of('acme/bulk'), 'group', 'sub' || i, 'sub' from generate_series(1, 30) i;
insert into lifecycle.namespaces (parent_id, type, path, name)
select s.id, 'group', 'inner', 'inner' from lifecycle.namespaces s
 where s.parent_id = lifecycle_test.id_of('acme/bulk') and s.path like 'sub%';
insert into lifecycle.namespaces (parent_id, type, path, name)
select s.id, 'project', 'p' || i, 'p' from lifecycle.namespaces s, generate_series(1, 40) i
 where s.id > (select id from pg_temp.before) and s.type = 'group';
insert into lifecycle.namespaces (parent_id, type, path, name)
select lifecycle_test.id_of('acme/bulk'), 'project', 'q' || i, 'q' from generate_series(1, 1500) i;
insert into lifecycle.namespaces (parent_id, type, path, name)
select lifecycle_test.id_of('acme/bulk/old'), 'project', 'new' || i, 'new' from generate_series(1, 500) i;
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/bulk/old'), 'archived', 1001);
create temp table facts as
select pg_catalog.array_agg(f order by pg_catalog.md5(f::text)) as facts
  from (select lifecycle_test.fact_of('namespace_created', n.id) as f
          from lifecycle.namespaces n where n.id > (select id from pg_temp.before)
        union all
        select lifecycle_test.fact_of('archived', lifecycle_test.id_of('acme/bulk/old'), '{"to_state": "archived"}')) x;

select cmp_ok(pg_catalog.cardinality((select facts from pg_temp.facts)), '>', 4000, 'thousands of facts');
select is(lifecycle_test.apply((select facts from pg_temp.facts)),
          (select count(*) from lifecycle.namespaces where id > (select id from pg_temp.before)) + 101,
          'one row written for each namespace created, and for the archived group and the 100 below it that were there');
select is((select count(*) from lifecycle.effective_states_verify()), 0::bigint, 'the table equals its definition');
select results_eq(
  $$select effective_state, inherited_from_namespace_id, count(*) from lifecycle.effective_states
     where full_path like 'acme/bulk/old/%' group by 1, 2$$,
  $$values ('archived'::text, lifecycle_test.id_of('acme/bulk/old'), 600::bigint)$$,
  'the namespaces created below the archived group, and those that were there, show it archived');

select * from finish();
rollback;
