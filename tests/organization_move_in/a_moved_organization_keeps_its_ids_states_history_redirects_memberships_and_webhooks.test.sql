begin;
select plan(14);

-- A round trip in one database: what organization_export reads, organization_move_out_finish
-- removes and organization_move_in writes back is the organization as it was, row for row, ids
-- included; nothing of it is told as new (no creation, membership or request fact), one
-- organization_moved_in fact is; its effective states are written; the invariants hold.
-- One database plays both clusters, so this transaction takes the effective states' lock row FOR
-- KEY SHARE (the move out's DELETE) and then FOR UPDATE (the move in): taken FOR UPDATE first, so
-- that two such tests running at once wait for one another instead of deadlocking.
select 1 from lifecycle.lock_rows where name = 'effective_states' for update;
select lifecycle_test.create_movable_organization('roundtrip');
create temporary table org on commit drop as select lifecycle_test.id_of('roundtrip') as id;
create temporary table before_ns on commit drop as
select n.* from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id;
create temporary table before_rows on commit drop as
select 'detail' as kind, to_jsonb(d) as data from lifecycle.namespace_details d join before_ns n on n.id = d.namespace_id
union all select 'history', to_jsonb(u) from lifecycle.namespace_state_updates u join before_ns n on n.id = u.namespace_id
union all select 'redirect', to_jsonb(r) from lifecycle.namespace_redirects r join before_ns n on n.id = r.namespace_id
union all select 'member', to_jsonb(m) from lifecycle.namespace_members m join before_ns n on n.id = m.namespace_id
union all select 'webhook', to_jsonb(w) from lifecycle.webhooks w join before_ns n on n.id = w.namespace_id
union all select 'transfer_request', to_jsonb(t) from lifecycle.transfer_requests t join before_ns n on n.id = t.namespace_id;

select lifecycle.organization_move_out_start('roundtrip', 'cluster-b');
create temporary table exported on commit drop as select e.* from org, lifecycle.organization_export(org.id) e;
select results_eq($$select kind, count(*) from exported group by kind order by kind$$,
                  $$values ('detail', 7::bigint), ('header', 1), ('history', 4), ('member', 2), ('namespace', 7), ('redirect', 2),
                           ('transfer_request', 1), ('webhook', 1)$$,
                  'the export holds every row of the organization, and a header');
select lifecycle.organization_move_out_finish(org.id) from org;
select is((select count(*) from lifecycle.namespaces n join before_ns b on b.id = n.id), 0::bigint, 'the source let it go');

create temporary table facts_from on commit drop as select coalesce(max(id), 0) as id from lifecycle.facts;
insert into lifecycle.organization_imports select org.id, e.kind, e.data from org, exported e;
select results_eq($$select kind, moved from lifecycle.organization_move_in((select id from org), 'cluster-a')$$,
                  $$values ('detail', 7::bigint), ('history', 4), ('member', 2), ('namespace', 7), ('redirect', 2),
                           ('transfer_request', 1), ('webhook', 1)$$,
                  'the target wrote every row');

select set_eq($$select to_jsonb(n) from lifecycle.namespaces n join before_ns b on b.id = n.id$$,
              $$select to_jsonb(b) from before_ns b$$, 'the namespaces, with their ids, states, paths and counts');
select set_eq($$select kind, data from before_rows where kind = 'detail'$$,
              $$select 'detail', to_jsonb(d) from lifecycle.namespace_details d join before_ns n on n.id = d.namespace_id$$, 'the details');
select set_eq($$select kind, data from before_rows where kind = 'history'$$,
              $$select 'history', to_jsonb(u) from lifecycle.namespace_state_updates u join before_ns n on n.id = u.namespace_id$$, 'the history');
select set_eq($$select kind, data from before_rows where kind = 'redirect'$$,
              $$select 'redirect', to_jsonb(r) from lifecycle.namespace_redirects r join before_ns n on n.id = r.namespace_id$$, 'the redirects');
select set_eq($$select kind, data from before_rows where kind = 'member'$$,
              $$select 'member', to_jsonb(m) from lifecycle.namespace_members m join before_ns n on n.id = m.namespace_id$$, 'the memberships');
select set_eq($$select kind, data from before_rows where kind in ('webhook', 'transfer_request')$$,
              $$select 'webhook', to_jsonb(w) from lifecycle.webhooks w join before_ns n on n.id = w.namespace_id
                union all select 'transfer_request', to_jsonb(t) from lifecycle.transfer_requests t join before_ns n on n.id = t.namespace_id$$,
              'the webhooks and the transfer request');
select results_eq($$select namespace_id from lifecycle.namespace_resolve('roundtrip/platform/site')$$,
                  $$select lifecycle_test.id_of('roundtrip/platform/web')$$, 'the renamed project''s old path still resolves');
select results_eq($$select f.action from lifecycle.facts f, facts_from w where f.id > w.id order by f.id$$,
                  $$values ('organization_moved_in')$$, 'one fact, organization_moved_in, and none for the rows as new');
select is_empty($$select * from lifecycle.check_invariants() c join before_ns n on n.id = c.namespace_id$$, 'the invariants hold');
select set_eq($$select e.namespace_id, e.effective_state from lifecycle.effective_states e join before_ns n on n.id = e.namespace_id$$,
              $$select n.id, (lifecycle.namespace_effective_state(n.id)).effective_state from before_ns n$$,
              'its effective states are written');
select results_eq($$select direction, peer, finished_at is not null from lifecycle.organization_moves where organization_id = (select id from org)$$,
                  $$values ('in'::text, 'cluster-a'::text, true)$$, 'the target records where it came from');

select * from finish();
rollback;
