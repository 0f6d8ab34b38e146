-- The states each event applies from (ADR 001): an event applies to a namespace whose own state is
-- one of its sources, and is refused (NS001) from any other. Read through the rules' digest
-- (event_rule, written by transition_rules_write), not per change.
create table lifecycle.event_sources (
  event text not null,
  from_state smallint not null,
  constraint event_sources_pkey primary key (event, from_state),
  constraint event_sources_event_fkey foreign key (event) references lifecycle.events(name),
  constraint event_sources_from_state_fkey foreign key (from_state) references lifecycle.states(code)
);

insert into lifecycle.event_sources (event, from_state) values
  ('archive', 0),
  ('creation_done', 3),
  ('deletion_failed', 4),
  ('deletion_start', 2),
  ('deletion_start', 3),
  ('maintain', 0),
  ('restore', 2),
  ('schedule_deletion', 0),
  ('schedule_deletion', 1),
  ('transfer_done', 5),
  ('transfer_start', 0),
  ('transfer_start', 1),
  ('unarchive', 1),
  ('unmaintain', 6);
