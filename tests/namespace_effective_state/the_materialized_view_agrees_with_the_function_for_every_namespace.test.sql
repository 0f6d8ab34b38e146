begin;
select plan(4);

-- A tree seven levels deep (acme/eng/platform/infra/storage/backup/agent) with own states on
-- several levels. The whole tree is built first: nothing is created below a namespace with an own
-- state. States are then set by raw UPDATEs, as the system.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'group', 'platform');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform'), 'group', 'infra');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform/infra'), 'group', 'storage');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform/infra/storage'), 'group', 'backup');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform/infra/storage/backup'), 'project', 'agent');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/platform/infra'), 'project', 'dns');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'tools');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'sunset');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/sunset'), 'project', 'reports');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/sunset'), 'project', 'misc');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'ops');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/ops'), 'project', 'runbooks');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'moving');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/moving'), 'project', 'app');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'labs');
insert into lifecycle.namespaces (parent_id, type, path, name, state)
values (lifecycle_test.id_of('acme/labs'), 'project', 'proto', 'proto', 3);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'doomed');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/doomed'), 'project', 'data');
select lifecycle_test.create_namespace(null, 'organization', 'beta');
select lifecycle_test.create_namespace(lifecycle_test.id_of('beta'), 'project', 'site');
select lifecycle_test.create_namespace(null, 'user', 'alice');

update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/eng/platform');
update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/eng/platform/infra/storage');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/sunset/reports');
update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/sunset');
update lifecycle.namespaces set state = 6 where id = lifecycle_test.id_of('acme/ops');
update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/moving');
update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/doomed');
update lifecycle.namespaces set state = 4 where id = lifecycle_test.id_of('acme/doomed');

select lifecycle.effective_states_refresh();

select is(
  (select count(*) from lifecycle.effective_states),
  (select count(*) from lifecycle.namespaces),
  'after a refresh the view has one row per namespace'
);
-- One set-based comparison: every column of every row, both directions (a row missing on either
-- side is a mismatch too).
select is(
  (with fn as (
     select e.* from lifecycle.namespaces n cross join lateral lifecycle.namespace_effective_state(n.id) e
   )
   select count(*)
     from fn
     full join lifecycle.effective_states v on v.namespace_id = fn.namespace_id
    where (fn.namespace_id, fn.state, fn.effective_state, fn.inherited_from_namespace_id,
           fn.self_or_ancestor_archived, fn.self_or_ancestor_deletion_scheduled, fn.read_only)
          is distinct from
          (v.namespace_id, v.state, v.effective_state, v.inherited_from_namespace_id,
           v.self_or_ancestor_archived, v.self_or_ancestor_deletion_scheduled, v.read_only)),
  0::bigint,
  'the view agrees with namespace_effective_state() on every column of every row'
);
select is(
  (select count(*) from lifecycle.effective_states v
    where v.full_path is distinct from lifecycle.namespace_full_path(v.namespace_id)),
  0::bigint,
  'the view''s full_path matches namespace_full_path() on every row'
);
select results_eq(
  format($$select effective_state, self_or_ancestor_archived, self_or_ancestor_deletion_scheduled, read_only,
                  full_path, inherited_from_namespace_id
             from lifecycle.effective_states where namespace_id = %s$$,
         lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent')),
  format($$values ('deletion_scheduled'::text, true, true, true, 'acme/eng/platform/infra/storage/backup/agent'::text, %s::bigint)$$,
         lifecycle_test.id_of('acme/eng/platform/infra/storage')),
  'the deepest project reads as expected from the view'
);

select * from finish();
rollback;
