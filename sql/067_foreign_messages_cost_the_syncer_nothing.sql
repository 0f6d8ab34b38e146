-- Logical messages with the fact prefix written from now on are no facts (they were before the
-- outbox): the syncer skips them unread. Any login may emit them: 300,000 in one transaction grew
-- the syncer's memory by half a gigabyte, and a larger burst ran it out of memory.
{{ template "tables/fact_message_horizon.sql" . }}
grant select on lifecycle.fact_message_horizon to lifecycle_worker;

---- create above / drop below ----

drop table lifecycle.fact_message_horizon;
