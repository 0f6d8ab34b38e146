begin;
select plan(6);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

-- A document that conforms to the schema (no string longer than its maxLength) and is still larger
-- than the 16384-byte limit: a control character counts as one character but takes six bytes
-- (\u0001) in the document's text form.
create temporary table docs on commit drop as
select jsonb_build_object('last_error', repeat(chr(1), 2000)) as under_limit,
       jsonb_build_object('last_error', repeat(chr(1), 2000), 'reason', repeat(chr(1), 1000)) as over_limit;

select cmp_ok((select octet_length(over_limit::text) from docs), '>', 16384, 'the oversize document is larger than 16384 bytes');
select is(
  lifecycle.jsonb_schema_violation((select schema from lifecycle.json_schemas where name = 'state_metadata'),
                                   (select over_limit from docs)),
  null,
  'the oversize document conforms to the schema: only its size is wrong'
);

select throws_ok(
  format($$update lifecycle.namespace_details set state_metadata = %L where namespace_id = %s$$,
         (select over_limit from docs), lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata',
  'a direct write of more than 16384 bytes is NS010'
);
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', null, %L)$$,
         lifecycle_test.id_of('acme/eng'), (select over_limit from docs)),
  'NS010', 'invalid metadata',
  'namespace_transition with more than 16384 bytes of metadata is NS010'
);
select matches(
  lifecycle.state_metadata_refusal((select over_limit from docs)),
  '^metadata is \d+ bytes, more than the limit of 16384$',
  'the refusal names the size limit'
);
select lives_ok(
  format($$update lifecycle.namespace_details set state_metadata = %L where namespace_id = %s$$,
         (select under_limit from docs), lifecycle_test.id_of('acme/eng')),
  'the same kind of document under the limit is accepted'
);

select * from finish();
rollback;
