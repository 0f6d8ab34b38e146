-- What a legacy state bridge does with each state, as rows: which states may be bridged
-- (legacy_bridge_add), which one wins when the legacy data of several holds for one namespace
-- (rank: the backfill's order) and the event a legacy "off" takes (way_back: legacy_bridge_apply).
-- The codes are written here, in the seed rows, not in the bridge functions.
create table lifecycle.legacy_bridge_states (
  state smallint not null,
  rank smallint not null,
  way_back text not null,
  constraint legacy_bridge_states_pkey primary key (state),
  constraint legacy_bridge_states_rank_key unique (rank),
  constraint legacy_bridge_states_state_fkey foreign key (state) references lifecycle.states(code),
  constraint legacy_bridge_states_way_back_fkey foreign key (way_back) references lifecycle.events(name)
);

comment on table lifecycle.legacy_bridge_states is
  'The states a legacy bridge may carry (lifecycle.legacy_bridge_add), and how: the one a namespace gets when several hold, the event the legacy data turned off takes.';
comment on column lifecycle.legacy_bridge_states.rank is
  'When the legacy data of several bridged states holds for one namespace, the backfill gives it the highest; a permanent one below it is the state a restore returns to.';
comment on column lifecycle.legacy_bridge_states.way_back is
  'The event a namespace in the state takes when its legacy data stops saying so (legacy_bridge_apply).';

-- deletion_in_progress over deletion_scheduled over maintenance over archived.
insert into lifecycle.legacy_bridge_states (state, rank, way_back) values
  (1, 1, 'unarchive'),
  (2, 3, 'restore'),
  (4, 4, 'deletion_failed'),
  (6, 2, 'unmaintain');
