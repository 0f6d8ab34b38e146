begin;
select plan(10);

grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;

-- Creation is a plain INSERT, and memberships are the application's to manage: the fact triggers
-- run as the schema's owner, so the application needs no privilege on them. A path no other test
-- creates: this test grants before it inserts, the others insert 'acme' before they grant, and two
-- such files run side by side (pg_prove --jobs 2) each waited for the other: a deadlock.
select lives_ok($$insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'appco', 'Appco')$$,
  'lifecycle_app creates a namespace with a plain INSERT');
select lives_ok($$insert into lifecycle.namespaces (parent_id, type, path, name)
  values (lifecycle_test.id_of('appco'), 'group', 'eng', 'Eng')$$, 'and one below it');
select lives_ok($$insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
  values (lifecycle_test.id_of('appco'), 1, 50)$$, 'lifecycle_app manages memberships');

select throws_ok(format('update lifecycle.namespaces set parent_id = null where id = %s', lifecycle_test.id_of('appco/eng')),
  '42501', null, 'lifecycle_app cannot write parent_id');
select throws_ok(format('update lifecycle.namespaces set traversal_ids = array[1] where id = %s', lifecycle_test.id_of('appco/eng')),
  '42501', null, 'lifecycle_app cannot write traversal_ids');
select throws_ok(format('delete from lifecycle.namespaces where id = %s', lifecycle_test.id_of('appco/eng')),
  '42501', null, 'lifecycle_app cannot delete namespaces');
select throws_ok($$insert into lifecycle.audit_events (idempotency_key, source_lsn, source_position, committed_at, action)
  values ('k', '0/0', 0, now(), 'archived')$$, '42501', null, 'lifecycle_app cannot write audit rows');
select throws_ok($$insert into lifecycle.notifications (user_id, audit_event_id, action) values (1, 1, 'archived')$$,
  '42501', null, 'lifecycle_app cannot write notifications');
select throws_ok($$select lifecycle.fact_emit('archived', 1, array[1], 'acme', 1, '{}')$$,
  '42501', null, 'lifecycle_app cannot emit a fact');
select throws_ok($$select * from lifecycle.fact_key$$, '42501', null, 'lifecycle_app cannot read the key facts are signed with');

reset role;
select * from finish();
rollback;
