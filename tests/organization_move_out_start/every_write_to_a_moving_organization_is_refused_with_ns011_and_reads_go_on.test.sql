begin;
select plan(19);

-- From organization_move_out_start until the move ends, every write to the organization or
-- anything in it is refused with NS011, whichever way the application makes it (the API, an
-- INSERT, a membership, a webhook, a name), and reads go on; another organization is untouched.
select lifecycle_test.create_movable_organization('mover-w');
select lifecycle_test.create_namespace(null, 'organization', 'stayer-w');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('stayer-w'), 1000, 50);
create temporary table ids on commit drop as
select lifecycle_test.id_of('mover-w') as org, lifecycle_test.id_of('mover-w/platform') as platform,
       lifecycle_test.id_of('mover-w/platform/web') as web, lifecycle_test.id_of('mover-w/infra') as infra,
       lifecycle_test.id_of('stayer-w') as other;
grant select on ids to lifecycle_app;

select results_eq($$select organization_id, resumed from lifecycle.organization_move_out_start('mover-w', 'cluster-b')$$,
                  $$select org, false from ids$$, 'the move starts');

set local role lifecycle_app;
select throws_ok($$select lifecycle.namespace_event((select web from ids), 'archive', 1000)$$, 'NS011',
                 'organization is moving to another cluster', 'an event below it');
select throws_ok($$select lifecycle.namespace_transition((select org from ids), 'archived', 1000)$$, 'NS011',
                 'organization is moving to another cluster', 'a transition of the organization itself');
select throws_ok($$select lifecycle.namespace_rename((select web from ids), 'www', 1000)$$, 'NS011',
                 'organization is moving to another cluster', 'a rename');
select throws_ok($$select lifecycle.namespace_set_visibility((select platform from ids), 'private', 1000)$$, 'NS011',
                 'organization is moving to another cluster', 'a visibility change');
select throws_ok($$select lifecycle.namespace_transfer_request((select web from ids), (select infra from ids), 1000)$$, 'NS011',
                 'organization is moving to another cluster', 'a transfer within it');
select throws_ok($$insert into lifecycle.namespaces (parent_id, type, path, name) values ((select platform from ids), 'project', 'new', 'New')$$,
                 'NS011', 'organization is moving to another cluster', 'a creation below it');
select throws_ok($$insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ((select web from ids), 1002, 30)$$,
                 'NS011', 'organization is moving to another cluster', 'a new membership');
select throws_ok($$update lifecycle.namespace_members set access_level = 40 where namespace_id = (select platform from ids) and user_id = 1001$$,
                 'NS011', 'organization is moving to another cluster', 'a changed membership');
select throws_ok($$select lifecycle.namespace_member_remove((select platform from ids), 1001)$$,
                 'NS011', 'organization is moving to another cluster', 'a removed membership');
select throws_ok($$insert into lifecycle.webhooks (namespace_id, url, secret) values ((select web from ids), 'https://hooks.example.com/x', 'a-secret-of-16-chars')$$,
                 'NS011', 'organization is moving to another cluster', 'a new webhook');
select throws_ok($$select lifecycle.webhook_remove((select id from lifecycle.webhooks where namespace_id = (select org from ids)))$$,
                 'NS011', 'organization is moving to another cluster', 'a removed webhook');
select throws_ok($$update lifecycle.namespaces set name = 'Renamed' where id = (select web from ids)$$,
                 'NS011', 'organization is moving to another cluster', 'a new name');

select results_eq($$select namespace_id from lifecycle.namespace_resolve('mover-w/platform/web')$$,
                  $$select web from ids$$, 'its paths still resolve');
select results_eq($$select effective_state from lifecycle.namespace_effective_state((select web from ids))$$,
                  $$values ('active'::text)$$, 'its states are still read');
select results_eq($$select count(*) from lifecycle.namespace_members where namespace_id = (select platform from ids)$$,
                  $$values (1::bigint)$$, 'its memberships are still read');
select lives_ok($$select lifecycle.namespace_event((select other from ids), 'archive', 1000)$$, 'another organization changes');
select lives_ok($$insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ((select other from ids), 1002, 30)$$,
                'another organization gets a member');
reset role;
select is((select count(*) from lifecycle.namespace_members m join ids on m.namespace_id in (ids.org, ids.platform)),
          2::bigint, 'nothing of the refused writes is left');

select * from finish();
rollback;
