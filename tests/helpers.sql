-- Helpers for the pgTAP files, in their own schema so nothing of them leaks into the product.
-- Loaded once into the pgTAP database by scripts/test.sh, after the migrations.
create schema lifecycle_test;

-- create_namespace inserts a namespace the way a client does (a plain INSERT) and returns its id.
create function lifecycle_test.create_namespace(parent_id bigint, type text, path text)
returns bigint
language sql
set search_path to ''
as $$
  insert into lifecycle.namespaces (parent_id, type, path, name)
  values (create_namespace.parent_id, create_namespace.type, create_namespace.path, create_namespace.path)
  returning id
$$;

-- id_of finds a namespace by its full path (paths in tests are unique).
create function lifecycle_test.id_of(full_path text)
returns bigint
language sql
stable
set search_path to ''
as $$
  select n.id from lifecycle.namespaces n where lifecycle.namespace_full_path(n.id) = id_of.full_path
$$;
