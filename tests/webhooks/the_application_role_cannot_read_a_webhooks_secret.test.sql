-- A webhook's secret signs its deliveries; whoever reads it can forge them. The application role
-- registers and rotates it but cannot read it back, nor can the worker role: only
-- lifecycle.webhook_deliveries_claim (SECURITY DEFINER, the syncer's) hands it out with the
-- deliveries it leases (docs/design.md §4.1).
begin;
select plan(8);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app, lifecycle_worker;
set local role lifecycle_app;

select lives_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'https://hooks.example/x', 'the-first-secret-0123')$$,
  'lifecycle_app registers a webhook with its secret');
select throws_ok(
  $$select secret from lifecycle.webhooks$$,
  '42501', null, 'lifecycle_app cannot select the secret');
select throws_ok(
  $$select * from lifecycle.webhooks$$,
  '42501', null, 'nor select every column');
select throws_ok(
  $$select id from lifecycle.webhooks where secret like 'the-first%'$$,
  '42501', null, 'nor test it in a WHERE');
select is(
  (select url from lifecycle.webhooks),
  'https://hooks.example/x',
  'lifecycle_app reads the other columns');
select lives_ok(
  $$update lifecycle.webhooks set secret = 'the-second-secret-0123' where url = 'https://hooks.example/x'$$,
  'lifecycle_app rotates the secret');
reset role;

set local role lifecycle_worker;
select throws_ok(
  $$select secret from lifecycle.webhooks$$,
  '42501', null, 'lifecycle_worker cannot select the secret either');
reset role;

select is(
  (select secret from lifecycle.webhooks),
  'the-second-secret-0123',
  'the rotated secret is stored');

select * from finish();
rollback;
