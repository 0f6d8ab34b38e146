-- The namespace types and what a namespace of each may do, as rows. Statements ask the named
-- predicates its trigger writes from them (namespace_types_digest_write: namespace_type_known,
-- _root_only, _transferable, _can_be_parent), never a type name. A change that would make a
-- namespace break a rule is refused (2BP01, naming it); a type no namespace has changes freely.
create table lifecycle.namespace_types (
  name text not null,
  description text not null,
  root_only boolean default false not null,
  transferable boolean default true not null,
  can_be_parent boolean default true not null,
  constraint namespace_types_pkey primary key (name)
);

comment on table lifecycle.namespace_types is
  'The namespace types (lifecycle.namespaces.type) and what a namespace of each may do; read through the predicates its trigger namespace_types_digest writes.';
comment on column lifecycle.namespace_types.root_only is
  'Only ever a root: never below a parent.';
comment on column lifecycle.namespace_types.transferable is
  'May move to another parent (a transfer).';
comment on column lifecycle.namespace_types.can_be_parent is
  'May have children.';

-- The seed rows: the one place these type names are written.
insert into lifecycle.namespace_types (name, description, root_only, transferable, can_be_parent) values
  ('group', 'A group or subgroup.', false, true, true),
  ('organization', 'The root of a tree: an organization.', true, false, true),
  ('project', 'A project: a leaf.', false, true, false),
  ('user', 'A user''s personal namespace.', false, false, true);
