-- Host names and public addresses are registered as they are: what a name resolves to is the
-- syncer's to check when it dials, and a public address in any numeric form is public.
begin;
select plan(6);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;

select lives_ok(
  pg_catalog.format($$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), %L, repeat('s', 16))$$, u),
  'lifecycle_app: ' || u || ' is accepted')
  from unnest(array[
    'https://hooks.example.com/lifecycle?tenant=7',
    'https://93.184.216.34/',
    'https://[2606:4700::1111]:8443/x',
    'http://0x5db8d822/',
    'http://8.8.8.8./'
  ]) u;

select is(
  (select count(*) from lifecycle.webhooks)::int, 5,
  'all five were registered');
reset role;

select * from finish();
rollback;
