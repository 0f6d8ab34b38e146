-- The rows organization_move_in reads (docs/scaling.md, Cells): cmd/orgmove copies them in, in the
-- transaction that calls it, and it deletes them, so the table is always empty between
-- transactions. Unlogged: they live for one transaction.
create unlogged table lifecycle.organization_imports (
  organization_id bigint not null,
  kind text not null,
  data jsonb not null
);

comment on table lifecycle.organization_imports is
  'Staging for organization_move_in: the rows of organization_export, copied in by the transaction that calls it (which deletes them).';
