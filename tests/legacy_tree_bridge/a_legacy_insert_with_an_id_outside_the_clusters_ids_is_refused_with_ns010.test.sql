-- A legacy INSERT creates its namespace with the legacy id only where the import would take it:
-- from 1 to 2^62 - 1, and within lifecycle.id_range when one is set. Any other id is refused
-- (NS010) with the legacy row, and the identity sequence stays where it was, so the application's
-- next creation succeeds. Run as the application's role, with all rights on its own tables.
begin;
select plan(7);
select lifecycle_test.create_gitlab_tables();
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
create temporary table seq on commit drop as select last_value from lifecycle.namespaces_id_seq;

set local role lifecycle_app;
select throws_ok($$insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
                   values (9223372036854775806, 'Far', 'far', 900001, 'Group', 20, 1)$$,
                 'NS010', 'namespace id 9223372036854775806 is outside the ids this cluster may take', 'an id of 2^63 - 2');
select throws_ok($$insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
                   values (4611686018427387904, 'Far', 'far', 900001, 'Group', 20, 1)$$,
                 'NS010', 'namespace id 4611686018427387904 is outside the ids this cluster may take', 'an id of 2^62');
reset role;
select is((select last_value from lifecycle.namespaces_id_seq), (select last_value from seq),
          'the identity sequence has not moved');
set local role lifecycle_app;
select lives_ok($$insert into lifecycle.namespaces (parent_id, type, path, name) values (900001, 'group', 'next', 'Next')$$,
                'the application''s next creation succeeds');
reset role;

-- The cluster's range, as id_range_set records it (its checks of the ids in use aside).
insert into lifecycle.id_range (first_id, last_id) values (1, 950000);
set local role lifecycle_app;
select throws_ok($$insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
                   values (950001, 'Other', 'other', 900001, 'Group', 20, 1)$$,
                 'NS010', 'namespace id 950001 is outside the ids this cluster may take', 'an id past the cluster''s range');
select lives_ok($$insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
                  values (949999, 'Inside', 'inside', 900001, 'Group', 20, 1)$$, 'an id inside it is taken');
reset role;
select results_eq($$select id, path from lifecycle.namespaces where id in (949999, 950001, 4611686018427387904, 9223372036854775806)$$,
                  $$values (949999::bigint, 'inside'::text)$$, 'only the id inside the range became a namespace');

select * from finish();
rollback;
