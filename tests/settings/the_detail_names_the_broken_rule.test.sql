begin;
select plan(2);

-- The NS010 of a refused settings change says in its DETAIL which rule was broken.
create function pg_temp.error_of(call text) returns text[] language plpgsql as $$
declare
  state text;
  detail text;
begin
  execute call;
  return null;
exception when others then
  get stacked diagnostics state = returned_sqlstate, detail = pg_exception_detail;
  return array[state, detail];
end
$$;

select is(
  pg_temp.error_of($$update lifecycle.settings set deletion_adjourned_period_days = 91$$),
  array['NS010', 'deletion_adjourned_period_days must be 1 to 90, not 91'],
  'a grace period of 91 days: the detail gives the range 1 to 90'
);
select is(
  pg_temp.error_of($$update lifecycle.settings set rename_limit = 0$$),
  array['NS010', 'rename_limit must be 1 to 1000, not 0'],
  'a rename limit of 0: the detail gives the rename limit''s range'
);

select * from finish();
rollback;
