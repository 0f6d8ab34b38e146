-- Writes the digest of lifecycle.states: IMMUTABLE SQL functions whose bodies are the table's
-- values, which the readers inline and fold into their plans, so they read no states row per call
-- and no function lists a code:
--   state_names()              each code's name, the array indexed by code
--   state_flag_mask(flag)      the codes that carry a flag (archived, pending_deletion, read_only),
--                              a bit per code, for the effective state's mask of the path
--   the named predicates, each a property of a code that statements and index predicates ask:
--   state_is_own(code)         not inherited: the namespace has a state of its own
--   state_sets_effective(code) the same codes, written as a bit test (below)
--   state_path_live(code)      not pending_deletion: the namespace holds its path
--   state_deletion_adjourned(code), state_being_created(code), state_permanent(code): those columns
--   state_operation(code)      the operation that owns the state (operation), null for none
--
-- Every predicate answers for each code 0 to 63, a code without a row as a row with the columns'
-- defaults would, so a new state whose columns keep their defaults changes no answer. Its body
-- lists only the codes whose answer differs from that (code <> all ('{2,4}'::int[])), the
-- expression every caller inlines: a partial index is chosen when the query's inlined predicate
-- is the index's (or implies it: state <> 2 and state <> 4 implies that one), and PostgreSQL
-- inlines an index's predicate too when it loads the index.
-- state_sets_effective has state_is_own's codes as a bit test: the descendant guards ask
-- state_is_own (namespaces_own_state_idx) and namespace_effective_state this
-- (namespaces_stateful_idx); neither expression implies the other, so the planner never takes the
-- effective state's index for a guard.
--
-- A backend inlines an index's predicate once, when it first loads the index, and keeps it: a
-- predicate rewritten with other answers would leave the other sessions indexing new rows by the
-- old answers, and the rows already in the index stay as the old answers put them (an index scan
-- then returns rows its predicate excludes). So a change of the table that would change any answer
-- of a predicate an index or a constraint uses is refused (2BP01, naming them): the migration that
-- needs it drops them, changes the rows and builds them again (sql/README.md, Where a change
-- goes). A predicate whose answers stay is not rewritten at all.
--
-- EXECUTE on the predicates stays with PUBLIC: PostgreSQL inlines a function only for a role that
-- may execute it, and a backend that first loaded the indexes as a role without the right keeps
-- their predicates as calls, which then match no query's inlined predicate, whoever runs it.
--
-- No cached plan may keep an old answer. Replacing a function invalidates the plans that inlined
-- it, the predicates' callers included; but a call folded into a constant (state_names(),
-- state_flag_mask('archived')) leaves no trace in the plan of a function inlined around it
-- (PostgreSQL 15 records only that function), which is how every caller of
-- namespace_effective_state gets the digest. So each function whose body depends on a rewritten
-- one is touched as well (ALTER FUNCTION … COST to its own cost: a new catalog row, which
-- invalidates every plan that inlined it, in every session).
--
-- Dynamic SQL only from the table's own values, each quoted with %L, from the fixed names below,
-- and from the catalog (the dependents as regprocedure); nothing from a caller.
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
  predicate record;
  current_fn regprocedure;
  old_answers text[];
  users text;
  rewritten oid[];
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
  comment on function lifecycle.state_names() is
    'Each state code''s name, subscripted by code: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';
  comment on function lifecycle.state_flag_mask(text) is
    'The codes that carry a flag (archived, pending_deletion, read_only), a bit per code: a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.';
  rewritten := array['lifecycle.state_names()'::regprocedure, 'lifecycle.state_flag_mask(text)'::regprocedure]::oid[];

  -- Each predicate's answer for every code (answers, as text) and what its body is written from:
  -- the codes whose answer differs from a missing row's (listed), or their bits (mask), or every
  -- answer (the array of them, subscripted by code). fallback is the answer of a code without a row.
  for predicate in
    with answers as (
      select d.fn, d.form, d.fallback, d.description, c.code, coalesce(d.answer, d.fallback) as answer,
             coalesce((select max(m.code) from lifecycle.states m), 0) as top
        from pg_catalog.generate_series(0, 63) c(code)
        left join lifecycle.states s on s.code = c.code
       cross join lateral (values
         ('state_is_own', 'list', (not s.inherited)::text, 'true',
          'Whether a namespace in this state has a state of its own (lifecycle.states.inherited is false)'),
         ('state_sets_effective', 'mask', (not s.inherited)::text, 'true',
          'state_is_own''s answer as a bit test, for namespace_effective_state and namespaces_stateful_idx'),
         ('state_path_live', 'list', (not s.pending_deletion)::text, 'true',
          'Whether a namespace in this state holds its path (lifecycle.states.pending_deletion is false)'),
         ('state_deletion_adjourned', 'list', s.deletion_adjourned::text, 'false',
          'Whether this state is a deletion adjourned for the grace period (lifecycle.states.deletion_adjourned)'),
         ('state_being_created', 'list', s.being_created::text, 'false',
          'Whether a namespace in this state is still being created (lifecycle.states.being_created)'),
         ('state_permanent', 'list', s.permanent::text, 'false',
          'Whether this state is one a namespace stays in, not one it returns from (lifecycle.states.permanent)'),
         ('state_operation', 'array', s.operation, null,
          'The operation that owns this state (lifecycle.states.operation), null for none')
       ) d(fn, form, answer, fallback, description)
    )
    select a.fn, a.form, a.fallback, a.description,
           pg_catalog.array_agg(a.answer order by a.code) as answers,
           coalesce(pg_catalog.array_agg(a.code order by a.code) filter (where a.answer is distinct from a.fallback), '{}') as listed,
           coalesce(bit_or(1::bigint << a.code) filter (where a.answer is distinct from a.fallback), 0) as mask,
           -- Up to the highest code with a row; a subscript past it is null.
           pg_catalog.format('[0:%s]=%s', a.top, pg_catalog.array_agg(a.answer order by a.code) filter (where a.code <= a.top)) as array_text
      from answers a
     group by a.fn, a.form, a.fallback, a.description, a.top
     order by a.fn
  loop
    current_fn := pg_catalog.to_regprocedure(pg_catalog.format('lifecycle.%I(smallint)', predicate.fn));
    if current_fn is not null then
      execute pg_catalog.format(
        'select pg_catalog.array_agg(lifecycle.%I(c::smallint)::text order by c) from pg_catalog.generate_series(0, 63) c', predicate.fn)
        into old_answers;
      continue when old_answers is not distinct from predicate.answers;
      select pg_catalog.string_agg(coalesce('index ' || i.oid::regclass::text,
                                            pg_catalog.format('constraint %I of %s', k.conname, k.conrelid::regclass)),
                                   ', ' order by i.oid, k.oid)
        into users
        from pg_catalog.pg_depend d
        left join pg_catalog.pg_class i on d.classid = 'pg_catalog.pg_class'::regclass and i.oid = d.objid and i.relkind = 'i'
        left join pg_catalog.pg_constraint k on d.classid = 'pg_catalog.pg_constraint'::regclass and k.oid = d.objid
       where d.refclassid = 'pg_catalog.pg_proc'::regclass and d.refobjid = current_fn
         and (i.oid is not null or k.oid is not null);
      if users is not null then
        raise exception using errcode = '2BP01',
          message = pg_catalog.format('cannot change what lifecycle.%s answers while %s uses it', predicate.fn, users),
          detail = pg_catalog.format('codes whose answer would change: %s',
                     (select pg_catalog.string_agg(pg_catalog.format('%s %s (%s -> %s)', c - 1, coalesce(s.name, '(no row)'),
                                                                     old_answers[c], predicate.answers[c]), ', ' order by c)
                        from pg_catalog.generate_series(1, 64) c
                        left join lifecycle.states s on s.code = c - 1
                       where old_answers[c] is distinct from predicate.answers[c])),
          hint = 'Drop those indexes and constraints, change lifecycle.states, then build them again (sql/README.md, Where a change goes).';
      end if;
    end if;
    -- The body of each form, from typed values only: the codes (int, as the literals in the
    -- statements were, so an index on the predicate also serves a statement that still says
    -- state <> 2 and state <> 4), the mask, the answers.
    if predicate.form = 'mask' then
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(code smallint) returns boolean language sql immutable parallel safe
        return ((1::bigint << code) & %L::bigint) = 0$f$, predicate.fn, predicate.mask);
    elsif predicate.form = 'array' then
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(code smallint) returns text language sql immutable parallel safe
        return (%L::text[])[code]$f$, predicate.fn, predicate.array_text);
    elsif predicate.fallback = 'true' then
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(code smallint) returns boolean language sql immutable parallel safe
        return code <> all (%L::int[])$f$, predicate.fn, predicate.listed);
    else
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(code smallint) returns boolean language sql immutable parallel safe
        return code = any (%L::int[])$f$, predicate.fn, predicate.listed);
    end if;
    execute pg_catalog.format('comment on function lifecycle.%I(smallint) is %L', predicate.fn,
      predicate.description || ': a digest of lifecycle.states rewritten by its trigger states_digest, never by hand.');
    rewritten := rewritten || pg_catalog.to_regprocedure(pg_catalog.format('lifecycle.%I(smallint)', predicate.fn))::oid;
  end loop;

  for dependent in
    select distinct d.objid::regprocedure
      from pg_catalog.pg_depend d
     where d.classid = 'pg_catalog.pg_proc'::regclass and d.refclassid = 'pg_catalog.pg_proc'::regclass
       and d.refobjid = any (rewritten)
  loop
    execute pg_catalog.format('alter function %s cost %s', dependent,
      (select x.procost from pg_catalog.pg_proc x where x.oid = dependent));
  end loop;
end
$$;
