-- The predicates of the namespace types (namespace_types_digest_write) answer what
-- lifecycle.namespace_types says for every type, and for a name without a row as a row with the
-- columns' defaults would (not known, not root-only, transferable, a possible parent); the seed
-- rows give them the hierarchy of docs/design.md §4.
begin;
select plan(6);

select is((select count(*) from lifecycle.namespace_types t
            where not lifecycle.namespace_type_known(t.name)
               or lifecycle.namespace_type_root_only(t.name) is distinct from t.root_only
               or lifecycle.namespace_type_transferable(t.name) is distinct from t.transferable
               or lifecycle.namespace_type_can_be_parent(t.name) is distinct from t.can_be_parent), 0::bigint,
  'every predicate says what each type''s row says');
select is(lifecycle.namespace_type_names(), (select array_agg(name order by name) from lifecycle.namespace_types),
  'namespace_type_names lists every type');
select ok(not lifecycle.namespace_type_known('team') and not lifecycle.namespace_type_root_only('team')
          and lifecycle.namespace_type_transferable('team') and lifecycle.namespace_type_can_be_parent('team'),
  'a name without a row answers as a row of defaults would, unknown');

select results_eq($$select name from lifecycle.namespace_types where root_only order by name$$,
  $$values ('organization'::text)$$, 'only an organization is only ever a root');
select results_eq($$select name from lifecycle.namespace_types where not transferable order by name$$,
  $$values ('organization'::text), ('user')$$, 'organizations and user namespaces do not move');
select results_eq($$select name from lifecycle.namespace_types where not can_be_parent order by name$$,
  $$values ('project'::text)$$, 'a project has no children');

select * from finish();
rollback;
