-- The syncer POSTs from inside the operator's network, so the application role may not register
-- a URL whose host is a loopback, private, link-local, carrier-grade NAT, unspecified or multicast
-- address, in whatever form it is written (decimal, hex, octal, shortened, IPv4-mapped IPv6), nor
-- localhost (docs/design.md §6.2). Each is refused with NS010 and a DETAIL naming the range.
begin;
select plan(22);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;

select throws_ok(
  pg_catalog.format($$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), %L, repeat('s', 16))$$, u),
  'NS010', 'invalid webhook', 'lifecycle_app: ' || u || ' is refused')
  from unnest(array[
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.1:5432/',
    'http://[::1]:22/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://224.0.0.1/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[ff02::1]/',
    'http://[::]/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'https://LOCALHOST:8443/',
    'http://api.localhost./'
  ]) u;

select is(
  (select count(*) from lifecycle.webhooks)::int, 0,
  'nothing was registered');
reset role;

select * from finish();
rollback;
