-- A URL with userinfo (user:password@host) is refused: it would be sent along with every
-- delivery, and user@ hides the real host from whoever reads the URL (http://hooks.example@10.0.0.1/
-- goes to 10.0.0.1). Backslashes and percent-encoded hosts are refused too: parsers disagree on
-- them (Go decodes 127.0.0.%31 to 127.0.0.1).
begin;
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;

select throws_ok(
  pg_catalog.format($$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), %L, repeat('s', 16))$$, u),
  'NS010', 'invalid webhook', 'lifecycle_app: ' || u || ' is refused')
  from unnest(array[
    'https://user:pw@hooks.example/x',
    'https://hooks.example@hooks.example/x',
    'http://hooks.example\@10.0.0.1/',
    'http://127.0.0.%31/'
  ]) u;

select is(
  (select count(*) from lifecycle.webhooks)::int, 0,
  'nothing was registered');
reset role;

select * from finish();
rollback;
