-- The states table is the one place of the rule: a change of it rewrites the digest through its
-- trigger, and a plan cached before the change (a prepared statement past its custom plans, as a
-- pooled application connection holds) answers with the new names and flags at once.
begin;
select plan(6);
select lifecycle_test.lock_rule_tables();
-- pending_deletion is what lifecycle.state_path_live answers, and namespaces_live_path_key asks
-- that: the change below is refused while the index is there, so it goes first, as in a migration
-- (and before this test holds any row another test may wait for).
drop index lifecycle.namespaces_live_path_key;

select lifecycle_test.create_mixed_tree();
prepare effective(bigint) as
  select effective_state, self_or_ancestor_deletion_scheduled from lifecycle.namespace_effective_state($1);
-- Past five executions the plan cache switches to the generic plan it keeps.
select lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent') as agent,
       lifecycle_test.id_of('acme/eng/platform/infra/storage') as storage \gset
execute effective(:agent); execute effective(:agent); execute effective(:agent);
execute effective(:agent); execute effective(:agent); execute effective(:agent);
select results_eq(format('execute effective(%s)', :agent), $$values ('deletion_scheduled'::text, true)$$,
  'before: inherited deletion_scheduled, pending deletion');
select ok((select generic_plans > 0 from pg_prepared_statements where name = 'effective'),
  'the statement runs a cached generic plan');

update lifecycle.states set read_only = false, pending_deletion = false where name = 'deletion_scheduled';
update lifecycle.states set name = 'doomed' where name = 'deletion_scheduled';
select is((lifecycle.state_names())[2], 'doomed', 'the digest has the new name');
select is(lifecycle.state_flag_mask('pending_deletion') & (1::bigint << 2), 0::bigint, 'the digest has the new flags');
select results_eq(format('execute effective(%s)', :agent), $$values ('doomed'::text, false)$$,
  'the cached plan answers with the new name and flags');
select results_eq(format('select effective_state, self_or_ancestor_deletion_scheduled from lifecycle.namespace_effective_state(%s)', :agent),
  $$values ('doomed'::text, false)$$, 'and so does a new statement');

select * from finish();
rollback;
