begin;
select plan(7);

-- An organization does not start moving while anything in it is in the middle of something a
-- move would cut in two: a namespace in a state an operation owns (transfer_in_progress,
-- deletion_in_progress) or the host is finishing (creation_in_progress) is refused with NS003
-- (NS001 for the organization itself), and so is an open transfer request from or into it.
-- Refused, nothing is marked.
select lifecycle_test.create_namespace(null, 'organization', 'busy-a');
select lifecycle_test.create_namespace(lifecycle_test.id_of('busy-a'), 'group', 'g');
insert into lifecycle.namespaces (parent_id, type, path, name, state) values (lifecycle_test.id_of('busy-a/g'), 'project', 'p', 'p', 3);
select throws_ok($$select * from lifecycle.organization_move_out_start('busy-a', 'cluster-b')$$, 'NS003',
                 'cannot move organization busy-a: busy-a/g/p is creation_in_progress', 'a creation in progress below it');

insert into lifecycle.namespaces (parent_id, type, path, name, state) values (null, 'organization', 'busy-b', 'busy-b', 3);
select throws_ok($$select * from lifecycle.organization_move_out_start('busy-b', 'cluster-b')$$, 'NS001',
                 'cannot move organization busy-b: busy-b is creation_in_progress', 'the organization itself in creation');

select lifecycle_test.create_namespace(null, 'organization', 'busy-c');
select lifecycle_test.create_namespace(lifecycle_test.id_of('busy-c'), 'group', 'doomed');
update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('busy-c/doomed');
update lifecycle.namespaces set state = 4 where id = lifecycle_test.id_of('busy-c/doomed');
select throws_ok($$select * from lifecycle.organization_move_out_start('busy-c', 'cluster-b')$$, 'NS003',
                 'cannot move organization busy-c: busy-c/doomed is deletion_in_progress', 'a hard delete in progress below it');

-- A pending request out of the organization, and one into it from another.
select lifecycle_test.create_namespace(null, 'organization', 'busy-d');
select lifecycle_test.create_namespace(lifecycle_test.id_of('busy-d'), 'project', 'p');
select lifecycle_test.create_namespace(null, 'organization', 'busy-e');
select lifecycle_test.create_namespace(lifecycle_test.id_of('busy-e'), 'group', 'g');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('busy-d'), 1000, 50);
select lifecycle.namespace_transfer_request(lifecycle_test.id_of('busy-d/p'), lifecycle_test.id_of('busy-e/g'), 1000);
select throws_like($$select * from lifecycle.organization_move_out_start('busy-d', 'cluster-b')$$,
                   'cannot move organization busy-d: transfer request % is pending', 'an open request out of it');
select throws_like($$select * from lifecycle.organization_move_out_start('busy-e', 'cluster-b')$$,
                   'cannot move organization busy-e: transfer request % is pending', 'an open request into it');
select is((select count(*) from lifecycle.organization_moves), 0::bigint, 'nothing is marked');

-- Canceled, the request no longer holds it.
select lifecycle.namespace_transfer_cancel((select r.id from lifecycle.transfer_requests r where r.namespace_id = lifecycle_test.id_of('busy-d/p')), 1000);
select results_eq($$select resumed from lifecycle.organization_move_out_start('busy-e', 'cluster-b')$$, $$values (false)$$,
                  'once the request is closed, the move starts');

select * from finish();
rollback;
