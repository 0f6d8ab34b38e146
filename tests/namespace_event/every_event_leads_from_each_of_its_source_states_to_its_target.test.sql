begin;
select plan(28);

-- One root per case, so no guard of one case touches another; creation_in_progress is an initial
-- state, the others are reached by raw UPDATEs (as the system).
select lifecycle_test.create_namespace(null, 'organization', c)
  from unnest(array['active1', 'active2', 'active3', 'active4', 'archived1', 'archived2', 'archived3',
                    'scheduled1', 'scheduled2', 'deleting', 'transferring', 'maintained']) as c;
update lifecycle.namespaces set state = 1 where path in ('archived1', 'archived2', 'archived3');
update lifecycle.namespaces set state = 2 where path in ('scheduled1', 'scheduled2', 'deleting');
update lifecycle.namespaces set state = 4 where path = 'deleting';
update lifecycle.namespaces set state = 5 where path = 'transferring';
update lifecycle.namespaces set state = 6 where path = 'maintained';
insert into lifecycle.namespaces (type, path, name, state) values ('organization', 'creating1', 'creating1', 3);
insert into lifecycle.namespaces (type, path, name, state) values ('organization', 'creating2', 'creating2', 3);

create temporary table cases (n int, path text, event text, from_state text, to_state text) on commit drop;
insert into cases values
  (1,  'creating1',    'creation_done',     'creation_in_progress', 'ancestor_inherited'),
  (2,  'active1',      'archive',           'ancestor_inherited',   'archived'),
  (3,  'archived1',    'unarchive',         'archived',             'ancestor_inherited'),
  (4,  'active2',      'schedule_deletion', 'ancestor_inherited',   'deletion_scheduled'),
  (5,  'archived2',    'schedule_deletion', 'archived',             'deletion_scheduled'),
  (6,  'scheduled1',   'restore',           'deletion_scheduled',   'ancestor_inherited'),
  (7,  'scheduled2',   'deletion_start',    'deletion_scheduled',   'deletion_in_progress'),
  (8,  'creating2',    'deletion_start',    'creation_in_progress', 'deletion_in_progress'),
  (9,  'deleting',     'deletion_failed',   'deletion_in_progress', 'deletion_scheduled'),
  (10, 'active3',      'transfer_start',    'ancestor_inherited',   'transfer_in_progress'),
  (11, 'archived3',    'transfer_start',    'archived',             'transfer_in_progress'),
  (12, 'transferring', 'transfer_done',     'transfer_in_progress', 'ancestor_inherited'),
  (13, 'active4',      'maintain',          'ancestor_inherited',   'maintenance'),
  (14, 'maintained',   'unmaintain',        'maintenance',          'ancestor_inherited');

select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, %L, null)$$,
         lifecycle_test.id_of(c.path), c.event),
  format($$values (%L, %L, true)$$, c.from_state, c.to_state),
  format('%s from %s leads to %s', c.event, c.from_state, c.to_state)
)
  from cases c order by c.n;

select is(
  lifecycle.state_name((select state from lifecycle.namespaces where id = lifecycle_test.id_of(c.path))),
  c.to_state,
  format('after %s from %s the stored state is %s', c.event, c.from_state, c.to_state)
)
  from cases c order by c.n;

select * from finish();
rollback;
