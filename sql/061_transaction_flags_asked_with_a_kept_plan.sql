-- transaction_flag_raised in PL/pgSQL. As a SQL function that is a definer with a SET clause, it
-- was never inlined, and PostgreSQL parsed and planned its body again at every call: 227k
-- instructions a call (callgrind, single-user postgres, two calls a transaction) against 60k with
-- the plan PL/pgSQL keeps for the session (within one transaction a SQL function keeps its plan
-- across calls from the same expression, so the cost is per transaction). Every change asks it
-- twice while legacy bridges exist (namespace_lock, legacy_bridge_state): an API transition with a
-- state bridge installed, 5.61 M instructions before, 5.27 M after (the bench's targets, 100k). What
-- it answers is unchanged.
--
-- Locks: none on a table; the function is replaced in place (its grants stay).

{{ template "functions/transaction_flag_raised.sql" . }}

---- create above / drop below ----

{{ template "snapshots/032/transaction_flag_raised.sql" . }}
