-- Resolve has a bounded cost (docs/design.md §8): a path with more segments than the tree may
-- have, or longer than such a path can be, is refused with NS010 before any lookup; the longest
-- acceptable path is looked up (and not found).
begin;
select plan(5);

select throws_ok($$select * from lifecycle.namespace_resolve(repeat('a/', 24000))$$,
                 'NS010', 'path is too long to resolve', 'a 48 KB path is refused');
select throws_ok($$select * from lifecycle.namespace_resolve(repeat('a/', 101))$$,
                 'NS010', 'path is too deep to resolve', '101 segments are refused');
select is_empty($$select * from lifecycle.namespace_resolve(repeat('a/', 100))$$, '100 segments are looked up');
select is_empty($$select * from lifecycle.namespace_resolve('/' || repeat(repeat('b', 100) || '/', 100))$$,
                '100 segments of 100 characters, with slashes around, are looked up');
select is_empty($$select * from lifecycle.namespace_resolve(null)$$, 'null resolves to nothing');

select * from finish();
rollback;
