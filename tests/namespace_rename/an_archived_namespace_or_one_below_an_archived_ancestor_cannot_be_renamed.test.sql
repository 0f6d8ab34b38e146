begin;
select plan(4);

-- A rename needs the namespace writable (read_only_refusal): its own read-only state is NS001, an
-- ancestor's is NS002.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/eng'), 'archived', null);

select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'engineering', null)$$, lifecycle_test.id_of('acme/eng')),
  'NS001', 'cannot rename a namespace that is archived',
  'an archived group cannot be renamed'
);
select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'web', null)$$, lifecycle_test.id_of('acme/eng/site')),
  'NS002', 'cannot rename a namespace below acme/eng, which is archived',
  'a project below an archived group cannot be renamed'
);
select is(
  lifecycle.namespace_full_path(lifecycle_test.id_of('acme/eng/site')),
  'acme/eng/site',
  'the refused renames changed no path'
);
select is(
  (select count(*) from lifecycle.namespace_redirects),
  0::bigint,
  'the refused renames wrote no redirect'
);

select * from finish();
rollback;
