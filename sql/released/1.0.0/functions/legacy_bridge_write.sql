-- Write what a namespace's state now says into one bridge's legacy data (docs/design.md §10):
-- the flag set or cleared, the column set (to `at`, kept if set already) or cleared, the row
-- inserted or deleted, with the time and actor in at_column and by_column (cleared with the state
-- where they allow null). Each statement changes only rows that disagree, so writing what is
-- already there touches nothing and wakes no trigger: no loop between the two directions.
-- A by_column the table requires (GitLab's group_deletion_schedules.user_id, NOT NULL) takes the
-- bridge's actor_id where the change names nobody (the system, the sweeper); without one the write
-- is NS010, naming the bridge. A flag or column bridge that inserts missing rows inserts the row a
-- namespace lacks when its condition turns on (required time columns take the change's time). The
-- application's own triggers on its table run as for its own writes: with the table's schema as
-- search_path (GitLab's name tables unqualified), set for this function's statements only.
create or replace function lifecycle.legacy_bridge_write(b lifecycle.legacy_bridges, ns_id bigint, holds boolean, at timestamptz, actor bigint)
returns void
language plpgsql
security definer
set search_path to ''
as $$
declare
  ns_col name := lifecycle.legacy_bridge_column(b.source, b.namespace_attnum);
  when_col name;
  at_col name;
  by_col name;
  extra text := '';
  nullable_at boolean;
  nullable_by boolean;
  written int;
  times text := '';
  time_cols text := '';
begin
  perform pg_catalog.set_config('search_path',
            (select pg_catalog.quote_ident(n.nspname) from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
              where c.oid = b.source), true);
  if b.at_attnum is not null then
    at_col := lifecycle.legacy_bridge_column(b.source, b.at_attnum);
    select not a.attnotnull into nullable_at from pg_catalog.pg_attribute a where a.attrelid = b.source and a.attnum = b.at_attnum;
  end if;
  if b.by_attnum is not null then
    by_col := lifecycle.legacy_bridge_column(b.source, b.by_attnum);
    select not a.attnotnull into nullable_by from pg_catalog.pg_attribute a where a.attrelid = b.source and a.attnum = b.by_attnum;
    if holds and actor is null and not nullable_by then
      actor := b.actor_id;
      if actor is null then
        perform lifecycle.legacy_bridge_refuse(b, pg_catalog.format(
          'the change names no user, and %s.%I requires one: give the bridge an actor_id', b.source, by_col), ns_id);
      end if;
    end if;
  end if;

  if b.kind = 'exists' then
    if holds then
      execute pg_catalog.format('insert into %s (%I%s%s) select $1%s%s where not exists (select from %s where %I = $1)',
        b.source, ns_col,
        case when at_col is not null then pg_catalog.format(', %I', at_col) else '' end,
        case when by_col is not null then pg_catalog.format(', %I', by_col) else '' end,
        case when at_col is not null then ', $2' else '' end,
        case when by_col is not null then ', $3' else '' end,
        b.source, ns_col)
        using ns_id, at, actor;
    else
      execute pg_catalog.format('delete from %s where %I = $1', b.source, ns_col) using ns_id;
    end if;
    return;
  end if;

  when_col := lifecycle.legacy_bridge_column(b.source, b.when_attnum);
  -- Time and actor beside the condition: set with it, cleared with it where they may be null
  -- (a column bridge whose condition is its time column leaves that to the condition).
  if at_col is not null and at_col <> when_col and (holds or nullable_at) then
    extra := extra || pg_catalog.format(', %I = %s', at_col, case when holds then '$2' else 'null' end);
  end if;
  if by_col is not null and (holds or nullable_by) then
    extra := extra || pg_catalog.format(', %I = %s', by_col, case when holds then '$3' else 'null' end);
  end if;
  if b.kind = 'flag' then
    execute pg_catalog.format('update %s set %I = $4%s where %I = $1 and %I is distinct from $4',
                              b.source, when_col, extra, ns_col, when_col)
      using ns_id, at, actor, holds;
  elsif holds then
    execute pg_catalog.format('update %s set %I = $2%s where %I = $1 and %I is null', b.source, when_col, extra, ns_col, when_col)
      using ns_id, at, actor;
  end if;
  if holds and b.insert_missing then
    get diagnostics written = row_count;
    if written = 0 then
      select coalesce(pg_catalog.string_agg(pg_catalog.format(', %I', a.attname), '' order by a.attnum), ''),
             coalesce(pg_catalog.string_agg(pg_catalog.format(', $2::%s', pg_catalog.format_type(a.atttypid, a.atttypmod)), ''
                                            order by a.attnum), '')
        into time_cols, times
        from pg_catalog.pg_attribute a
       where a.attrelid = b.source and a.attnum > 0 and not a.attisdropped and a.attnotnull and not a.atthasdef
         and a.attidentity = '' and a.attgenerated = ''
         and a.attnum not in (b.namespace_attnum, b.when_attnum, coalesce(b.at_attnum, 0), coalesce(b.by_attnum, 0))
         and a.atttypid = any (array['timestamptz', 'timestamp', 'date']::regtype[]);
      execute pg_catalog.format('insert into %s (%I, %I%s%s%s) select $1, %s%s%s%s where not exists (select from %s where %I = $1)',
        b.source, ns_col, when_col,
        case when at_col is not null and at_col <> when_col then pg_catalog.format(', %I', at_col) else '' end,
        case when by_col is not null then pg_catalog.format(', %I', by_col) else '' end,
        time_cols,
        case b.kind when 'flag' then 'true' else '$2' end,
        case when at_col is not null and at_col <> when_col then ', $2' else '' end,
        case when by_col is not null then ', $3' else '' end,
        times, b.source, ns_col)
        using ns_id, at, actor;
    end if;
  elsif not holds and b.kind <> 'flag' then
    execute pg_catalog.format('update %s set %I = null%s where %I = $1 and %I is not null', b.source, when_col, extra, ns_col, when_col)
      using ns_id, at, actor;
  end if;
end
$$;
