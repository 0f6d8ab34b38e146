-- Writes the digest of lifecycle.states that the hottest read folds into constants: two IMMUTABLE
-- SQL functions whose bodies are the table's values, lifecycle.state_names() (each code's name,
-- the array indexed by code) and lifecycle.state_flag_mask(flag) (the codes that carry a flag, a
-- bit per code). namespace_effective_state inlines them, so its plan holds the names and masks
-- and reads no states row per call (a join to lifecycle.states was a fifth of its cost).
--
-- The table stays the one place of the rule: the statement trigger states_digest calls this after
-- every change of it, so the digest is never edited by hand. No cached plan may keep an old name
-- or mask: replacing a function invalidates the plans that inlined it directly, but not those that
-- inlined a function whose body calls it (PostgreSQL 15 records only the outer function), which is
-- how every caller of namespace_effective_state gets the digest. So each function whose body
-- depends on the digest is touched as well (ALTER FUNCTION … COST to its own cost: a new catalog
-- row, which invalidates every plan that inlined it, in every session).
--
-- Dynamic SQL only from the table's own values, each quoted with %L, and from the catalog (the
-- dependents as regprocedure); nothing from a caller.
create or replace function lifecycle.states_digest_write()
returns void
language plpgsql
set search_path to ''
as $$
declare
  dependent regprocedure;
  names text;
  archived bigint;
  pending_deletion bigint;
  read_only bigint;
begin
  -- The array's subscripts are the codes themselves ('[0:6]={…}'), gaps null.
  select coalesce(pg_catalog.format('[0:%s]=%s', max(s.code), pg_catalog.array_agg(s.name order by c.code)), '{}'),
         coalesce(bit_or(1::bigint << s.code) filter (where s.name = 'archived'), 0),
         coalesce(bit_or(1::bigint << s.code) filter (where s.pending_deletion), 0),
         coalesce(bit_or(1::bigint << s.code) filter (where s.read_only), 0)
    into names, archived, pending_deletion, read_only
    from pg_catalog.generate_series(0, (select max(m.code) from lifecycle.states m)) c(code)
    left join lifecycle.states s on s.code = c.code;
  execute pg_catalog.format($f$
    create or replace function lifecycle.state_names()
    returns text[]
    language sql
    immutable
    parallel safe
    return %L::text[]$f$, names);
  execute pg_catalog.format($f$
    create or replace function lifecycle.state_flag_mask(flag text)
    returns bigint
    language sql
    immutable
    parallel safe
    return case flag when 'archived' then %s when 'pending_deletion' then %s when 'read_only' then %s end$f$,
    archived, pending_deletion, read_only);
  for dependent in
    select distinct d.objid::regprocedure
      from pg_catalog.pg_depend d
     where d.classid = 'pg_catalog.pg_proc'::regclass and d.refclassid = 'pg_catalog.pg_proc'::regclass
       and d.refobjid in ('lifecycle.state_names()'::regprocedure, 'lifecycle.state_flag_mask(text)'::regprocedure)
  loop
    execute pg_catalog.format('alter function %s cost %s', dependent,
      (select p.procost from pg_catalog.pg_proc p where p.oid = dependent));
  end loop;
  comment on function lifecycle.state_names() is
    'Each state code''s name, subscripted by code: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';
  comment on function lifecycle.state_flag_mask(text) is
    'The codes that carry a flag (archived, pending_deletion, read_only), a bit per code: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';
end
$$;
