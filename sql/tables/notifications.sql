-- In-app notifications: one per audit row and user told (each effective owner, level 50 on the
-- namespace's path, and the actor), written by the syncer (facts_record) with the audit row. The
-- application reads them and marks them read (read_at, the one column it may update).
create table lifecycle.notifications (
  id bigint generated always as identity,
  user_id bigint not null,
  audit_event_id bigint not null,
  namespace_id bigint,
  action text not null,
  created_at timestamp with time zone default now() not null,
  read_at timestamp with time zone,
  constraint notifications_pkey primary key (id),
  constraint notifications_audit_event_id_user_id_key unique (audit_event_id, user_id),
  constraint notifications_audit_event_id_fkey foreign key (audit_event_id) references lifecycle.audit_events(id) on delete cascade
);

create index notifications_user_id_idx on lifecycle.notifications (user_id, id) where (read_at is null);
