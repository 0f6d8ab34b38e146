-- Webhooks are written by the application role directly: their namespace (NS004), URL, secret and
-- actions (NS010) are checked here on every write, with a message saying which, instead of a raw
-- check or foreign-key violation.
-- Bounded so that no client can make the syncer carry arbitrarily large values (docs/design.md §8):
-- a URL of at most 2,048 characters (http or https), a secret of 16 to 1,024 characters, at most
-- 100 actions of at most 100 characters each.
-- The URL must not point the syncer at the operator's own network (webhook_url_refusal: no
-- userinfo, no localhost, no IP-literal host in a range of lifecycle.webhook_forbidden_ranges,
-- whatever numeric or Unicode form it is written in), unless
-- lifecycle.settings.webhook_allowed_hosts allows it. This is the early answer to the
-- application; the syncer checks every resolved address again when it dials, since a host name
-- may resolve anywhere, and may change.
create or replace function lifecycle.webhooks_validate()
returns trigger
language plpgsql
set search_path to ''
as $$
declare
  refusal text;
begin
  if not exists (select from lifecycle.namespaces n where n.id = new.namespace_id) then
    raise exception using errcode = 'NS004', message = 'namespace not found',
      detail = pg_catalog.format('namespace_id=%s', new.namespace_id),
      hint = 'A webhook belongs to an existing namespace.';
  end if;
  refusal := case
    when new.url is null then 'url is required'
    when pg_catalog.char_length(new.url) > 2048
      then pg_catalog.format('url is %s characters long, more than 2048', pg_catalog.char_length(new.url))
    when new.url !~ '^https?://[^[:space:][:cntrl:]]+$' then 'url must be an http:// or https:// URL without spaces or control characters'
    when new.secret is null then 'secret is required'
    when pg_catalog.char_length(new.secret) < 16 then 'secret must be at least 16 characters long'
    when pg_catalog.char_length(new.secret) > 1024
      then pg_catalog.format('secret is %s characters long, more than 1024', pg_catalog.char_length(new.secret))
    when new.actions is null then 'actions must be an array (empty: every action)'
    when pg_catalog.cardinality(new.actions) > 100
      then pg_catalog.format('%s actions, more than 100', pg_catalog.cardinality(new.actions))
    when exists (select from pg_catalog.unnest(new.actions) a where a is null or pg_catalog.char_length(a) > 100)
      then 'every action must be a name of at most 100 characters'
  end;
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid webhook', detail = refusal,
      hint = 'A webhook needs an http(s) URL of at most 2048 characters, a secret of 16 to 1024 characters and at most 100 action names.';
  end if;
  -- Only a new URL is judged: a row whose URL the check refuses now (the allowlist narrowed, a
  -- range added) can still be deactivated or deleted; the syncer refuses to send it.
  if tg_op = 'INSERT' or new.url is distinct from old.url then
    refusal := lifecycle.webhook_url_refusal(new.url, (select s.webhook_allowed_hosts from lifecycle.settings s));
    if refusal is not null then
      raise exception using errcode = 'NS010', message = 'invalid webhook', detail = refusal,
        hint = 'A webhook URL names a public host: no user name or password, no localhost, no address in a range of lifecycle.webhook_forbidden_ranges (loopback, private, link-local, carrier-grade NAT, documentation, benchmarking, multicast, reserved, …) in any form. The operator may allow a host or range in lifecycle.settings.webhook_allowed_hosts.';
    end if;
  end if;
  return new;
end
$$;

create or replace trigger webhooks_validate
  before insert or update on lifecycle.webhooks
  for each row execute function lifecycle.webhooks_validate();
