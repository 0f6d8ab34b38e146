-- The minimum effective access level (GitLab: 10 guest, 20 reporter, 30 developer, 40 maintainer,
-- 50 owner) an actor needs to move a namespace into each state; actor_refusal refuses a lower one.
-- Read through the rules' digest (transition_rule), not per change. The schema owner's to change.
create table lifecycle.transition_policies (
  to_state smallint not null,
  min_access_level smallint default 50 not null,
  constraint transition_policies_pkey primary key (to_state),
  constraint transition_policies_min_access_level_check check ((min_access_level = any (array[10, 20, 30, 40, 50]))),
  constraint transition_policies_to_state_fkey foreign key (to_state) references lifecycle.states(code)
);

-- Every state: owners.
insert into lifecycle.transition_policies (to_state, min_access_level) values
  (0, 50),
  (1, 50),
  (2, 50),
  (3, 50),
  (4, 50),
  (5, 50),
  (6, 50);
