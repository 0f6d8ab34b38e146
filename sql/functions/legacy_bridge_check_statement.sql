-- The statement lifecycle.legacy_bridge_check runs (see there what it reports and how it reads),
-- built from the bridges' catalog-checked identifiers: a broken bridge stops it with NS010 naming
-- it and its repair. Its parameters $1-$3 are legacy_members_statement's, passed null (every
-- membership). A function of its own so that a test can plan it as the check does.
create or replace function lifecycle.legacy_bridge_check_statement()
returns text
language plpgsql
stable
set search_path to ''
as $$
declare
  b lifecycle.legacy_bridges;
  t lifecycle.legacy_tree_bridges;
  broken text;
  i int := 0;
  joins text := '';
  cols text := '';
  checks text[] := '{}'::text[];
  st record;
  speaks text;
  holds text;
  src text;
  following text := 'false';
  tree_src text := 'null::regclass';
  tree_held text := 'false';
  tree_type text;
  mapped text[];
  anti text[] := '{}'::text[];
  conds text[] := '{}'::text[];
  ns_col name;
  unique_col boolean;
  g record;
  visibility_rank text;
  level_name text;
  state_name text;
  temporary_states smallint[];
  preserved text;
  k int;
  exprs text;
  sql text;
  mb lifecycle.legacy_members_bridges;
  members text[] := '{}'::text[];
  parts text[] := '{}'::text[];
