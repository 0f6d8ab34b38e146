begin;
select plan(7);

-- The rows of an export name only the organization's paths: a staged redirect whose old path lies
-- outside its path and below (case aside) is refused with NS010 naming the row, and nothing is
-- written. Here an organization on this cluster was renamed from hijacked-old to hijacked-new, and the
-- staged redirects claim hijacked-old, and its case form as a legacy path (kind import, which
-- namespace_resolve reads before the live namespaces), for the moved organization's projects.
-- The move in below takes the effective states' lock row FOR UPDATE: taken first, so that two
-- such tests running at once wait for one another instead of deadlocking.
select 1 from lifecycle.lock_rows where name = 'effective_states' for update;
select lifecycle_test.create_movable_organization('hijacker');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('hijacker') as id;
create temporary table victim on commit drop as select lifecycle_test.create_namespace(null, 'organization', 'hijacked-old') as id;
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) select id, 1000, 50 from victim;
select lifecycle.namespace_rename(id, 'hijacked-new', 1000) from victim;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;
-- The rename's redirect of the moved organization (hijacker/platform/site).
create temporary table renamed on commit drop as
select (e.data ->> 'id')::bigint as id from exported e where e.kind = 'redirect' and e.data ->> 'kind' = 'rename';

select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{old_full_path}', '"hijacked-old"')
                                      where kind = 'redirect' and data ->> 'kind' = 'rename'$$),
                 'NS010', 'the staged organization breaks the rules', 'another organization''s old path');
select is(lifecycle_test.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{old_full_path}', '"hijacked-old/deep/path"')
                                                 where kind = 'redirect' and data ->> 'kind' = 'rename'$$)),
          format('organization_id=%s redirect %s: old path hijacked-old/deep/path lies outside the organization''s paths (hijacker and below, case aside)',
                 (select id from org), (select id from renamed)),
          'the refusal names the row and its old path');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = data || '{"old_full_path": "Hijacked-Old", "kind": "import"}'
                                      where kind = 'redirect' and data ->> 'kind' = 'transfer'$$),
                 'NS010', 'the staged organization breaks the rules', 'its case form, as a legacy path');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{old_full_path}', '"hijacker-other/platform"')
                                      where kind = 'redirect' and data ->> 'kind' = 'rename'$$),
                 'NS010', 'the staged organization breaks the rules', 'a path that only begins with the organization''s path');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');
select results_eq($$select namespace_id from lifecycle.namespace_resolve('hijacked-old')$$, $$select id from victim$$,
                  'the other organization''s old path leads to it still');
-- The organization's own path in another case is its own.
select lives_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = data || '{"old_full_path": "Hijacker/Platform/Tool", "kind": "import"}'
                                     where kind = 'redirect' and data ->> 'kind' = 'transfer'$$),
                'a legacy path of its own, in capitals, moves in');

select * from finish();
rollback;
