begin;
select plan(7);

-- lifecycle.fact_dead_letter_record writes a message that cannot be an audit row at its source
-- position, once: a replay finds the position taken and writes nothing. It keeps any bytes, cut to
-- the first 8192, and the whole size.
select isnt(
  lifecycle.fact_dead_letter_record('0/10', 2, now(), 'too_large', '70000 bytes', pg_catalog.decode(repeat('00ff', 35000), 'hex'), 70000),
  null, 'a dead letter is recorded'
);
select is(
  lifecycle.fact_dead_letter_record('0/10', 2, now(), 'unreadable', 'again', '\x00', 1),
  null, 'the same source position again records nothing'
);
select results_eq(
  $$select reason, octet_length(payload), payload_bytes, substr(payload, 1, 2) from lifecycle.fact_dead_letters$$,
  $$values ('too_large'::text, 8192, 70000::bigint, '\x00ff'::bytea)$$,
  'one dead letter, its first 8192 bytes (a NUL among them) and its whole size'
);
select throws_ok(
  $$select lifecycle.fact_dead_letter_record('0/10', 3, now(), 'whatever', 'x', '\x00', 1)$$,
  '23514', null, 'a reason outside the fixed set is refused'
);

-- Who: the application and the workers read them; only the syncer's role (a worker) records them.
select ok(has_table_privilege('lifecycle_app', 'lifecycle.fact_dead_letters', 'select'), 'lifecycle_app may read dead letters');
select ok(has_function_privilege('lifecycle_worker',
  'lifecycle.fact_dead_letter_record(pg_lsn, int, timestamptz, text, text, bytea, bigint)', 'execute'), 'lifecycle_worker may record them');
select ok(not has_function_privilege('lifecycle_app',
  'lifecycle.fact_dead_letter_record(pg_lsn, int, timestamptz, text, text, bytea, bigint)', 'execute'), 'lifecycle_app may not');

select * from finish();
rollback;
