begin;
select plan(11);

-- lifecycle.audit_record reads nothing out of a fact of another shape than fact_emit's: it refuses
-- it with NS010 and the reason (lifecycle.fact_refusal), verified or not, and writes nothing. Before,
-- traversal_ids null failed deep in an extraction ("cannot extract elements from a scalar").
select throws_ok(
  $$select lifecycle.audit_record('k/0', '0/1', 0, now(), '{"action": "archived", "namespace_id": 1, "traversal_ids": null}', true)$$,
  'NS010', 'not a fact lifecycle.audit_record can record',
  'traversal_ids null is refused with NS010'
);
select throws_ok(
  $$select lifecycle.audit_record('k/0', '0/1', 0, now(), '{"action": "archived", "traversal_ids": [1, "2"]}', false)$$,
  'NS010', 'not a fact lifecycle.audit_record can record',
  'a path of ids with a string in it is refused, unverified too'
);
select is(lifecycle.fact_refusal('[1]'), 'the fact is array, not an object', 'not an object: refused');
select is(lifecycle.fact_refusal('{"action": ""}'), 'action is 0 bytes long, not 1 to 128', 'an empty action: refused');
select is(lifecycle.fact_refusal('{"action": "archived", "namespace_id": 1.0}'),
  'namespace_id is not an integer (bigint) or null', 'an id with a fraction (jsonb keeps 1.0 so): refused');
select is(lifecycle.fact_refusal('{"action": "archived", "actor_id": 9223372036854775808}'),
  'actor_id is not an integer (bigint) or null', 'an id beyond bigint: refused');
select is(lifecycle.fact_refusal('{"action": "archived", "details": null}'), 'details is null, not an object', 'details null: refused');
select is(
  lifecycle.fact_refusal('{"action": "archived", "namespace_id": 1e2, "actor_id": null, "traversal_ids": [], "full_path": null, "mac": 5}'),
  null, 'integers in any notation, nulls where allowed, an empty path and other keys of any type: accepted'
);
select is((select count(*) from lifecycle.audit_events), 0::bigint, 'nothing was recorded');
select isnt(
  lifecycle.audit_record('k/1', '0/1', 1, now(), '{"action": "archived", "namespace_id": 1e2, "traversal_ids": [1e2]}', false),
  null, 'a fact whose integers are in exponent notation is recorded'
);
select is((select namespace_id from lifecycle.audit_events where idempotency_key = 'k/1'), 100::bigint, 'with their values');

select * from finish();
rollback;
