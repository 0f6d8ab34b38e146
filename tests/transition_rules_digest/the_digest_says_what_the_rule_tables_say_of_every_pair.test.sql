-- The digest a state change reads (lifecycle.transition_rule, lifecycle.event_rule) says what the
-- rule tables say, for every pair of states, every creation and every event: computed here
-- straight from the tables, independently of lifecycle.transition_rules_write.
begin;
select plan(8);

select is_empty($$
  select f.code, t.code
    from (select code from lifecycle.states union all select null) f
   cross join lifecycle.states t
   where lifecycle.transition_rule(f.code, t.code) is distinct from (
           (select m.from_state is not null or m.to_state is not null
              from (select null::smallint as from_state, null::smallint as to_state) z
              left join lifecycle.state_transitions m
                on m.from_state is not distinct from f.code and m.to_state = t.code),
           (select p.min_access_level from lifecycle.transition_policies p where p.to_state = t.code),
           coalesce((select array_agg(g.forbidden_state order by g.forbidden_state) from lifecycle.transition_guards g
                      where g.from_state is not distinct from f.code and g.to_state = t.code and g.scope = 'ancestor'), '{}'),
           coalesce((select array_agg(g.forbidden_state order by g.forbidden_state) from lifecycle.transition_guards g
                      where g.from_state is not distinct from f.code and g.to_state = t.code and g.scope = 'descendant'), '{}'),
           coalesce((select s.name from lifecycle.states s where s.code = f.code), '(new)'),
           (select s.name from lifecycle.states s where s.code = t.code),
           (select s.permanent from lifecycle.states s where s.code = t.code),
           coalesce((select s.pending_deletion from lifecycle.states s where s.code = f.code), false),
           (select s.pending_deletion from lifecycle.states s where s.code = t.code),
           (select s.operation from lifecycle.states s where s.code = f.code),
           (select s.operation from lifecycle.states s where s.code = t.code and s.operation_enters),
           (select m.audit_action from lifecycle.state_transitions m
             where m.from_state is not distinct from f.code and m.to_state = t.code))::lifecycle.transition_rule
$$, 'every pair of states and every creation: the matrix, the level, the guards, the names and flags, the operations, the audit action');
select ok(exists (select from lifecycle.states s
                   where s.operation_enters and (lifecycle.transition_rule(0::smallint, s.code)).to_operation = s.operation),
  'a state its operation enters says so in the digest (the comparison above is not vacuous)');

select ok((select count(*) from lifecycle.state_transitions) > 0
          and (select bool_and((lifecycle.transition_rule(from_state, to_state)).allowed)
                 from lifecycle.state_transitions),
  'every pair of the matrix is allowed (the comparison above is not vacuous)');
select is(lifecycle.transition_rule(0::smallint, 63::smallint), null, 'an unknown state has no rule');
select is((lifecycle.transition_rule(lifecycle.state_code('active'), lifecycle.state_code('archived'))).audit_action,
          (select m.audit_action from lifecycle.state_transitions m
            where m.from_state = lifecycle.state_code('active') and m.to_state = lifecycle.state_code('archived')),
  'archiving names its audit action (the comparison above is not vacuous)');

select is_empty($$
  select e.name from lifecycle.events e
   where lifecycle.event_rule(e.name) is distinct from
         (e.target_state, e.target_key,
          coalesce((select array_agg(s.from_state order by s.from_state) from lifecycle.event_sources s
                     where s.event = e.name), '{}'))::lifecycle.event_rule
$$, 'every event: its target, its key and the states it applies from');
select is((lifecycle.event_rule('restore')).target_key, 'preserved_state',
  'restore goes back to the preserved state (the comparison above is not vacuous)');
select is(lifecycle.event_rule('no such event'), null, 'an unknown event has no rule');

select * from finish();
rollback;