begin
  -- The rules' names and ranks as CASE expressions built from their tables (read once here, not
  -- joined to every namespace).
  select 'case n.visibility ' || pg_catalog.string_agg(pg_catalog.format('when %L then %s', v.name, v.rank), ' ') || ' end',
         'case $level ' || pg_catalog.string_agg(pg_catalog.format('when %s then %L', v.rank, v.name), ' ') || ' end'
    into visibility_rank, level_name
    from lifecycle.visibility_levels v;
  select 'case n.state ' || pg_catalog.string_agg(pg_catalog.format('when %s then %L', x.code, x.name), ' ') || ' end',
         coalesce(pg_catalog.array_agg(x.code) filter (where not x.permanent), '{}')
    into state_name, temporary_states
    from lifecycle.states x;
  -- The state a temporary state preserves (archived beside a deletion): from the details row, asked
  -- only of the namespaces in such a state. A join, not a subquery per row: a part that runs beside
  -- the others may hold no correlated subquery (PostgreSQL 15 runs those in the leader only).
  preserved := pg_catalog.format('case when n.state = any (%L::smallint[]) then d0.state_metadata ->> ''preserved_state'' end',
                                 temporary_states);

  -- The state bridges: one subquery per table and namespace column, holding what each of its
  -- bridges says (aggregated by namespace unless the column is the table's unique key), joined to
  -- the namespaces; h<i> is what bridge i (in id order) says of the namespace, null when it does
  -- not speak for it.
  for b in select * from lifecycle.legacy_bridges x order by x.id loop
    broken := lifecycle.legacy_bridge_broken(b);
    if broken is not null then
      perform lifecycle.legacy_bridge_refuse(b, broken, null);
    end if;
  end loop;
  for g in select x.source, x.namespace_attnum, pg_catalog.array_agg(x.ord order by x.ord) as ords,
                  pg_catalog.array_agg(x.id order by x.ord) as ids
             from (select y.*, pg_catalog.row_number() over (order by y.id) as ord from lifecycle.legacy_bridges y) x
            group by x.source, x.namespace_attnum
            order by pg_catalog.min(x.ord) loop
    i := i + 1;
    ns_col := lifecycle.legacy_bridge_column(g.source, g.namespace_attnum);
    unique_col := exists (select from pg_catalog.pg_index x
                           where x.indrelid = g.source and x.indisunique and x.indisvalid and x.indpred is null
                             and x.indnatts = 1 and x.indkey[0] = g.namespace_attnum);
    exprs := '';
    for b in select z.* from lifecycle.legacy_bridges z where z.id = any (g.ids) order by z.id loop
      k := g.ords[pg_catalog.array_position(g.ids, b.id)];
      exprs := exprs || pg_catalog.format(
        ', %s as x%s',
        case when b.kind = 'exists' then 'true'
             else pg_catalog.format(case when unique_col then '%s' else 'bool_or(%s)' end,
                                    case b.kind when 'flag' then pg_catalog.format('coalesce(s.%I, false)',
                                                                                    lifecycle.legacy_bridge_column(b.source, b.when_attnum))
                                                else pg_catalog.format('s.%I is not null',
                                                                       lifecycle.legacy_bridge_column(b.source, b.when_attnum)) end) end,
        k);
      cols := cols || pg_catalog.format(
        ', case when %L::text[] is null or n.type = any (%L::text[]) then %s end as h%s',
        b.namespace_types, b.namespace_types,
        case when b.kind = 'exists' then pg_catalog.format('b%s.ns is not null', i)
             when b.insert_missing then pg_catalog.format('coalesce(b%s.x%s, false)', i, k)
             else pg_catalog.format('b%s.x%s', i, k) end,
        k);
    end loop;
    joins := joins || pg_catalog.format(' left join (select s.%I::bigint as ns%s from %s s %s) b%s on b%s.ns = n.id',
                                        ns_col, exprs, g.source, case when unique_col then '' else 'group by 1' end, i, i);
  end loop;

  -- The tree bridges: each table's rows of the types it maps, joined by id; t<j> its row.
  i := 0;
  for t in select * from lifecycle.legacy_tree_bridges x order by x.id loop
    broken := lifecycle.legacy_tree_broken(t);
    if broken is not null then
      perform lifecycle.legacy_tree_refuse(t, broken, null);
    end if;
    i := i + 1;
    tree_type := case when t.type_attnum is null then pg_catalog.quote_literal(t.types #>> '{}')
                      else pg_catalog.format('(%L::jsonb ->> s.%I)', t.types, lifecycle.legacy_bridge_column(t.source, t.type_attnum)) end;
    mapped := case when t.type_attnum is null then array[t.types #>> '{}']
                   else (select pg_catalog.array_agg(distinct m.value) from pg_catalog.jsonb_each_text(t.types) m) end;
    sql := pg_catalog.format(
      'select s.%I::bigint as id, s.%I::bigint as parent_id, %s as type, s.%I::text as path, s.%I::text as name, %s as level '
      'from %s s where %s is not null',
      lifecycle.legacy_bridge_column(t.source, t.id_attnum), lifecycle.legacy_bridge_column(t.source, t.parent_attnum), tree_type,
      lifecycle.legacy_bridge_column(t.source, t.path_attnum), lifecycle.legacy_bridge_column(t.source, t.name_attnum),
      case when t.visibility_attnum is null then 'null::int'
           else pg_catalog.format('s.%I::int', lifecycle.legacy_bridge_column(t.source, t.visibility_attnum)) end,
      t.source, tree_type);
    joins := joins || pg_catalog.format(' left join (%s) t%s on t%s.id = n.id and n.type = any (%L::text[])', sql, i, i, mapped);
    -- Each disagreement: (sort key, source, legacy says, lifecycle says, when).
    checks := checks || pg_catalog.format(
      '(100 + %1$s, %2$L::regclass, ''no row'', %7$s, n.type = any (%3$L::text[]) and t%1$s.id is null), '
      '(110 + %1$s, %2$L::regclass, ''parent '' || coalesce(t%1$s.parent_id::text, ''none''), ''parent '' || coalesce(n.parent_id::text, ''none''), '
      '  t%1$s.id is not null and t%1$s.parent_id is distinct from n.parent_id), '
      '(120 + %1$s, %2$L::regclass, ''path '' || coalesce(t%1$s.path, ''none''), ''path '' || n.path, '
      '  t%1$s.id is not null and not coalesce(lifecycle.legacy_path_matches(t%1$s.path, n.path, n.id), false)), '
      '(130 + %1$s, %2$L::regclass, ''name '' || coalesce(t%1$s.name, ''none''), ''name '' || n.name, '
      '  t%1$s.id is not null and t%1$s.name is distinct from n.name), '
      '(140 + %1$s, %2$L::regclass, ''visibility '' || coalesce(%5$s, t%1$s.level::text, ''none''), ''visibility '' || n.visibility, '
      '  t%1$s.id is not null and %4$L and t%1$s.level is distinct from %6$s), '
      '(150 + %1$s, %2$L::regclass, ''type '' || t%1$s.type, ''type '' || n.type, t%1$s.id is not null and t%1$s.type <> n.type)',
      i, t.source, mapped, t.visibility_attnum is not null, pg_catalog.replace(level_name, '$level', pg_catalog.format('t%s.level', i)),
      visibility_rank, state_name);
    conds := conds || pg_catalog.format(
      '(t%1$s.id is null and n.type = any (%2$L::text[])) or (t%1$s.id is not null and (t%1$s.parent_id is distinct from n.parent_id '
      'or not coalesce(lifecycle.legacy_path_matches(t%1$s.path, n.path, n.id), false) or t%1$s.name is distinct from n.name '
      'or (%3$L and t%1$s.level is distinct from %4$s) or t%1$s.type <> n.type))',
      i, mapped, t.visibility_attnum is not null, visibility_rank);
    tree_held := tree_held || pg_catalog.format(' or t%s.id is not null', i);
    tree_src := pg_catalog.format('coalesce(case when t%s.id is not null then %L::regclass end, %s)', i, t.source, tree_src);
    -- The rows of it the lifecycle lacks (what became of each is asked of them alone, below).
    anti := anti || pg_catalog.format(
      'select r.id, 200 + %s, %L::regclass, ''a row'', null::text '
      'from (%s) r where not exists (select from lifecycle.namespaces n where n.id = r.id)',
      i, t.source, sql);
  end loop;

  -- Without a state or tree bridge, the memberships alone.
  if cols <> '' or pg_catalog.cardinality(anti) > 0 then
    -- Per bridged state: whether any bridge of it speaks for the namespace, whether one holds, the
    -- table to name (the first that holds, else the first that speaks), and whether the state says
    -- it. A pending-deletion state said beside another state (a schedule while the deletion runs)
    -- needs the deletion's date: an immediate deletion has none.
    for st in select x.state, s.name, s.pending_deletion, pg_catalog.array_agg(x.ord order by x.ord) as ords,
                     pg_catalog.array_agg(x.source order by x.ord) as sources
                from (select y.state, y.source, pg_catalog.row_number() over (order by y.id) as ord
                        from lifecycle.legacy_bridges y) x
                join lifecycle.states s on s.code = x.state
               group by x.state, s.name, s.pending_deletion
               order by x.state loop
      select pg_catalog.string_agg(pg_catalog.format('w.h%s is not null', u.o), ' or '),
             pg_catalog.string_agg(pg_catalog.format('coalesce(w.h%s, false)', u.o), ' or '),
             'case ' || pg_catalog.string_agg(pg_catalog.format('when w.h%s then %L::regclass', u.o, st.sources[u.k]), ' ')
               || ' ' || pg_catalog.string_agg(pg_catalog.format('when w.h%s is not null then %L::regclass', u.o, st.sources[u.k]), ' ')
               || ' end'
        into speaks, holds, src
        from pg_catalog.unnest(st.ords) with ordinality u (o, k);
      checks := checks || pg_catalog.format(
        '(%1$s, coalesce(%2$s, w.tree_source), case when %3$s then %4$L else %5$L end, %7$s, '
        ' case when %6$s then (%3$s) <> w.says%1$s else u.unsaid and w.says%1$s end)',
        st.state, src, holds, st.name, 'not ' || st.name, speaks, state_name);
      conds := conds || pg_catalog.format('case when %1$s then (%2$s) <> w.says%3$s else u.unsaid and w.says%3$s end',
                                          speaks, holds, st.state);
      cols := cols || pg_catalog.format(
        ', lifecycle.legacy_bridge_says(%1$s::smallint, n.state, w0.preserved)%2$s as says%1$s',
        st.state, case when st.pending_deletion then pg_catalog.format(' and (n.state = %s or n.deletion_scheduled_at is not null)', st.state)
                       else '' end);
      following := following || pg_catalog.format(' or (w.says%s and (%s))', st.state, holds);
    end loop;

    -- What no bridge can say (legacy_bridge_sync's refusal, u.unsaid): held by a tree-bridged table,
    -- in a state some bridged condition follows from, and no bridge of those holds; then each such
    -- state no bridge speaks for is reported. The first condition (any disagreement) is evaluated
    -- before the rows of a namespace are made, so only the namespaces that disagree make any.
    sql := pg_catalog.format(
      'select n.id, c.ord, c.src, c.legacy, c.lifecycle from lifecycle.namespaces n %1$s '
      'left join lifecycle.namespace_details d0 on d0.namespace_id = n.id '
      'cross join lateral (select %8$s as preserved) w0 '
      'cross join lateral (select %2$s as tree_held, %3$s as tree_source %4$s) w '
      'cross join lateral (select w.tree_held and not (%5$s) as unsaid) u '
      'cross join lateral (values %6$s) c (ord, src, legacy, lifecycle, diverges) '
      'where ((%7$s)) and c.diverges',
      joins, tree_held, tree_src, cols, following, pg_catalog.array_to_string(checks, ', '),
      coalesce(pg_catalog.array_to_string(conds, ') or ('), 'false'), preserved);
    -- (The conditions above are one parenthesised disjunction: "where (a) or (b) and c" would bind c to b alone.)
    if pg_catalog.cardinality(anti) > 0 then
      sql := sql || ' union all ' || pg_catalog.array_to_string(anti, ' union all ');
    end if;
    parts := array[sql];
  end if;

  -- The memberships, as legacy_members_check compares them (ord 1000 and up: listed after the
  -- states and the tree, by namespace and what GitLab says, as before).
  for mb in select * from lifecycle.legacy_members_bridges x order by x.id loop
    members := members || pg_catalog.format(
      'select coalesce(g.namespace_id, l.namespace_id), 1000 + %1$s, %2$L::regclass, '
      '       case when g.held then ''member '' || g.user_id || '' at level '' || g.access_level '
      '            else ''not member '' || l.user_id end, '
      '       case when l.user_id is null then ''not member '' || g.user_id '
      '            else ''member '' || l.user_id || '' at level '' || l.access_level end '
      '  from (%3$s) g (namespace_id, user_id, access_level, created_at, held) '
      '  full join lifecycle.namespace_members l on l.namespace_id = g.namespace_id and l.user_id = g.user_id '
      ' where case when g.held then g.access_level is distinct from l.access_level else l.user_id is not null end',
      pg_catalog.cardinality(members), mb.source, lifecycle.legacy_members_statement(mb.source, mb.projects, false));
  end loop;
  parts := parts || members;
  if pg_catalog.cardinality(parts) = 0 then
    return 'select null::bigint, null::regclass, null::text, null::text where false';
  end if;
  -- What became of a legacy row the lifecycle lacks is asked of those rows alone, by the leader.
  -- (As legacy_bridge_rows: the statement's parts in an array, every identifier in them quoted by
  -- format's %I and every value by %L when the parts were made. $1-$3 are legacy_members_statement's
  -- parameters, null for every membership.)
  return pg_catalog.array_to_string(
    array['select q.ns, q.src, q.legacy, case when q.ord >= 200 and q.ord < 1000 then ',
          'case when exists (select from lifecycle.deleted_namespaces d where d.namespace_id = q.ns) then ''hard_deleted'' ',
          'else coalesce((select ''staged'' || coalesce('', rejected '' || i.reject_code, '''') ',
          'from lifecycle.namespace_imports i where i.id = q.ns), ''no namespace'') end else q.lifecycle end from (',
          pg_catalog.array_to_string(parts, ' union all '),
          ') q (ns, ord, src, legacy, lifecycle) order by q.ord >= 1000, q.ns, q.ord, q.legacy'], '');
end
$$;

comment on function lifecycle.legacy_bridge_check_statement() is
  'The statement lifecycle.legacy_bridge_check runs (for its tests).';
