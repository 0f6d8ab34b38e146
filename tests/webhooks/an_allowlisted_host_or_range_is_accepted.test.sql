-- The operator (the schema owner) may allow receivers of its own in
-- lifecycle.settings.webhook_allowed_hosts: a host name, or an address or range within which
-- IP-literal hosts in any form are accepted. Everything else stays refused.
begin;
select plan(8);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
update lifecycle.settings set webhook_allowed_hosts = '{localhost, hooks.internal, 127.0.0.1, 10.20.0.0/16}';
grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;

select lives_ok(
  pg_catalog.format($$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), %L, repeat('s', 16))$$, u),
  'lifecycle_app: ' || u || ' is accepted once allowed')
  from unnest(array[
    'http://localhost:8080/hook',
    'http://127.0.0.1:8080/hook',
    'http://0x7f000001:8080/hook',
    'http://10.20.3.4/hook'
  ]) u;

select throws_ok(
  pg_catalog.format($$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), %L, repeat('s', 16))$$, u),
  'NS010', 'invalid webhook', 'lifecycle_app: ' || u || ' is still refused')
  from unnest(array[
    'http://127.0.0.2:8080/hook',
    'http://10.21.0.1/hook',
    'http://169.254.169.254/'
  ]) u;
reset role;


set local role lifecycle_app;
select throws_ok(
  $$update lifecycle.settings set webhook_allowed_hosts = '{10.0.0.0/8}'$$,
  '42501', null, 'only the schema owner may change the allowlist (lifecycle_app is refused)');
reset role;

select * from finish();
rollback;
