-- The ranges of IANA's special-purpose address registries that are not globally reachable are
-- refused like the private ones (docs/design.md §6.2): 192.0.0.0/24, where a cloud's metadata
-- service answers (192.0.0.192), benchmarking (198.18.0.0/15), documentation, 6to4 and the
-- others, in every form an address is written in (numeric, IPv4-mapped, NAT64). The public
-- addresses beside them, and the special-purpose entries that are globally reachable, are
-- accepted.
begin;
select plan(36);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;

select throws_ok(
  pg_catalog.format($$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), %L, repeat('s', 16))$$, u),
  'NS010', 'invalid webhook', 'lifecycle_app: ' || u || ' is refused')
  from unnest(array[
    'http://192.0.0.192/opc/v2/instance/',
    'http://0xc00000c0/',
    'http://3221225664/',
    'http://[::ffff:192.0.0.192]/',
    'http://[64:ff9b::c000:c0]/',
    'http://192.0.0.9/',
    'http://198.18.0.1/',
    'http://198.19.255.255/',
    'http://[64:ff9b::c612:1]/',
    'http://192.0.2.1/',
    'http://198.51.100.1/',
    'http://203.0.113.1/',
    'http://192.88.99.1/',
    'http://255.255.255.255/',
    'http://[100::1]/',
    'http://[100:0:0:1::1]/',
    'http://[2001::1]/',
    'http://[2001:2::1]/',
    'http://[2001:db8::1]/',
    'http://[3fff::1]/',
    'http://[2002:7f00:1::]/',
    'http://[2002:a9fe:a9fe::1]/',
    'http://[5f00::1]/',
    'http://[4000::1]/',
    'http://[64:ff9b:2::1]/'
  ]) u;

select is(
  (select count(*) from lifecycle.webhooks)::int, 0,
  'nothing was registered');

select lives_ok(
  pg_catalog.format($$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), %L, repeat('s', 16))$$, u),
  'lifecycle_app: ' || u || ' is accepted')
  from unnest(array[
    'http://192.0.1.0/',
    'http://191.255.255.255/',
    'http://198.20.0.0/',
    'http://198.17.255.255/',
    'http://192.31.196.1/',
    'http://192.175.48.1/',
    'http://[64:ff9b::808:808]/',
    'http://[2620:4f:8000::1]/',
    'http://[2001:4860:4860::8888]/',
    'http://[2001:200::1]/'
  ]) u;
reset role;

select * from finish();
rollback;
