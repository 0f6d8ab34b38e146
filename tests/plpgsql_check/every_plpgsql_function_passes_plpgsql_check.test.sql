-- plpgsql_check (the PostgreSQL community's static checker) on every PL/pgSQL function and
-- trigger function of schema lifecycle, each trigger function with a relation it is attached to,
-- with extra and security warnings on: a misspelt column in a branch no test reaches is found
-- here, not in production. An error fails; a warning fails unless it is justified below, and a
-- justification that no longer matches a warning fails too (so the list stays true).
begin;
select plan(3);

create temporary table checked on commit drop as
select p.oid::regprocedure::text as function, r.level, r.message, r.lineno, r.statement
  from pg_catalog.pg_proc p
  join pg_catalog.pg_language l on l.oid = p.prolang and l.lanname = 'plpgsql'
  left join lateral (select tg.tgrelid from pg_catalog.pg_trigger tg where tg.tgfoid = p.oid order by tg.oid limit 1) t on true
 -- A trigger function attached to no table yet (the legacy bridge's, attached by legacy_bridge_add)
 -- is checked against lifecycle.namespaces: it reads its rows generically (to_jsonb); the members
 -- bridge's write-back (attached by legacy_members_bridge_add) against the table it is made for.
 cross join lateral tap.plpgsql_check_function_tb(p.oid,
                                                   coalesce(t.tgrelid, case when p.oid = 'lifecycle.legacy_members_state()'::regprocedure
                                                                            then 'lifecycle.namespace_members'::regclass
                                                                            when p.prorettype = 'trigger'::regtype
                                                                            then 'lifecycle.namespaces'::regclass else 0 end),
                                                   fatal_errors => false,
                                                   extra_warnings => true, security_warnings => true,
                                                   performance_warnings => false) r
 where p.pronamespace = 'lifecycle'::regnamespace;

-- The warnings the product accepts, each with its reason (function, message, why).
create temporary table justified (function text, message text, reason text) on commit drop;
insert into justified values
  -- The hot path calls functions that return nothing (locks, set_config) in an
  -- assignment rather than PERFORM, which would run a whole query for each (sql/README.md, Performance idioms);
  -- the variable assigned is never read on purpose.
  ('lifecycle.namespace_lock(bigint)', 'never read variable "locked"', 'assignment instead of PERFORM'),
  ('lifecycle.namespaces_state_gate()', 'never read variable "locked"', 'assignment instead of PERFORM'),
  ('lifecycle.namespaces_paths()', 'never read variable "locked"', 'assignment instead of PERFORM'),
  ('lifecycle.namespaces_visibility()', 'never read variable "noted"', 'assignment instead of PERFORM'),
  ('lifecycle.namespace_change_state(bigint,text,text,bigint,jsonb,text,timestamp with time zone,text)', 'never read variable "setting"', 'assignment instead of PERFORM'),
  ('lifecycle.namespace_import_batch(integer)', 'never read variable "noted"', 'assignment instead of PERFORM'),
  ('lifecycle.organization_move_in(bigint,text)', 'never read variable "noted"', 'assignment instead of PERFORM'),
  ('lifecycle.organization_move_out_finish(bigint)', 'never read variable "noted"', 'assignment instead of PERFORM'),
  -- RETURN QUERY EXECUTE fills its result columns; the checker cannot see into the statement.
  ('lifecycle.legacy_bridge_rows()', 'OUT variable "namespace_id" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_bridge_rows()', 'OUT variable "bridge_id" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_bridge_rows()', 'OUT variable "holds" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_bridge_rows()', 'OUT variable "at" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_bridge_rows()', 'OUT variable "actor" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_bridge_check()', 'OUT variable "namespace_id" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_bridge_check()', 'OUT variable "source" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_bridge_check()', 'OUT variable "legacy_says" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_bridge_check()', 'OUT variable "state" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_members_check()', 'OUT variable "namespace_id" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_members_check()', 'OUT variable "source" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_members_check()', 'OUT variable "legacy_says" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_members_check()', 'OUT variable "state" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_members(regclass,regclass,bigint,bigint,jsonb)', 'OUT variable "namespace_id" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_members(regclass,regclass,bigint,bigint,jsonb)', 'OUT variable "user_id" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_members(regclass,regclass,bigint,bigint,jsonb)', 'OUT variable "access_level" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_members(regclass,regclass,bigint,bigint,jsonb)', 'OUT variable "created_at" is maybe unmodified', 'return query execute'),
  ('lifecycle.legacy_members(regclass,regclass,bigint,bigint,jsonb)', 'OUT variable "held" is maybe unmodified', 'return query execute'),
  -- Its loop is left only by RETURN (the row locked on the path just locked) or by RAISE (NS004).
  ('lifecycle.namespace_lock(bigint)', 'control reached end of function without RETURN', 'the loop returns or raises');

select isnt_empty($$select from pg_catalog.pg_proc p join pg_catalog.pg_language l on l.oid = p.prolang
                    where p.pronamespace = 'lifecycle'::regnamespace and l.lanname = 'plpgsql'$$,
                  'schema lifecycle has PL/pgSQL functions (the check below is not vacuous)');
select is_empty(
  $$select c.function, c.level, c.lineno, c.statement, c.message from checked c
     where c.level not in ('warning', 'warning extra', 'performance')
        or not exists (select from justified j where j.function = c.function and j.message = c.message)$$,
  'plpgsql_check finds no error and no unjustified warning');
select is_empty(
  $$select j.function, j.message from justified j
     where not exists (select from checked c where c.function = j.function and c.message = j.message)$$,
  'every justified warning still occurs');

select * from finish();
rollback;
