begin;
select plan(2);

-- The seven-level tree with mixed own states of tests/helpers.sql.
select lifecycle_test.create_mixed_tree();

select is(
  (select max(cardinality(traversal_ids)) from lifecycle.namespaces),
  7,
  'the tree is seven levels deep'
);
select results_eq(
  $$select lifecycle.namespace_full_path(n.id), e.state, e.effective_state,
           lifecycle.namespace_full_path(e.inherited_from_namespace_id),
           e.self_or_ancestor_archived, e.self_or_ancestor_deletion_scheduled, e.read_only
      from lifecycle.namespaces n
     cross join lateral lifecycle.namespace_effective_state(n.id) e
     order by 1$$,
  $$values
    ('acme'::text,                                  'ancestor_inherited'::text, 'active'::text,         null::text,                        false, false, false),
    ('acme/doomed',                                 'deletion_in_progress',     'deletion_in_progress', null,                              false, true,  true),
    ('acme/doomed/data',                            'ancestor_inherited',       'deletion_in_progress', 'acme/doomed',                     false, true,  true),
    ('acme/eng',                                    'ancestor_inherited',       'active',               null,                              false, false, false),
    ('acme/eng/platform',                           'archived',                 'archived',             null,                              true,  false, true),
    ('acme/eng/platform/infra',                     'ancestor_inherited',       'archived',             'acme/eng/platform',               true,  false, true),
    ('acme/eng/platform/infra/dns',                 'ancestor_inherited',       'archived',             'acme/eng/platform',               true,  false, true),
    ('acme/eng/platform/infra/storage',             'deletion_scheduled',       'deletion_scheduled',   null,                              true,  true,  true),
    ('acme/eng/platform/infra/storage/backup',      'ancestor_inherited',       'deletion_scheduled',   'acme/eng/platform/infra/storage', true,  true,  true),
    ('acme/eng/platform/infra/storage/backup/agent','ancestor_inherited',       'deletion_scheduled',   'acme/eng/platform/infra/storage', true,  true,  true),
    ('acme/eng/tools',                              'ancestor_inherited',       'active',               null,                              false, false, false),
    ('acme/labs',                                   'ancestor_inherited',       'active',               null,                              false, false, false),
    ('acme/labs/proto',                             'creation_in_progress',     'creation_in_progress', null,                              false, false, false),
    ('acme/moving',                                 'transfer_in_progress',     'transfer_in_progress', null,                              false, false, true),
    ('acme/moving/app',                             'ancestor_inherited',       'transfer_in_progress', 'acme/moving',                     false, false, true),
    ('acme/ops',                                    'maintenance',              'maintenance',          null,                              false, false, true),
    ('acme/ops/runbooks',                           'ancestor_inherited',       'maintenance',          'acme/ops',                        false, false, true),
    ('acme/sunset',                                 'deletion_scheduled',       'deletion_scheduled',   null,                              false, true,  true),
    ('acme/sunset/misc',                            'ancestor_inherited',       'deletion_scheduled',   'acme/sunset',                     false, true,  true),
    ('acme/sunset/reports',                         'archived',                 'archived',             null,                              true,  true,  true),
    ('alice',                                       'ancestor_inherited',       'active',               null,                              false, false, false),
    ('beta',                                        'ancestor_inherited',       'active',               null,                              false, false, false),
    ('beta/site',                                   'ancestor_inherited',       'active',               null,                              false, false, false)$$,
  'every namespace of a deep tree with mixed own states has the expected effective state, source and flags'
);

select * from finish();
rollback;
