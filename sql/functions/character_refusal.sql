-- Why a name or path is refused for a character it holds (NS010), or null: C0 and C1 control
-- characters (they break logs, audit rows and webhook bodies downstream) and the bidirectional
-- formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), with which a
-- name or path displays as something other than what it is ("Trojan Source"). The one place that
-- lists them: name_refusal and path_slug_refusal ask it, so a create, a rename, a raw UPDATE and
-- the import (per row) refuse the same characters. The reason names the code point, never the
-- character itself, so the refusal cannot carry it into a log. Plain SQL: inlined into its callers.
create or replace function lifecycle.character_refusal(what text, value text)
returns text
language sql
stable
parallel safe
return case
  when value operator(pg_catalog.~) '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'
    then pg_catalog.format('%s contains U+%s, a control or bidirectional formatting character', what,
           pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.ascii(pg_catalog.substring(value,
             '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'))), 4, '0')))
end;
