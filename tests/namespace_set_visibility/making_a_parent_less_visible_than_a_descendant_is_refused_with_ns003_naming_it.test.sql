begin;
select plan(5);

-- A namespace may not become less visible than one of its descendants: NS003, and the hint names
-- the descendant's full path so the user knows what to change first.
create function pg_temp.error_of(call text) returns text[] language plpgsql as $$
declare
  state text;
  msg text;
  hint text;
begin
  execute call;
  return null;
exception when others then
  get stacked diagnostics state = returned_sqlstate, msg = message_text, hint = pg_exception_hint;
  return array[state, msg, hint];
end
$$;

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle.namespace_set_visibility(lifecycle_test.id_of('acme'), 'public', null);
select lifecycle.namespace_set_visibility(lifecycle_test.id_of('acme/site'), 'internal', null);

select is(
  pg_temp.error_of(format($$select * from lifecycle.namespace_set_visibility(%s, 'private', null)$$,
                          lifecycle_test.id_of('acme'))),
  array['NS003', 'descendant acme/site is internal, more visible than private',
        'Make acme/site private or less first.'],
  'making the organization private above an internal project is NS003, naming acme/site'
);
select is(
  (select visibility from lifecycle.namespaces where id = lifecycle_test.id_of('acme')),
  'public',
  'the refused call left the organization public'
);
select results_eq(
  format($$select visibility, changed from lifecycle.namespace_set_visibility(%s, 'internal', null)$$,
         lifecycle_test.id_of('acme')),
  $$values ('internal'::text, true)$$,
  'internal, as visible as the project, is fine'
);
select throws_ok(
  format($$update lifecycle.namespaces set visibility = 'private' where id = %s$$, lifecycle_test.id_of('acme')),
  'NS003', 'descendant acme/site is internal, more visible than private',
  'a raw UPDATE of visibility is refused the same way'
);
select lifecycle.namespace_set_visibility(lifecycle_test.id_of('acme/site'), 'private', null);
select lives_ok(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'private', null)$$, lifecycle_test.id_of('acme')),
  'once the project is private, the organization may become private'
);

select * from finish();
rollback;
