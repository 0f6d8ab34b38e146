-- The digest the effective state folds into its plan (state_names, state_flag_mask) says what
-- lifecycle.states says: each code's name at its own subscript, and a bit per code for each flag.
begin;
select plan(5);

select is(
  (select array_agg(n order by c) from unnest(lifecycle.state_names()) with ordinality u(n, c)
    where n is not null),
  (select array_agg(name order by code) from lifecycle.states),
  'every name, in the order of the codes'
);
select is_empty(
  $$select s.code from lifecycle.states s where (lifecycle.state_names())[s.code] is distinct from s.name$$,
  'each name sits at its own code as the subscript'
);
select is(lifecycle.state_flag_mask('archived'),
  (select bit_or(1::bigint << code) from lifecycle.states where name = 'archived'), 'the archived bit');
select is(lifecycle.state_flag_mask('pending_deletion'),
  (select bit_or(1::bigint << code) from lifecycle.states where pending_deletion), 'the pending-deletion bits');
select is(lifecycle.state_flag_mask('read_only'),
  (select bit_or(1::bigint << code) from lifecycle.states where read_only), 'the read-only bits');

select * from finish();
rollback;
