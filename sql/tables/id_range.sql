-- The ids this cluster hands out (docs/scaling.md, Cells): every identity of the schema draws from
-- first_id to last_id (id_range_set, one at a time: its row of lifecycle.lock_rows), so the ids an
-- organization brings when it moves in from another cluster are nobody else's. One row, or none.
create table lifecycle.id_range (
  singleton boolean default true not null,
  first_id bigint not null,
  last_id bigint not null,
  set_at timestamp with time zone default now() not null,
  constraint id_range_pkey primary key (singleton),
  -- Up to 2^62 - 1, the import's bound: the guards bound a subtree by its last id + 1.
  constraint id_range_bounds check (((first_id >= 1) and (first_id <= last_id) and (last_id <= '4611686018427387903'::bigint))),
  constraint id_range_singleton_check check (singleton)
);

comment on table lifecycle.id_range is
  'The range this cluster hands out ids from, for every identity of the schema (id_range_set); no row: none set, every id.';
