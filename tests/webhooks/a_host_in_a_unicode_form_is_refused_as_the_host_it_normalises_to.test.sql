-- A resolver reads a host in Unicode NFKC, with the ideographic full stops as dots and in lower
-- case (IDNA), so the registration check does too: ⓛocalhost is localhost, １２７.０.０.１ is
-- 127.0.0.1, and each is refused with NS010 as what it reaches. A character that normalises to a
-- delimiter does not hide the host behind it. The syncer's dial guard reads hosts the same way
-- (TestTheGuardRefusesWhatTheSQLRefusesInEveryForm).
begin;
select plan(20);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;

select throws_ok(
  pg_catalog.format($$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), %L, repeat('s', 16))$$, u),
  'NS010', 'invalid webhook', 'lifecycle_app: ' || u || ' is refused')
  from unnest(array[
    'http://ⓛocalhost/',
    'http://Ⓛocalhost:8080/',
    'http://ＬＯＣＡＬＨＯＳＴ/',
    'http://api.ⓛocalhost./',
    'http://１２７.０.０.１/',
    'http://127。0。0。1/',
    'http://127．0．0．1/',
    'http://127｡0｡0｡1/',
    'http://１２７.０.０.１：５４３２/',
    'http://０ｘ７ｆ０００００１/',
    'http://①⑨②.０.０.①⑨②/latest/',
    'http://１６９.２５４.１６９.２５４/',
    'http://[：：１]/',
    'http://hooks.example／@127.0.0.1/'
  ]) u;

select is(
  (select count(*) from lifecycle.webhooks)::int, 0,
  'nothing was registered');

-- The DETAIL names the host as it was read.
select is(lifecycle.webhook_url_refusal('http://ⓛocalhost/', '{}'), 'url host localhost is this machine (localhost)',
  'ⓛocalhost is read as localhost');
select is(lifecycle.webhook_url_refusal('http://１２７。０．０｡１/', '{}'), 'url host 127.0.0.1 is loopback (127.0.0.0/8)',
  '１２７。０．０｡１ is read as 127.0.0.1');

select lives_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'https://bücher.example/hook', repeat('s', 16))$$,
  'an international host name is accepted');
reset role;

select lives_ok(
  $$update lifecycle.settings set webhook_allowed_hosts = '{localhost}'$$,
  'the operator allows localhost');
set local role lifecycle_app;
select lives_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'http://ⓛocalhost:8080/', repeat('s', 16))$$,
  'ⓛocalhost is then accepted, as the localhost it is');
reset role;

select * from finish();
rollback;
