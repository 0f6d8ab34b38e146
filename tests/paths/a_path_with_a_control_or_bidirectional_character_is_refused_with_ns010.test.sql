-- Paths may not hold control or bidirectional formatting characters (docs/design.md §8): a create
-- by the application (lifecycle_app) with one in its path is refused with NS010, and the DETAIL
-- names the code point instead of quoting the path, so the refusal carries no such character
-- into a log.
begin;
select plan(1);

-- Every refused character: C0 and C1 controls, DEL, and the bidirectional formatting characters.
create temporary table refused_characters on commit drop as
select cp, upper(lpad(to_hex(cp), 4, '0')) as hex
  from (select generate_series(1, 31) as cp union all select 127 union all select generate_series(128, 159)
        union all select unnest(array[1564, 8206, 8207, 8234, 8235, 8236, 8237, 8238, 8294, 8295, 8296, 8297])) c;
grant select on refused_characters to public;
-- What a statement answers: its SQLSTATE, message and detail when refused.
create function pg_temp.refusal(statement text)
returns text
language plpgsql
as $$
declare
  detail text;
begin
  execute statement;
  return 'accepted';
exception when others then
  get stacked diagnostics detail = pg_exception_detail;
  return sqlstate || ' ' || sqlerrm || ': ' || detail;
end
$$;

select lifecycle_test.create_namespace(null, 'organization', 'acme');

set local role lifecycle_app;
select is_empty(
  $$select c.hex, r.answer
      from refused_characters c
     cross join lateral (select pg_temp.refusal(format(
             'insert into lifecycle.namespaces (parent_id, type, path, name) values (%s, %L, %L, %L)',
             lifecycle_test.id_of('acme'), 'group', 'ab' || chr(c.cp) || 'c', 'Fine')) as answer) r
     where r.answer <> format('NS010 invalid path: path contains U+%s, a control or bidirectional formatting character', c.hex)$$,
  'lifecycle_app: a create with any of them in the path is refused with NS010, naming the code point');
reset role;

select * from finish();
rollback;
