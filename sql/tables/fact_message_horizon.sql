-- Where the logical messages with the fact prefix stop being possible facts. Before the outbox,
-- a fact was a transactional logical message with the prefix nslifecycle.fact; those still in a
-- slot when the database was upgraded past that are adopted into the outbox by the syncer
-- (fact_message_adopt). A message with the prefix written from lsn on can be no such fact (the
-- outbox took their place before), so the syncer skips it unread, whoever emitted it: any login may
-- emit messages, and a burst of them would otherwise be decoded and held until its transaction
-- commits. Written once, by the migration that made it (the WAL position then); read by the syncer
-- when it starts streaming.
create table lifecycle.fact_message_horizon (
  singleton boolean default true not null,
  lsn pg_lsn not null,
  constraint fact_message_horizon_pkey primary key (singleton),
  constraint fact_message_horizon_singleton_check check (singleton)
);

comment on table lifecycle.fact_message_horizon is
  'Logical messages with the fact prefix from lsn on are no facts: the syncer skips them unread.';

insert into lifecycle.fact_message_horizon (lsn) values (pg_catalog.pg_current_wal_lsn());
