begin;
select plan(6);

-- A staged redirect of a path below the organization's own may still lead to another tenant's
-- namespace on the target: here an organization on the target was renamed from shadowed (the
-- moved organization's path, free) to shadowing, so shadowed/secret resolves to its group secret.
-- A staged redirect of shadowed/secret, or of its case form, would take that path over (the
-- longest redirected prefix wins): refused with NS010 naming the row, and nothing is written. The
-- organization's own redirects, which lead nowhere here, move in.
-- The move in below takes the effective states' lock row FOR UPDATE: taken first, so that two
-- such tests running at once wait for one another instead of deadlocking.
select 1 from lifecycle.lock_rows where name = 'effective_states' for update;
select lifecycle_test.create_movable_organization('shadowed');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('shadowed') as id;
create temporary table other on commit drop as select lifecycle_test.create_namespace(null, 'organization', 'shadowed') as id;
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) select id, 1000, 50 from other;
select lifecycle_test.create_namespace(id, 'group', 'secret') from other;
select lifecycle.namespace_rename(id, 'shadowing', 1000) from other;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;
-- The rename's redirect of the moved organization (shadowed/platform/site).
create temporary table renamed on commit drop as
select (e.data ->> 'id')::bigint as id from exported e where e.kind = 'redirect' and e.data ->> 'kind' = 'rename';

select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{old_full_path}', '"shadowed/secret"')
                                      where kind = 'redirect' and data ->> 'kind' = 'rename'$$),
                 'NS010', 'the staged organization breaks the rules', 'a path that resolves here to another organization''s group');
select is(lifecycle_test.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{old_full_path}', '"shadowed/secret"')
                                                 where kind = 'redirect' and data ->> 'kind' = 'rename'$$)),
          format('organization_id=%s redirect %s: old path shadowed/secret resolves here to namespace %s (shadowing/secret), outside the organization',
                 (select id from org), (select id from renamed), lifecycle_test.id_of('shadowing/secret')),
          'the refusal names the row, its old path and where it leads');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = data || '{"old_full_path": "Shadowed/Secret", "kind": "import"}'
                                      where kind = 'redirect' and data ->> 'kind' = 'rename'$$),
                 'NS010', 'the staged organization breaks the rules', 'its case form, as a legacy path');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');
select results_eq($$select namespace_id from lifecycle.namespace_resolve('shadowed/secret')$$, $$select lifecycle_test.id_of('shadowing/secret')$$,
                  'the path leads to the other organization''s group still');
select lives_ok(pg_temp.staged_as('select 1'), 'the untampered rows move in');

select * from finish();
rollback;
