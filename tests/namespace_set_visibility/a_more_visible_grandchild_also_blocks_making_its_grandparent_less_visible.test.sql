begin;
select plan(3);

-- The descendant check covers the whole subtree, not only the children, and the hint names the
-- offender by its full path: a public project blocks making its group internal (naming
-- acme/eng/site), and blocks the organization two levels up as well. (The invariant keeps the
-- group at least as visible as the project, so the organization's hint may name either.)
create function pg_temp.error_of(call text) returns text[] language plpgsql as $$
declare
  state text;
  hint text;
begin
  execute call;
  return null;
exception when others then
  get stacked diagnostics state = returned_sqlstate, hint = pg_exception_hint;
  return array[state, hint];
end
$$;

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
select lifecycle.namespace_set_visibility(lifecycle_test.id_of(p), 'public', null)
  from unnest(array['acme', 'acme/eng', 'acme/eng/site']) p;

select is(
  pg_temp.error_of(format($$select * from lifecycle.namespace_set_visibility(%s, 'internal', null)$$,
                          lifecycle_test.id_of('acme/eng'))),
  array['NS003', 'Make acme/eng/site internal or less first.'],
  'making the group internal above its public project is NS003 naming acme/eng/site'
);
select ok(
  pg_temp.error_of(format($$select * from lifecycle.namespace_set_visibility(%s, 'internal', null)$$,
                          lifecycle_test.id_of('acme')))
    in (array['NS003', 'Make acme/eng internal or less first.'],
        array['NS003', 'Make acme/eng/site internal or less first.']),
  'making the organization internal is NS003 naming its public group or grandchild by full path'
);
select lifecycle.namespace_set_visibility(lifecycle_test.id_of('acme/eng/site'), 'internal', null);
select lifecycle.namespace_set_visibility(lifecycle_test.id_of('acme/eng'), 'internal', null);
select lives_ok(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'internal', null)$$, lifecycle_test.id_of('acme')),
  'with nothing below public any more, the organization may become internal'
);

select * from finish();
rollback;
