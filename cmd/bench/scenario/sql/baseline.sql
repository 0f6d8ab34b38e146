-- The floor the product is measured against: raw copies of lifecycle.namespaces and
-- lifecycle.namespace_state_updates with the same columns, defaults and indexes, but no triggers:
-- no matrix, guards, locks, metadata, facts. A write here is the least any state change costs.
-- Created in the bench database only; never part of the product's migrations.
drop schema if exists lifecycle_bench cascade;
create schema lifecycle_bench;

create table lifecycle_bench.namespaces (like lifecycle.namespaces including all);
insert into lifecycle_bench.namespaces select * from lifecycle.namespaces;

create table lifecycle_bench.state_updates (like lifecycle.namespace_state_updates including all);

-- What the application-side machine that keeps the product's records writes besides (issue 41,
-- point 5): the details row's state_metadata (its targets' rows copied when they are chosen) and
-- an outbox row a syncer could drain, with the product's columns and indexes.
create table lifecycle_bench.namespace_details (like lifecycle.namespace_details including all);
create table lifecycle_bench.facts (like lifecycle.facts including all);

-- The transition workload's targets: client c of a run picks slots c*per_client … c*per_client +
-- per_client - 1, so no two clients touch one namespace and every pick knows its state.
create table lifecycle_bench.targets (
  slot int primary key,
  id bigint not null,
  actor bigint not null
);

analyze lifecycle_bench.namespaces;
