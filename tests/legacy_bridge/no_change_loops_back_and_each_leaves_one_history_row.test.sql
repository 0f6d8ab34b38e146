-- No loops (docs/design.md §10): a legacy change moves the state, whose change writes the legacy
-- data, which already says so and is not written again; an API change writes the legacy data,
-- whose trigger finds the state already there. Each change leaves exactly one history row.
begin;
select plan(3);
select lifecycle_test.create_gitlab_legacy();

update legacy.projects set archived = true where id = 501;
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/eng/docs'), 'archive', 1001);
update legacy.projects set archived = false where id = 501;
select results_eq(
  $$select namespace_id, event from lifecycle.namespace_state_updates order by id$$,
  format($$values (%s::bigint, null::text), (%s, 'archive'), (%s, 'unarchive')$$,
         lifecycle_test.id_of('acme/eng/site'), lifecycle_test.id_of('acme/eng/docs'), lifecycle_test.id_of('acme/eng/site')),
  'three changes, three history rows');
select is((select sum(state_changes)::int from lifecycle.namespaces), 3, 'the gate counted three');
select results_eq($$select id, archived from legacy.projects order by id$$, $$values (501::bigint, false), (502, true)$$,
                  'the legacy flags say what the states say');

select * from finish();
rollback;
