-- The deepest a namespace may sit: 100 levels, an organization being level 1 (docs/design.md §8).
-- Chosen from what the indexes allow: traversal_ids is a key of btree indexes, whose entries may
-- not exceed 2,704 bytes (a third of a page); 100 bigints take 824, room for the other key columns
-- and a wide margin, and five times GitLab's 20 levels. Beyond it every write refuses with NS010,
-- and lifecycle.namespace_resolve refuses longer paths. Immutable SQL: inlined as a constant.
create or replace function lifecycle.namespace_max_depth()
returns int
language sql
immutable
parallel safe
set search_path to ''
return 100;

comment on function lifecycle.namespace_max_depth() is
  'Maximum depth of the tree (an organization is level 1); deeper writes and paths are refused with NS010.';
