-- The path an imported namespace gets for a legacy path the path rules refuse (docs/design.md §10):
-- lowercase; every run of characters outside a-z, 0-9, '_', '-', '.' becomes '-'; '..' becomes
-- '.'; anything but a letter or digit is trimmed from both ends; a final .git or .atom becomes
-- -git or -atom; at most 100 characters; 'namespace' when nothing is left. A path the rules accept
-- comes back unchanged. Whether the result is reserved or taken is the import's to settle (it
-- appends the namespace's id). Immutable SQL: inlined into the import's statements.
create or replace function lifecycle.path_normalised(legacy text)
returns text
language sql
immutable
parallel safe
return coalesce(nullif(
  pg_catalog.regexp_replace(
    pg_catalog.left(
      pg_catalog.regexp_replace(
        pg_catalog.regexp_replace(
          pg_catalog.regexp_replace(
            pg_catalog.regexp_replace(pg_catalog.lower(legacy), '[^a-z0-9._-]+', '-', 'g'),
            '\.{2,}', '.', 'g'),
          '^[^a-z0-9]+|[^a-z0-9]+$', '', 'g'),
        '\.(git|atom)$', '-\1'),
      100),
    '[^a-z0-9]+$', ''),
  ''), 'namespace');

comment on function lifecycle.path_normalised(text) is
  'The path an import gives a legacy path the path rules refuse (lowercase slug, at most 100 characters).';
