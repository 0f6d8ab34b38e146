begin;
select plan(4);

-- organization_move_out_start takes the path of a live organization: a root group or user
-- namespace is refused with NS010, a path nothing holds with NS004, an empty peer with NS010.
select lifecycle_test.create_namespace(null, 'user', 'someone-o');
select lifecycle_test.create_namespace(null, 'organization', 'org-o');
select throws_ok($$select * from lifecycle.organization_move_out_start('someone-o', 'cluster-b')$$, 'NS010',
                 'only an organization moves between clusters, not a user', 'a user namespace');
select throws_ok($$select * from lifecycle.organization_move_out_start('nobody-o', 'cluster-b')$$, 'NS004',
                 'organization not found', 'a path nothing holds');
select throws_ok($$select * from lifecycle.organization_move_out_start('org-o/x', 'cluster-b')$$, 'NS004',
                 'organization not found', 'a path below a root');
select throws_ok($$select * from lifecycle.organization_move_out_start('org-o', ' ')$$, 'NS010',
                 'peer is required', 'no peer');

select * from finish();
rollback;
