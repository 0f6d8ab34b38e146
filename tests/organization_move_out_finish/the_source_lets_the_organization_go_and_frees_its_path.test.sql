begin;
select plan(9);

-- Once the target has the organization, organization_move_out_finish removes it here: its
-- namespaces with their details, memberships, redirects, webhooks and history; its path resolves
-- to nothing and is free for a new organization; the mark stays, finished, saying where it went;
-- one organization_moved_out fact. Another organization is untouched. Finished twice, the second
-- call does nothing.
select lifecycle_test.create_movable_organization('leaving');
select lifecycle_test.create_movable_organization('staying');
create temporary table org on commit drop as select lifecycle_test.id_of('leaving') as id;
create temporary table gone on commit drop as select n.id from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id;
create temporary table staying_rows on commit drop as
select (select count(*) from lifecycle.namespaces n where n.traversal_ids[1] = lifecycle_test.id_of('staying')) as namespaces,
       (select count(*) from lifecycle.namespace_state_updates u join lifecycle.namespaces n on n.id = u.namespace_id
         where n.traversal_ids[1] = lifecycle_test.id_of('staying')) as history;
create temporary table facts_from on commit drop as select coalesce(max(id), 0) as id from lifecycle.facts;

select lifecycle.organization_move_out_start('leaving', 'cluster-b');
select results_eq($$select kind, removed from lifecycle.organization_move_out_finish((select id from org))$$,
                  $$values ('history', 4::bigint), ('namespace', 7), ('transfer_request_dropped', 0)$$, 'it reports what left');
select is((select count(*) from lifecycle.namespaces n join gone g on g.id = n.id)
          + (select count(*) from lifecycle.namespace_details d join gone g on g.id = d.namespace_id)
          + (select count(*) from lifecycle.namespace_members m join gone g on g.id = m.namespace_id)
          + (select count(*) from lifecycle.namespace_redirects r join gone g on g.id = r.namespace_id)
          + (select count(*) from lifecycle.namespace_state_updates u join gone g on g.id = u.namespace_id)
          + (select count(*) from lifecycle.webhooks w join gone g on g.id = w.namespace_id)
          + (select count(*) from lifecycle.transfer_requests t join gone g on g.id = t.namespace_id)
          + (select count(*) from lifecycle.effective_states e join gone g on g.id = e.namespace_id),
          0::bigint, 'nothing of it is left');
select is_empty($$select * from lifecycle.namespace_resolve('leaving/platform/web')$$, 'its paths resolve to nothing');
select is_empty($$select * from lifecycle.namespace_resolve('leaving/platform/site')$$, 'nor its redirects');
select lives_ok($$select lifecycle_test.create_namespace(null, 'organization', 'leaving')$$, 'its path is free');
select results_eq($$select (select count(*) from lifecycle.namespaces n where n.traversal_ids[1] = lifecycle_test.id_of('staying')),
                           (select count(*) from lifecycle.namespace_state_updates u join lifecycle.namespaces n on n.id = u.namespace_id
                             where n.traversal_ids[1] = lifecycle_test.id_of('staying'))$$,
                  $$select namespaces, history from staying_rows$$, 'another organization is untouched');
select results_eq($$select direction, peer, finished_at is not null from lifecycle.organization_moves where organization_id = (select id from org)$$,
                  $$values ('out'::text, 'cluster-b'::text, true)$$, 'the mark stays, finished, saying where it went');
select results_eq($$select f.action, f.namespace_id, f.details ->> 'to' from lifecycle.facts f, facts_from w where f.id > w.id
                     and f.action not in ('namespace_created') order by f.id$$,
                  $$select 'organization_moved_out'::text, id, 'cluster-b'::text from org$$, 'one fact records it');
select is_empty($$select * from lifecycle.organization_move_out_finish((select id from org))$$, 'finished twice, nothing more happens');

select * from finish();
rollback;
