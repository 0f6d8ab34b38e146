-- Webhooks registered before migration 030 keep their URLs, forbidden or not (the syncer refuses
-- to send to them). The application can still deactivate or delete one, but not give it another
-- forbidden URL: only a new URL is judged.
begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
-- As it was before the check: the trigger does not fire for this insert.
set local session_replication_role = replica;
insert into lifecycle.webhooks (namespace_id, url, secret)
values (lifecycle_test.id_of('acme'), 'http://169.254.169.254/latest/meta-data/', repeat('s', 16));
reset session_replication_role;

grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;
select lives_ok(
  $$update lifecycle.webhooks set active = false where namespace_id = lifecycle_test.id_of('acme')$$,
  'lifecycle_app deactivates the old webhook');
select throws_ok(
  $$update lifecycle.webhooks set url = 'http://10.0.0.1/' where namespace_id = lifecycle_test.id_of('acme')$$,
  'NS010', 'invalid webhook', 'but cannot point it at another forbidden address');
select lives_ok(
  $$select lifecycle.webhook_remove((select id from lifecycle.webhooks where namespace_id = lifecycle_test.id_of('acme')))$$,
  'and deletes it');
reset role;

select * from finish();
rollback;
