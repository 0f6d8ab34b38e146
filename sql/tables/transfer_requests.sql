-- Transfer requests: an offer to move a namespace below a new parent, then its steps (accept,
-- decline, cancel, expire), each a fact (transfer_requests_facts). An accepted request puts the
-- namespace in transfer_in_progress; the move runs asynchronously (namespace_transfer_execute).
-- Written only by the schema's functions: the transfer's, and an organization's move.
create table lifecycle.transfer_requests (
  id bigint generated always as identity,
  namespace_id bigint not null,
  from_parent_id bigint,
  to_parent_id bigint not null,
  requested_by bigint not null,
  -- pending → accepted → completed | failed; pending → declined | canceled | expired.
  status text default 'pending'::text not null,
  expires_at timestamp with time zone not null,
  decided_by bigint,
  decided_at timestamp with time zone,
  completed_at timestamp with time zone,
  last_error text,
  created_at timestamp with time zone default now() not null,
  constraint transfer_requests_pkey primary key (id),
  constraint transfer_requests_status_check check ((status = any (array['pending'::text, 'accepted'::text, 'declined'::text, 'canceled'::text, 'expired'::text, 'completed'::text, 'failed'::text]))),
  constraint transfer_requests_namespace_id_fkey foreign key (namespace_id) references lifecycle.namespaces(id) on delete cascade,
  constraint transfer_requests_to_parent_id_fkey foreign key (to_parent_id) references lifecycle.namespaces(id) on delete cascade
);

comment on table lifecycle.transfer_requests is
  'Offers to move a namespace below a new parent; the row''s status is the audit fact of each step.';

-- The sweeper expires pending requests by age (transfer_requests_expire).
create index transfer_requests_expires_at_idx on lifecycle.transfer_requests (expires_at) where (status = 'pending'::text);

-- One open request per namespace.
create unique index transfer_requests_open_key on lifecycle.transfer_requests (namespace_id) where (status = any (array['pending'::text, 'accepted'::text]));

create index transfer_requests_to_parent_id_idx on lifecycle.transfer_requests (to_parent_id);
