-- webhook_allowed_hosts holds lower-case host names and addresses or CIDR ranges in the forms
-- PostgreSQL and the syncer (Go's net/netip) read alike; anything else is refused with NS010 rather
-- than silently allowing nothing, or something else.
begin;
select plan(9);

select throws_ok(
  pg_catalog.format($$update lifecycle.settings set webhook_allowed_hosts = %L$$, v),
  'NS010', 'invalid settings', 'webhook_allowed_hosts ' || v || ' is refused')
  from unnest(array[
    '{Hooks.Internal}',
    '{"hooks.internal:8080"}',
    '{"http://hooks.internal"}',
    '{0x7f000001}',
    '{010.0.0.1}',
    '{10.0.0.0/33}',
    '{""}'
  ]) v;
select throws_ok(
  $$update lifecycle.settings set webhook_allowed_hosts = null$$,
  'NS010', 'invalid settings', 'null is refused');
select lives_ok(
  $$update lifecycle.settings set webhook_allowed_hosts = '{hooks.internal, 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8}'$$,
  'host names, addresses and ranges are accepted');

select * from finish();
rollback;
