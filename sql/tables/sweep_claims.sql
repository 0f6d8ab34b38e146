-- The sweeper's claim of a namespace across the transactions of its work (sweep_claim,
-- sweep_release), so two sweepers never work on one namespace at once: a row naming the claiming
-- session, which no session outside those functions can take first, as it could an advisory key.
-- A claim whose session is gone is taken over.
create unlogged table lifecycle.sweep_claims (
  namespace_id bigint not null,
  -- The claiming session by pid and role (role_id: pg_stat_activity's usesysid), which
  -- pg_stat_activity shows every role: sweep_claim reads it as the schema's owner, which may be no
  -- superuser.
  pid integer not null,
  claimed_at timestamp with time zone default now() not null,
  role_id oid not null,
  constraint sweep_claims_pkey primary key (namespace_id)
);

comment on table lifecycle.sweep_claims is
  'The sweeper''s claims of namespaces (sweep_claim), held across the transactions of their work by a session named by pid and role (pg_stat_activity shows both to every role); taken over when that session is gone. Unlogged: no session outlives a crash.';
