-- Paths no namespace may take: routes of the host application at the top level, and the
-- product's own routes at any depth. Asked by path_refusal (the paths trigger, the tree bridges)
-- and the import. The schema owner's to change.
create table lifecycle.reserved_paths (
  path text not null,
  -- top_level: refused for namespaces without a parent (they would shadow routes); any: everywhere.
  scope text not null,
  reason text not null,
  constraint reserved_paths_pkey primary key (path),
  constraint reserved_paths_scope_check check ((scope = any (array['top_level'::text, 'any'::text])))
);

insert into lifecycle.reserved_paths (path, scope, reason) values
  ('admin', 'top_level', 'route of the host application'),
  ('api', 'top_level', 'route of the host application'),
  ('assets', 'top_level', 'route of the host application'),
  ('badges', 'any', 'reserved for the product''s own routes'),
  ('blob', 'any', 'reserved for the product''s own routes'),
  ('dashboard', 'top_level', 'route of the host application'),
  ('deleted', 'any', 'reserved for the product''s own routes'),
  ('edit', 'any', 'reserved for the product''s own routes'),
  ('explore', 'top_level', 'route of the host application'),
  ('groups', 'top_level', 'route of the host application'),
  ('help', 'top_level', 'route of the host application'),
  ('login', 'top_level', 'route of the host application'),
  ('logout', 'top_level', 'route of the host application'),
  ('new', 'top_level', 'route of the host application'),
  ('oauth', 'top_level', 'route of the host application'),
  ('profile', 'top_level', 'route of the host application'),
  ('projects', 'top_level', 'route of the host application'),
  ('public', 'top_level', 'route of the host application'),
  ('raw', 'any', 'reserved for the product''s own routes'),
  ('search', 'top_level', 'route of the host application'),
  ('settings', 'top_level', 'route of the host application'),
  ('signup', 'top_level', 'route of the host application'),
  ('tree', 'any', 'reserved for the product''s own routes'),
  ('uploads', 'top_level', 'route of the host application'),
  ('users', 'top_level', 'route of the host application');
