-- The advisory lock key of a namespace (steps 1 and 2 of the global lock order, namespace_lock_path):
-- its id mixed with a constant of the product's own (hashtextextended('lifecycle namespace', 0)),
-- so an application that takes advisory locks on its own ids, as pg_advisory_lock(project_id),
-- neither waits on the product's locks nor makes the product wait on its own. Plain SQL: inlined
-- into the expression that calls it.
create or replace function lifecycle.namespace_lock_key(id bigint)
returns bigint
language sql
immutable
parallel safe
return namespace_lock_key.id # 3001666571030907431;
