-- Names may not hold control or bidirectional formatting characters (docs/design.md §8): each C0
-- and C1 control character, DEL, U+061C, U+200E, U+200F, U+202A–U+202E and U+2066–U+2069 is
-- refused with NS010, naming its code point, when the application (lifecycle_app) creates a
-- namespace with it and when it writes it into a name with a raw UPDATE.
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

set local role lifecycle_app;
select is_empty(
  $$select c.hex, r.answer
      from refused_characters c
     cross join lateral (select pg_temp.refusal(format(
             'insert into lifecycle.namespaces (parent_id, type, path, name) values (%s, %L, %L, %L)',
             lifecycle_test.id_of('acme'), 'group', 'c' || c.cp, 'a' || chr(c.cp) || 'b')) as answer) r
     where r.answer <> format('NS010 invalid name: name contains U+%s, a control or bidirectional formatting character', c.hex)$$,
  'lifecycle_app: a create with any of them in the name is refused with NS010, naming the code point');
select is_empty(
  $$select c.hex, r.answer
      from refused_characters c
     cross join lateral (select pg_temp.refusal(format('update lifecycle.namespaces set name = %L where id = %s',
                                                       'Acme' || chr(c.cp), lifecycle_test.id_of('acme'))) as answer) r
     where r.answer <> format('NS010 invalid name: name contains U+%s, a control or bidirectional formatting character', c.hex)$$,
  'lifecycle_app: a raw UPDATE writing any of them into a name is refused with NS010');
reset role;
select is((select name from lifecycle.namespaces where id = lifecycle_test.id_of('acme')), 'acme', 'the name is unchanged');

select * from finish();
rollback;
