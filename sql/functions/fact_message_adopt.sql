-- Adopt a fact that comes as a logical message, the form facts had before they were rows of
-- lifecycle.facts: an upgrade loses none that the syncer had not read yet. The message is a fact
-- if it has that form's shape (fact_refusal) and its MAC verifies (fact_mac, or, for a message
-- committed before lifecycle.fact_key.legacy_mac_until, SHA-256 of the key and of the key and the
-- text); it is then written to the outbox, with the time it was written, and its id returned for
-- the syncer to record in the same transaction.
-- Anything else (anyone may emit a message with that prefix) is no fact: null, nothing written.
-- Definer: it reads lifecycle.fact_key and writes the outbox, which no caller may.
create or replace function lifecycle.fact_message_adopt(fact jsonb, committed_at timestamptz)
returns bigint
language plpgsql
security definer
set search_path to ''
as $$
#variable_conflict use_variable
declare
  body jsonb := fact - 'mac';
  id bigint;
begin
  if lifecycle.fact_refusal(fact) is not null then
    return null;
  end if;
  if (fact ->> 'mac') is distinct from lifecycle.fact_mac(body)
     and not exists (select from lifecycle.fact_key k
                      where committed_at < k.legacy_mac_until
                        and (fact ->> 'mac') = pg_catalog.encode(pg_catalog.sha256(k.key || pg_catalog.sha256(
                              k.key || pg_catalog.convert_to(body::text, 'UTF8'))), 'hex')) then
    return null;
  end if;
  -- Integers have scale 0 (fact_refusal), so their text casts to bigint.
  insert into lifecycle.facts (action, namespace_id, traversal_ids, full_path, actor_id, details, written_at)
  values (body ->> 'action', (body ->> 'namespace_id')::bigint,
          array(select pg_catalog.jsonb_array_elements_text(body -> 'traversal_ids')::bigint),
          body ->> 'full_path', (body ->> 'actor_id')::bigint, coalesce(body -> 'details', '{}'),
          coalesce((body ->> 'occurred_at')::timestamptz, committed_at))
  returning lifecycle.facts.id into id;
  return id;
end
$$;
