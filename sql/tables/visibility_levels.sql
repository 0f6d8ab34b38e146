-- The visibility levels a namespace may have (namespaces.visibility references them). Their ranks
-- order them: namespaces_visibility refuses a namespace more visible than its parent or less
-- visible than a descendant, and a move below a less visible parent lowers the subtree.
create table lifecycle.visibility_levels (
  name text not null,
  rank smallint not null,
  constraint visibility_levels_pkey primary key (name),
  constraint visibility_levels_rank_key unique (rank)
);

comment on table lifecycle.visibility_levels is
  'Visibility levels by rank: a namespace is never more visible (higher rank) than its parent.';

insert into lifecycle.visibility_levels (name, rank) values
  ('internal', 10),
  ('private', 0),
  ('public', 20);
