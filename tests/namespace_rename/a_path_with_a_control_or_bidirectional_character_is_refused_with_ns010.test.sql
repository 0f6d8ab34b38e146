-- A rename to a path with a control or bidirectional formatting character (docs/design.md §8) is
-- refused with NS010, the DETAIL naming the code point, and changes nothing: called by the
-- application (lifecycle_app) for an owner.
begin;
select plan(3);

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
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 1001, 50);

set local role lifecycle_app;
select is_empty(
  $$select c.hex, r.answer
      from refused_characters c
     cross join lateral (select pg_temp.refusal(format('select * from lifecycle.namespace_rename(%s, %L, 1001)',
                                                       lifecycle_test.id_of('acme/site'), 'web' || chr(c.cp))) as answer) r
     where r.answer <> format('NS010 invalid path: path contains U+%s, a control or bidirectional formatting character', c.hex)$$,
  'lifecycle_app: a rename to a path with any of them is refused with NS010, naming the code point');
reset role;
select is((select path from lifecycle.namespaces where id = lifecycle_test.id_of('acme/site')), 'site', 'the path is unchanged');
select is((select count(*) from lifecycle.namespace_redirects), 0::bigint, 'no redirect was written');

select * from finish();
rollback;
