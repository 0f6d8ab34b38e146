-- The named predicates of the states (states_digest_write) answer what lifecycle.states says, for
-- every code 0 to 63: a code without a row as a row with the columns' defaults would (its own
-- state, path live, no operation); and the seed rows give them the meanings of docs/design.md §2.
begin;
select plan(12);

create temp table truth as
  select c::smallint as code, s.name,
         not coalesce(s.inherited, false) as own,
         not coalesce(s.pending_deletion, false) as live,
         coalesce(s.deletion_adjourned, false) as adjourned,
         coalesce(s.being_created, false) as created,
         coalesce(s.permanent, false) as permanent,
         s.operation
    from generate_series(0, 63) c
    left join lifecycle.states s on s.code = c;

select is((select count(*) from pg_temp.truth where lifecycle.state_is_own(code) is distinct from own), 0::bigint,
  'state_is_own is not inherited, for every code');
select is((select count(*) from pg_temp.truth where lifecycle.state_sets_effective(code) is distinct from own), 0::bigint,
  'state_sets_effective has the same codes as state_is_own');
select is((select count(*) from pg_temp.truth where lifecycle.state_path_live(code) is distinct from live), 0::bigint,
  'state_path_live is not pending_deletion, for every code');
select is((select count(*) from pg_temp.truth where lifecycle.state_deletion_adjourned(code) is distinct from adjourned), 0::bigint,
  'state_deletion_adjourned is deletion_adjourned, for every code');
select is((select count(*) from pg_temp.truth where lifecycle.state_being_created(code) is distinct from created), 0::bigint,
  'state_being_created is being_created, for every code');
select is((select count(*) from pg_temp.truth where lifecycle.state_operation(code) is distinct from operation), 0::bigint,
  'state_operation is operation, for every code');
select is((select count(*) from pg_temp.truth where lifecycle.state_permanent(code) is distinct from permanent), 0::bigint,
  'state_permanent is permanent, for every code');

-- What the seed rows mean (design §2), by name.
select results_eq($$select name from pg_temp.truth where not own and name is not null$$,
  $$values ('ancestor_inherited'::text)$$, 'only ancestor_inherited is no state of its own');
select results_eq($$select name from pg_temp.truth where not live order by code$$,
  $$values ('deletion_scheduled'::text), ('deletion_in_progress')$$, 'the two pending deletions release the path');
select results_eq($$select name, adjourned, created from pg_temp.truth where adjourned or created order by code$$,
  $$values ('deletion_scheduled'::text, true, false), ('creation_in_progress', false, true)$$,
  'deletion_scheduled is the adjourned deletion, creation_in_progress the creation');
select results_eq($$select name, operation from pg_temp.truth where operation is not null order by code$$,
  $$values ('deletion_in_progress'::text, 'hard_delete'::text), ('transfer_in_progress', 'transfer')$$,
  'the hard delete and the transfer own their states');
select results_eq($$select name from pg_temp.truth where permanent order by code$$,
  $$values ('ancestor_inherited'::text), ('archived')$$, 'active and archived are the permanent states');

select * from finish();
rollback;
