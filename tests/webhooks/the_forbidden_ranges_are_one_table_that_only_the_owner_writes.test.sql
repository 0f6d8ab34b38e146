-- The forbidden ranges are the rows of lifecycle.webhook_forbidden_ranges, which the registration
-- check reads (and the syncer's dial guard: TestAddressRulesAgreeWithSQL): a range the schema
-- owner adds is refused, one removed is not. The application and the workers read the table and
-- cannot write it (42501); an operator's own receivers go in settings.webhook_allowed_hosts.
begin;
select plan(13);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app, lifecycle_worker;

set local role lifecycle_app;
select ok((select count(*) from lifecycle.webhook_forbidden_ranges) > 50, 'lifecycle_app reads the ranges');
select throws_ok(s, '42501', null, 'lifecycle_app: ' || s || ' is refused')
  from unnest(array[
    $$insert into lifecycle.webhook_forbidden_ranges (network, reason, source) values ('203.0.114.0/24', 'mine', 'mine')$$,
    $$delete from lifecycle.webhook_forbidden_ranges where network = '192.0.0.0/24'$$,
    $$update lifecycle.webhook_forbidden_ranges set network = '192.0.0.0/32' where network = '192.0.0.0/24'$$,
    $$truncate lifecycle.webhook_forbidden_ranges$$
  ]) s;
reset role;

set local role lifecycle_worker;
select ok((select count(*) from lifecycle.webhook_forbidden_ranges) > 50, 'lifecycle_worker (the syncer) reads the ranges');
select throws_ok(s, '42501', null, 'lifecycle_worker: ' || s || ' is refused')
  from unnest(array[
    $$insert into lifecycle.webhook_forbidden_ranges (network, reason, source) values ('203.0.114.0/24', 'mine', 'mine')$$,
    $$delete from lifecycle.webhook_forbidden_ranges where network = '192.0.0.0/24'$$
  ]) s;
reset role;

-- The owner's changes are what the check reads.
insert into lifecycle.webhook_forbidden_ranges (network, reason, source)
values ('203.0.114.0/24', 'a range of this test (203.0.114.0/24)', 'this test');
delete from lifecycle.webhook_forbidden_ranges where network = '198.18.0.0/15';
set local role lifecycle_app;
select throws_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'http://203.0.114.7/', repeat('s', 16))$$,
  'NS010', 'invalid webhook', 'an address in a range the owner added is refused');
select is(lifecycle.webhook_url_refusal('http://203.0.114.7/', '{}'), 'url host 203.0.114.7 is a range of this test (203.0.114.0/24)',
  'with the reason of its row');
select lives_ok(
  $$insert into lifecycle.webhooks (namespace_id, url, secret) values (lifecycle_test.id_of('acme'), 'http://198.18.0.1/', repeat('s', 16))$$,
  'an address in a range the owner removed is accepted');
reset role;

select throws_ok(
  $$insert into lifecycle.webhook_forbidden_ranges (network, reason, source) values ('203.0.115.0/24', '', 'this test')$$,
  '23514', null, 'a range without a reason is refused (the syncer reads an empty reason as none)');
select throws_ok(
  $$insert into lifecycle.webhook_forbidden_ranges (network, reason, source) values ('203.0.114.0/24', 'again', 'this test')$$,
  '23505', null, 'a range is listed once');

select * from finish();
rollback;
