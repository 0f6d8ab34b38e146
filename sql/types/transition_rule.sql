-- One answer of lifecycle.transition_rule(from_state, to_state), the digest of the transition rules
-- that transition_rules_write writes from the rule tables.
create type lifecycle.transition_rule as (
  allowed boolean,
  min_access_level smallint,
  ancestor_forbidden smallint[],
  descendant_forbidden smallint[],
  from_name text,
  to_name text,
  to_permanent boolean,
  from_pending boolean,
  to_pending boolean,
  from_operation text,
  to_operation text,
  audit_action text
);
comment on type lifecycle.transition_rule is
  'What the rule tables say of a change between two states: in the matrix or not, the access level it needs, the states its guards forbid an ancestor and a descendant, the two states'' names and flags, the operation that owns the state left and the one that alone enters the state entered.';
