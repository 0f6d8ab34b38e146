package main

import (
	"testing"
	"time"
)

// An import does not notify (docs/design.md §10): the syncer records one namespaces_imported
// audit row per committed batch, which tells no owner and fans out to no webhook, and no audit row
// of its own for any imported namespace or state; the application's next change is audited as
// usual.
func TestAnImportIsAuditedOncePerBatchAndNotifiesNoOne(t *testing.T) {
	e := newEnv(t)
	e.start()
	org := e.insert(nil, "organization", "watched")
	e.member(org, 51, 50)
	e.exec(`insert into lifecycle.webhooks (namespace_id, url, secret) values ($1, 'https://hooks.example/x', 'a-secret-of-sixteen')`, org)
	e.caughtUp()

	e.exec(`insert into lifecycle.namespace_imports (id, parent_id, type, path, name, state, state_changed_at, state_changed_by)
		select 900000 + g, $1, 'group', 'g' || g, 'G', case when g % 2 = 0 then 'archived' else 'active' end,
		       case when g % 2 = 0 then now() - interval '1 day' end, case when g % 2 = 0 then 51 end
		  from generate_series(1, 30) g`, org)
	e.exec(`call lifecycle.namespace_import_run(10)`)
	e.exec(`select * from lifecycle.namespace_event($1, 'archive', 51)`, org)
	e.eventually("the archive after the import is audited", 60*time.Second, func() bool {
		var n int
		_ = e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.audit_events where namespace_id = $1 and action = 'archived'`, org).Scan(&n)
		return n == 1
	})

	var batches, imported, perRow, notified, deliveries int
	if err := e.pool.QueryRow(e.ctx, `select
		(select count(*) from lifecycle.audit_events where action = 'namespaces_imported'),
		(select coalesce(sum((details ->> 'imported')::int), 0) from lifecycle.audit_events where action = 'namespaces_imported'),
		(select count(*) from lifecycle.audit_events where namespace_id between 900001 and 900030),
		(select count(*) from lifecycle.notifications n join lifecycle.audit_events a on a.id = n.audit_event_id
		  where a.action = 'namespaces_imported'),
		(select count(*) from lifecycle.webhook_deliveries d join lifecycle.audit_events a on a.id = d.audit_event_id
		  where a.action = 'namespaces_imported')`).Scan(&batches, &imported, &perRow, &notified, &deliveries); err != nil {
		t.Fatal(err)
	}
	if batches != 3 || imported != 30 || perRow != 0 || notified != 0 || deliveries != 0 {
		t.Fatalf("%d namespaces_imported rows for %d namespaces, %d audit rows of imported namespaces, %d notifications, %d deliveries; "+
			"want 3 rows (batches of 10) for 30, and no per-row audit, notification or delivery", batches, imported, perRow, notified, deliveries)
	}
	var archiveNotified int
	if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.notifications n join lifecycle.audit_events a on a.id = n.audit_event_id
		where a.action = 'archived' and a.namespace_id = $1`, org).Scan(&archiveNotified); err != nil || archiveNotified == 0 {
		t.Fatalf("the archive after the import notified %d (%v), want its owner told", archiveNotified, err)
	}
}
