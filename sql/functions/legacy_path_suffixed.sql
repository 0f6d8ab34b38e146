-- The path a legacy path gets when its normalised form (path_normalised) is reserved or a live
-- sibling holds it: that form, cut to leave room, with '-' and the namespace's id appended, as the
-- import appends it (namespace_import_batch). Immutable SQL: inlined where it is asked.
create or replace function lifecycle.legacy_path_suffixed(legacy text, ns_id bigint)
returns text
language sql
immutable
parallel safe
return pg_catalog.regexp_replace(pg_catalog.left(lifecycle.path_normalised(legacy), 99 - pg_catalog.length(ns_id::text)),
                                 '[^a-z0-9]+$', '') || '-' || ns_id;

comment on function lifecycle.legacy_path_suffixed(text, bigint) is
  'The normalised form of a legacy path with the namespace''s id appended (reserved or taken).';
