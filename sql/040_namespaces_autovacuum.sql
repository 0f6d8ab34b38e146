-- lifecycle.namespaces is vacuumed by its churn, not when a fifth of it is dead (issue 25). Every
-- transition updates its namespace's row and none of these updates is HOT (state is read by four
-- of the table's indexes): each leaves a dead row, and a new entry in every index whose predicate
-- holds, that only a vacuum reclaims. PostgreSQL's defaults wait for 20% of the table in dead rows
-- (200,000 at 1M namespaces) and analyze after 10% changed. At 1% and 2%, under a steady load of
-- transitions on 1M namespaces, the indexes grew 12.5% instead of 31% in ten minutes, with a
-- quarter of the dead rows at most, throughput within the noise; docs/benchmarks.md (Autovacuum
-- of lifecycle.namespaces) has the figures, docs/operations.md (Housekeeping) what to tune. lifecycle.namespace_details, which every transition updates too, keeps
-- the defaults: its updates are HOT (it has one index, on a column no update changes) and pruning
-- reclaims them between vacuums.
-- ALTER TABLE … SET (autovacuum_…) takes SHARE UPDATE EXCLUSIVE: it blocks neither reads nor
-- writes, only other DDL and a vacuum of the table.

alter table lifecycle.namespaces set (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);

---- create above / drop below ----

alter table lifecycle.namespaces reset (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor);
