begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'one');

-- Through the API (namespace_event), then a raw UPDATE back, then a raw UPDATE that says it is the
-- import's (whose history rows have no fact each: the import emits one per batch).
select lifecycle.namespace_event(lifecycle_test.id_of('acme/one'), 'archive', null);
update lifecycle.namespaces set state = 0 where id = lifecycle_test.id_of('acme/one');
select set_config('lifecycle.change', '{"source": "import"}', true);
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/one');
select set_config('lifecycle.change', '', true);

select results_eq(
  format($$select h.source, f.action, f.namespace_id, f.traversal_ids, f.full_path,
                  f.details ->> 'from_state', f.details ->> 'to_state', f.details ->> 'source'
             from lifecycle.namespace_state_updates h
             join lifecycle.facts f on (f.details ->> 'state_update_id')::bigint = h.id
            where h.namespace_id = %s order by h.id$$, lifecycle_test.id_of('acme/one')),
  format($$select 'api'::text, (select t.audit_action from lifecycle.state_transitions t where t.from_state = 0 and t.to_state = 1),
                  %1$s::bigint, array[%2$s, %1$s]::bigint[], 'acme/one'::text, lifecycle.state_name(0::smallint), 'archived'::text, 'api'::text
           union all
           select 'sql', (select t.audit_action from lifecycle.state_transitions t where t.from_state = 1 and t.to_state = 0),
                  %1$s, array[%2$s, %1$s]::bigint[], 'acme/one', 'archived', lifecycle.state_name(0::smallint), 'sql'$$,
         lifecycle_test.id_of('acme/one'), lifecycle_test.id_of('acme')),
  'the API''s and a raw change''s history rows each have their fact, naming the row by its id'
);
select is(
  (select count(*) from lifecycle.facts f
    where f.namespace_id = lifecycle_test.id_of('acme/one') and f.details ? 'state_update_id'),
  2::bigint,
  'no other state change fact: the import''s history row has none'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates h where h.namespace_id = lifecycle_test.id_of('acme/one')),
  3::bigint,
  'three changes, three history rows'
);

select * from finish();
rollback;
