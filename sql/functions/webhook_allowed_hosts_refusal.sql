-- Why a value of lifecycle.settings.webhook_allowed_hosts is refused, or null (settings_refusal).
-- Each entry is either a host name, lower case as DNS compares it (webhook URLs with exactly that
-- host may be registered and are sent to whatever it resolves to: the operator vouches for it), or
-- an address or CIDR range in dotted or colon form (IP-literal hosts, and addresses a name resolves
-- to, within it are not refused). A name that ends in a number would be read as an IPv4 address in
-- a URL (webhook_url_refusal), so it must be written as one; at most 100 entries, so that the
-- check on every registration and dial stays small.
create or replace function lifecycle.webhook_allowed_hosts_refusal(allowed text[])
returns text
language plpgsql
immutable
set search_path to ''
as $$
declare
  entry text;
begin
  if allowed is null then
    return 'webhook_allowed_hosts must be an array (empty: nothing allowed beyond public addresses)';
  elsif pg_catalog.cardinality(allowed) > 100 then
    return pg_catalog.format('webhook_allowed_hosts has %s entries, more than 100', pg_catalog.cardinality(allowed));
  end if;
  foreach entry in array allowed loop
    if entry is null or entry = '' then
      return 'webhook_allowed_hosts: every entry must be a host name or an address or CIDR range';
    elsif entry ~ ':' or entry ~ '/' or entry ~ '(^|\.)(0x[0-9a-fA-F]*|[0-9]+)$' then
      begin
        perform entry::inet;
      exception when invalid_text_representation then
        return pg_catalog.format('webhook_allowed_hosts: %s is neither a host name nor an address or CIDR range (write addresses as 127.0.0.1, 10.0.0.0/8, ::1)', entry);
      end;
      -- In the forms both PostgreSQL and the syncer's parser (Go's net/netip) read alike.
      if entry ~ ':' and entry !~ '^[0-9a-f:.]+(/[0-9]{1,3})?$' then
        return pg_catalog.format('webhook_allowed_hosts: write %s in lower case, without a zone', entry);
      elsif entry !~ ':' and entry !~ '^(0|[1-9][0-9]{0,2})(\.(0|[1-9][0-9]{0,2})){3}(/[0-9]{1,2})?$' then
        return pg_catalog.format('webhook_allowed_hosts: write %s as four decimal numbers without leading zeros, and an optional /prefix length', entry);
      end if;
    elsif pg_catalog.char_length(entry) > 253
          or entry !~ '^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$' then
      return pg_catalog.format('webhook_allowed_hosts: %s is not a lower-case host name (no port, no scheme, no trailing dot)', entry);
    end if;
  end loop;
  return null;
end
$$;

comment on function lifecycle.webhook_allowed_hosts_refusal(text[]) is
  'Why a webhook_allowed_hosts value is refused (not host names or addresses/CIDR ranges, more than 100), or null.';
