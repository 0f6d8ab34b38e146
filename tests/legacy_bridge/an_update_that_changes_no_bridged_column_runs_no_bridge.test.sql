-- An UPDATE of a bridged table that changes none of the columns its state bridges read (GitLab's
-- updated_at and last_activity_at, all day) does not run the bridges' trigger: it costs about what
-- it costs without bridges (docs/design.md §10.2, Cost). One that changes such a column does, as
-- does one whose change comes from the application's own BEFORE trigger (the clause sees the row
-- as stored, which UPDATE OF would not), and one after a bridged column was renamed (the clause
-- cannot name it any more: the trigger decides, and still carries the change).
begin;
select plan(7);
select lifecycle_test.create_gitlab_legacy();
alter table legacy.projects add column updated_at timestamptz, add column flagged boolean not null default false;
set local track_functions = 'all';

create function lifecycle_test.source_calls() returns bigint language sql
  as $$select coalesce((select calls from pg_stat_xact_user_functions where schemaname = 'lifecycle' and funcname = 'legacy_bridge_source'), 0)$$;

update legacy.projects set updated_at = now() where id = 502;
select is(lifecycle_test.source_calls(), 0::bigint, 'an UPDATE of a column no bridge reads does not run the bridges'' trigger');
update legacy.projects set archived = archived, updated_at = now() where id = 502;
select is(lifecycle_test.source_calls(), 0::bigint, 'nor one that writes a bridged column''s value unchanged (as Rails never does)');

update legacy.projects set archived = true where id = 502;
select is(lifecycle_test.source_calls(), 1::bigint, 'an UPDATE that changes a bridged column runs it once');
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/docs')), 1, 'and the project is archived');

-- The application's BEFORE trigger turns its own flag into the bridged column.
create function legacy.flag_archives() returns trigger language plpgsql as $$begin new.archived := new.flagged; return new; end$$;
create trigger flag_archives before update on legacy.projects for each row execute function legacy.flag_archives();
update legacy.projects set flagged = false where id = 502;
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/docs')), 0,
          'a bridged column changed by the application''s BEFORE trigger is carried (unarchived)');
drop trigger flag_archives on legacy.projects;

alter table legacy.projects rename column archived to is_archived;
update legacy.projects set is_archived = true where id = 502;
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/docs')), 1,
          'after the bridged column is renamed, its change is still carried');
update legacy.projects set updated_at = now() where id = 501;
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/site')), 0,
          'and an UPDATE of other columns still goes through (the trigger decides: nothing to carry)');

select * from finish();
rollback;
