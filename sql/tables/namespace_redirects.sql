-- Old full paths: a request for one resolves to the namespace (namespace_resolve), and a
-- descendant's old path, by its longest redirected prefix, to that descendant. Written by a rename,
-- a move, the import and the tree bridges (legacy_path_redirect); rows go with their namespace.
create table lifecycle.namespace_redirects (
  id bigint generated always as identity,
  old_full_path text not null,
  namespace_id bigint not null,
  -- rename, transfer: a path the namespace had. import: a legacy path with capitals, kept when
  -- folding its case would lead to another namespace; namespace_resolve looks a path with capitals up
  -- among these first.
  kind text not null,
  actor_id bigint,
  new_full_path text not null,
  created_at timestamp with time zone default now() not null,
  constraint namespace_redirects_pkey primary key (id),
  constraint namespace_redirects_kind_check check ((kind = any (array['rename'::text, 'transfer'::text, 'import'::text]))),
  constraint namespace_redirects_namespace_id_fkey foreign key (namespace_id) references lifecycle.namespaces(id) on delete cascade
);

-- The rename rate limit counts a namespace's renames in a window (namespace_rename).
create index namespace_redirects_namespace_id_idx on lifecycle.namespace_redirects (namespace_id, kind, created_at);

-- A hash index: no row size limit for the longest full paths.
create index namespace_redirects_old_full_path_idx on lifecycle.namespace_redirects using hash (old_full_path);
