-- Why a webhook URL may not be registered, or null when it may (webhooks_validate, NS010). The
-- URL is already known to be http(s) without spaces or control characters, at most 2,048
-- characters. Refused: a user name or password (user:pw@host: it would be sent along, and it
-- hides the real host from a reader); a backslash, a percent-encoding or an IPv6 zone in the
-- authority (parsers disagree on them); a bad port; localhost names; and any host that is an IP
-- address in a range lifecycle.webhook_address_refusal forbids (lifecycle.webhook_forbidden_ranges).
-- A host whose last label is a number is an IPv4 address, as the WHATWG URL standard and
-- inet_aton read it: 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 are all 127.0.0.1, and are
-- judged as such (a host of that shape that is no valid address is refused). Host names are not
-- resolved here: what a name resolves to is checked by the syncer when it dials, against the same
-- ranges.
--
-- The authority is read as a URL parser and a resolver read it (IDNA, UTS #46): cut from the URL
-- at the ASCII delimiters, then Unicode NFKC, the ideographic full stops (U+3002, U+FF0E, U+FF61)
-- as dots, and lower case, so that ⓛocalhost is localhost and １２７.０.０.１ is 127.0.0.1, each
-- refused as what it reaches; the syncer's dial guard normalises the same way (normalizeHost). A
-- character that normalises to a delimiter (／, ？, ＃, a full-width space) is refused: parsers
-- disagree on where it ends the host. In a database whose encoding is not UTF-8, where
-- normalize() is not available, a host must be ASCII.
--
-- allowed is lifecycle.settings.webhook_allowed_hosts (validated by settings_refusal): a host
-- name the operator trusts (matched exactly, lower case, without a trailing dot), or an address or
-- CIDR range that lifts the range refusal for IP-literal hosts within it. STABLE: the ranges are a
-- table.
create or replace function lifecycle.webhook_url_refusal(url text, allowed text[])
returns text
language plpgsql
stable
set search_path to ''
as $$
declare
  authority text := pg_catalog.substring(url, '^[a-zA-Z]+://([^/?#]*)');
  host text;
  port text;
  address inet;
  parts text[];
  part text;
  value numeric;
  total numeric := 0;
  reason text;
begin
  if authority is null then
    return 'url must be an http:// or https:// URL';
  end if;
  if pg_catalog.getdatabaseencoding() = 'UTF8' then
    authority := pg_catalog.translate(pg_catalog.normalize(authority, 'NFKC'),
                                       pg_catalog.chr(12290) || pg_catalog.chr(65294) || pg_catalog.chr(65377), '...');
  elsif authority !~ '^[!-~]*$' then
    return 'url host must be ASCII in this database (write an international name in its xn-- form)';
  end if;
  if pg_catalog.strpos(authority, '@') > 0 then
    return 'url must not carry a user name or password (user:password@host)';
  elsif pg_catalog.strpos(authority, '\') > 0 then
    return 'url must not hold a backslash in its host';
  elsif pg_catalog.strpos(authority, '%') > 0 then
    -- Go decodes %XX in a host: 127.0.0.%31 would dial 127.0.0.1.
    return 'url must not percent-encode its host';
  elsif authority ~ '[/?#[:space:][:cntrl:]]' then
    return 'url host must not hold a character that reads as a space, a control character, /, ? or #';
  end if;

  if authority like '[%' then
    host := pg_catalog.substring(authority, '^\[([^]]*)\]');
    port := pg_catalog.substring(authority, '^\[[^]]*\](.*)$');
    if host is null then
      return 'url has an unclosed [ in its host';
    elsif host ~ '/' then
      return 'url must name a plain IPv6 address between [ and ], without a prefix length';
    end if;
    begin
      address := host::inet;
    exception when invalid_text_representation then
      return pg_catalog.format('url host [%s] is not an IPv6 address', host);
    end;
    if pg_catalog.family(address) <> 6 then
      return pg_catalog.format('url host [%s] is not an IPv6 address', host);
    end if;
  else
    host := pg_catalog.substring(authority, '^([^:]*)');
    port := pg_catalog.substring(authority, '^[^:]*(.*)$');
  end if;
  if port !~ '^(:[0-9]{0,5})?$' or (port ~ '[0-9]' and pg_catalog.substr(port, 2)::int not between 1 and 65535) then
    return 'url port must be a number from 1 to 65535';
  end if;

  host := pg_catalog.lower(pg_catalog.regexp_replace(host, '\.$', ''));
  if host = '' then
    return 'url has no host';
  end if;

  if address is null and host ~ '(^|\.)(0x[0-9a-f]*|[0-9]+)$' then
    parts := pg_catalog.string_to_array(host, '.');
    if pg_catalog.cardinality(parts) > 4 then
      return pg_catalog.format('url host %s ends in a number but is not an IPv4 address', host);
    end if;
    for i in 1 .. pg_catalog.cardinality(parts) loop
      part := parts[i];
      if part ~ '^0x[0-9a-f]*$' then
        value := 0;
        foreach part in array pg_catalog.regexp_split_to_array(pg_catalog.substr(part, 3), '') loop
          exit when part = '' or value > 4294967295;
          value := value * 16 + pg_catalog.strpos('0123456789abcdef', part) - 1;
        end loop;
      elsif part ~ '^0[0-7]+$' then
        value := 0;
        foreach part in array pg_catalog.regexp_split_to_array(pg_catalog.substr(part, 2), '') loop
          exit when value > 4294967295;
          value := value * 8 + part::int;
        end loop;
      elsif part ~ '^(0|[1-9][0-9]{0,11})$' then
        value := part::numeric;
      else
        return pg_catalog.format('url host %s ends in a number but is not an IPv4 address', host);
      end if;
      -- Every part but the last is one byte; the last fills the bytes that are left.
      if (i < pg_catalog.cardinality(parts) and value > 255)
         or (i = pg_catalog.cardinality(parts) and value >= 256::numeric ^ (5 - i)) then
        return pg_catalog.format('url host %s ends in a number but is not an IPv4 address', host);
      end if;
      total := case when i < pg_catalog.cardinality(parts) then total + value * 256::numeric ^ (4 - i)
                    else total + value end;
    end loop;
    address := inet '0.0.0.0' + total::bigint;
  end if;

  if address is null then
    if host = 'localhost' or host like '%.localhost' then
      if host = any (allowed) then
        return null;
      end if;
      return pg_catalog.format('url host %s is this machine (localhost)', host);
    end if;
    return null;
  end if;

  reason := lifecycle.webhook_address_refusal(address);
  if reason is null
     or exists (select from pg_catalog.unnest(allowed) e
                 where (e ~ ':' or e ~ '^[0-9.]+(/[0-9]+)?$') and address <<= e::inet) then
    return null;
  end if;
  if host = pg_catalog.host(address) then
    return pg_catalog.format('url host %s is %s', host, reason);
  end if;
  return pg_catalog.format('url host %s is %s, %s', host, pg_catalog.host(address), reason);
end
$$;

comment on function lifecycle.webhook_url_refusal(text, text[]) is
  'Why a webhook URL may not be registered (userinfo, a localhost name, an IP-literal host in a range of webhook_forbidden_ranges in any numeric or Unicode form, unless allowed), or null.';
