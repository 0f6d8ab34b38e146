-- Flags that let the statements a function makes skip work or checks (importing,
-- legacy_bridge_applying, …: sql/README.md, Context between functions and triggers). Raised,
-- asked and lowered through transaction_flag_raise, _raised and _lower, keyed by the transaction;
-- only those functions write the table. Unlogged: a row lives for one transaction.
create unlogged table lifecycle.transaction_flags (
  xact xid8 not null,
  flag text not null,
  constraint transaction_flags_pkey primary key (xact, flag)
);

comment on table lifecycle.transaction_flags is
  'Flags a function raises for the statements it makes in its transaction (transaction_flag_raise), which no client can forge as it can a setting. Empty between transactions: lowered by the function that raised them, or rolled back with it.';
