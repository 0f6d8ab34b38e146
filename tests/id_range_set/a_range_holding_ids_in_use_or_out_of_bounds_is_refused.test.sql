begin;
select plan(5);

-- id_range_set refuses, before it changes any sequence: bounds outside 1 <= first <= last <=
-- 2^62 - 1 (NS010); a range holding an id in use that no range of this cluster handed out (NS012:
-- another cluster may hand it out). (Setting a range is shown by the two-cluster test,
-- cmd/orgmove: ALTER SEQUENCE holds up every other session's nextval until the end of the
-- transaction, which pgTAP's parallel files would wait on.)
select throws_ok($$select * from lifecycle.id_range_set(0, 100)$$, 'NS010', 'invalid id range', 'first below 1');
select throws_ok($$select * from lifecycle.id_range_set(200, 100)$$, 'NS010', 'invalid id range', 'first above last');
select throws_ok($$select * from lifecycle.id_range_set(1, 4611686018427387904)$$, 'NS010', 'invalid id range', 'last above 2^62 - 1');
select lifecycle_test.create_namespace(null, 'organization', 'ranged-r');
select throws_like(format($$select * from lifecycle.id_range_set(%s, %s)$$, lifecycle_test.id_of('ranged-r'), lifecycle_test.id_of('ranged-r') + 1000000),
                   'the id range holds ids this cluster did not hand out from its range', 'a range holding a namespace''s id');
select is_empty($$select * from lifecycle.id_range$$, 'no range is recorded');

select * from finish();
rollback;
