begin;
select plan(7);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'ops');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/ops');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

create temporary table before_metadata on commit drop as
select namespace_id, state_metadata from lifecycle.namespace_details;
create temporary table before_history on commit drop as
select count(*) as n from lifecycle.namespace_state_updates;

select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_transition(%s, 'active', 1001)$$,
         lifecycle_test.id_of('acme/eng')),
  $$values ('ancestor_inherited'::text, 'ancestor_inherited'::text, false)$$,
  'active → active succeeds with changed = false'
);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_transition(%s, 'ancestor_inherited', 1001)$$,
         lifecycle_test.id_of('acme/eng')),
  $$values ('ancestor_inherited'::text, 'ancestor_inherited'::text, false)$$,
  'the canonical name of active is a no-op too'
);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_transition(%s, 'archived', 1001)$$,
         lifecycle_test.id_of('acme/ops')),
  $$values ('archived'::text, 'archived'::text, false)$$,
  'archived → archived succeeds with changed = false'
);
update lifecycle.namespaces set state = state where parent_id = lifecycle_test.id_of('acme');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/ops');
select pass('raw same-state UPDATEs pass the gate');

select is(
  (select count(*) from lifecycle.namespace_state_updates),
  (select n from before_history),
  'no same-state request wrote a history row'
);
select is_empty(
  $$select namespace_id, state_metadata from lifecycle.namespace_details
    except select namespace_id, state_metadata from before_metadata$$,
  'no same-state request touched state_metadata'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/ops')),
  1::smallint,
  'the state is unchanged'
);

select * from finish();
rollback;
