begin;
select plan(13);

-- Every staged row belongs to one of the organization's staged namespaces and names no other:
-- a membership, webhook, history row, details row or redirect of a namespace here that is
-- another organization's, or of none, a transfer request of, to or from one, and a namespace
-- below another organization's group are each refused with NS010 naming the row, and nothing is
-- written (a membership of another organization's namespace would make its holder an owner
-- there).
select lifecycle_test.create_movable_organization('fenced');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('fenced') as id;
create temporary table other on commit drop as select lifecycle_test.create_namespace(null, 'organization', 'fenced-out') as id;
select lifecycle_test.create_namespace(id, 'group', 'team') from other;
create temporary table team on commit drop as select lifecycle_test.id_of('fenced-out/team') as id;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;
-- A row added to the stream, counted in its header.
create function pg_temp.adding(kind text, data jsonb) returns text language sql as $$
  select format($s$insert into lifecycle.organization_imports (organization_id, kind, data) values (%1$s, %2$L, %3$L);
                   update lifecycle.organization_imports set data = jsonb_set(data, array['counts', %2$L], to_jsonb((data #>> array['counts', %2$L])::bigint + 1))
                    where kind = 'header'$s$, (select id from pg_temp.org), kind, data)
$$;
create temporary table request on commit drop as
select (e.data ->> 'id')::bigint as id from exported e where e.kind = 'transfer_request';

select throws_ok(pg_temp.staged_as(pg_temp.adding('member', jsonb_build_object('namespace_id', (select id from other), 'user_id', 666, 'access_level', 50))),
                 'NS010', 'the staged organization breaks the rules', 'an owner of another organization');
select is(lifecycle_test.detail_of(pg_temp.staged_as(pg_temp.adding('member', jsonb_build_object('namespace_id', (select id from other), 'user_id', 666, 'access_level', 50)))),
          format('organization_id=%s member %s: of a namespace not staged', (select id from org), (select id from other)),
          'the refusal names the row');
select throws_ok(pg_temp.staged_as(format($$update lifecycle.organization_imports set data = jsonb_set(data, '{namespace_id}', '%s') where kind = 'webhook'$$,
                                          (select id from team))),
                 'NS010', 'the staged organization breaks the rules', 'a webhook of another organization''s group');
select throws_ok(pg_temp.staged_as(pg_temp.adding('history', jsonb_build_object('id', 1, 'namespace_id', (select id from team), 'from_state', 0, 'to_state', 0,
                                                                                  'source', 'api', 'metadata', '{}'::jsonb))),
                 'NS010', 'the staged organization breaks the rules', 'a history row of another organization''s group');
select throws_ok(pg_temp.staged_as(pg_temp.adding('detail', jsonb_build_object('namespace_id', (select id from team), 'state_metadata', '{}'::jsonb))),
                 'NS010', 'the staged organization breaks the rules', 'a details row of another organization''s group');
select throws_ok(pg_temp.staged_as(format($$update lifecycle.organization_imports set data = jsonb_set(data, '{namespace_id}', '%s')
                                             where kind = 'redirect' and data ->> 'kind' = 'rename'$$, (select id from team))),
                 'NS010', 'the staged organization breaks the rules', 'a redirect into another organization''s group');
select throws_ok(pg_temp.staged_as(format($$update lifecycle.organization_imports set data = jsonb_set(data, '{namespace_id}', '%s')
                                             where kind = 'transfer_request'$$, (select id from team))),
                 'NS010', 'the staged organization breaks the rules', 'a transfer request of another organization''s group');
select throws_ok(pg_temp.staged_as(format($$update lifecycle.organization_imports set data = jsonb_set(data, '{from_parent_id}', '%s')
                                             where kind = 'transfer_request'$$, (select id from team))),
                 'NS010', 'the staged organization breaks the rules', 'a transfer request from another organization''s group');
select is(lifecycle_test.detail_of(pg_temp.staged_as(format($$update lifecycle.organization_imports set data = jsonb_set(data, '{from_parent_id}', '%s')
                                                             where kind = 'transfer_request'$$, (select id from team)))),
          format('organization_id=%s transfer_request %s: of, to or from a namespace not staged', (select id from org), (select id from request)),
          'the refusal names the request');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = data - 'namespace_id' where kind = 'webhook'$$),
                 'NS010', 'the staged organization breaks the rules', 'a webhook of no namespace');
select throws_ok(pg_temp.staged_as(pg_temp.adding('namespace', jsonb_build_object(
                   'id', 1099511627776, 'parent_id', (select id from team), 'traversal_ids', jsonb_build_array((select id from other), (select id from team), 1099511627776),
                   'type', 'project', 'path', 'planted', 'name', 'planted', 'visibility', 'private', 'state', 0, 'state_changes', 0,
                   'created_at', now(), 'updated_at', now()))),
                 'NS010', 'the staged namespaces do not form the organization''s tree', 'a namespace below another organization''s group');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');
select is_empty($$select * from lifecycle.namespace_members m where m.user_id = 666$$, 'nobody became a member of the other organization');

select * from finish();
rollback;
