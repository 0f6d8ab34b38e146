-- Webhooks are written by the application role directly; their fields are bounded and checked
-- with documented codes (docs/design.md §8), not raw check or foreign-key violations.
begin;
select plan(8);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;

select lives_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'https://hooks.example/x', repeat('s', 16))$$,
  'lifecycle_app: a valid webhook is accepted');
select throws_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'ftp://x', repeat('s', 16))$$,
  'NS010', 'invalid webhook', 'a URL that is not http(s) is refused');
select throws_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'https://x/' || repeat('a', 2040), repeat('s', 16))$$,
  'NS010', 'invalid webhook', 'a URL over 2048 characters is refused');
select throws_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'https://x', 'short')$$,
  'NS010', 'invalid webhook', 'a secret under 16 characters is refused');
select throws_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'https://x', repeat('s', 1025))$$,
  'NS010', 'invalid webhook', 'a secret over 1024 characters is refused');
select throws_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret, actions) values (lifecycle_test.id_of('acme'), 'https://x', repeat('s', 16),
      array(select 'a' || i from generate_series(1, 101) i))$$,
  'NS010', 'invalid webhook', 'more than 100 actions are refused');
select throws_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (-1, 'https://x', repeat('s', 16))$$,
  'NS004', 'namespace not found', 'a missing namespace is refused with NS004');
select throws_ok(
  $$update lifecycle.webhooks set url = 'https://x/' || repeat('a', 5000)$$,
  'NS010', 'invalid webhook', 'an update is checked too');
reset role;

select * from finish();
rollback;
