begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 3003, 50);
select lifecycle.effective_states_refresh();
create temp table facts (fact jsonb);

-- A creation, then a rename above it, then a move of the renamed group's child, then an archive
-- of the new parent: applied together, in one call.
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'docs');
insert into pg_temp.facts select lifecycle_test.fact_of('namespace_created', lifecycle_test.id_of('acme/src/team/docs'));
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/src'), 'source', 3003);
insert into pg_temp.facts select lifecycle_test.fact_of('renamed', lifecycle_test.id_of('acme/source'));
select lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/source/team'), lifecycle_test.id_of('acme/dst'), 3003);
select lifecycle.namespace_transfer_execute((select namespace_id from lifecycle.transfer_requests));
insert into pg_temp.facts select lifecycle_test.fact_of('transfer_completed', lifecycle_test.id_of('acme/dst/team'));
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/dst'), 'archived', 3003);
insert into pg_temp.facts select lifecycle_test.fact_of('archived', lifecycle_test.id_of('acme/dst'), '{"to_state": "archived"}');

select isnt((select count(*) from lifecycle.effective_states_verify()), 0::bigint, 'before the facts the table is behind');
select lifecycle_test.apply((select array_agg(fact) from pg_temp.facts));
select is((select count(*) from lifecycle.effective_states_verify()), 0::bigint, 'after them it equals its definition');
select results_eq(
  $$select full_path, effective_state from lifecycle.effective_states order by full_path$$,
  $$values ('acme'::text, 'active'::text), ('acme/dst', 'archived'), ('acme/dst/team', 'archived'),
           ('acme/dst/team/docs', 'archived'), ('acme/dst/team/site', 'archived'), ('acme/source', 'active')$$,
  'the moved subtree has its new paths and its new parent''s state; the renamed group its new path'
);
select is(lifecycle_test.apply((select array_agg(fact) from pg_temp.facts)), 0::bigint,
          'applying the same facts again writes nothing');

select * from finish();
rollback;
