// Command demo is a guided tour of the product for a human: it seeds a small organization into the
// database named by DATABASE_URL and walks through archiving, inherited effective state and refused
// transitions. `make demo` runs it against a fresh database on the private cluster.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/sweeper"
	"github.com/nslifecycle/nslifecycle/internal/syncer"
)

// seed is the demo hierarchy: each entry is a full path and a type; parents come before children.
var seed = []struct{ path, typ string }{
	{"acme", "organization"},
	{"acme/platform", "group"},
	{"acme/platform/storage", "group"},
	{"acme/platform/storage/blobs", "project"},
	{"acme/platform/storage/queues", "project"},
	{"acme/platform/web", "group"},
	{"acme/platform/web/site", "project"},
	{"acme/research", "group"},
	{"acme/research/ml", "group"},
	{"acme/research/ml/models", "project"},
}

func main() {
	var version bool
	buildinfo.Flag(flag.CommandLine, &version)
	flag.Parse()
	if version {
		fmt.Println(buildinfo.Describe("demo"))
		return
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Stdout); err != nil {
		log.Error("demo failed", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(context.Background())

	// The syncer (started by make demo) streams from its slot; a local receiver takes its webhooks.
	slot := os.Getenv("LIFECYCLE_SLOT")
	if slot != "" {
		if err := waitForSlot(ctx, conn, slot); err != nil {
			return err
		}
	}
	hooks := newReceiver()
	defer hooks.Close()

	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	q := db.New(tx)
	ids := map[string]int64{}
	for _, s := range seed {
		var parent *int64
		if i := strings.LastIndexByte(s.path, '/'); i > 0 {
			id := ids[s.path[:i]]
			parent = &id
		}
		name := s.path[strings.LastIndexByte(s.path, '/')+1:]
		ns, err := q.NamespaceInsert(ctx, db.NamespaceInsertParams{ParentID: parent, Type: s.typ, Path: name, Name: name})
		if err != nil {
			return fmt.Errorf("create %s: %w", s.path, err)
		}
		ids[s.path] = ns.ID
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}

	// The receiver listens on 127.0.0.1, a loopback address webhooks are refused unless the
	// operator allows it (docs/operations.md, the allowlist).
	if _, err := conn.Exec(ctx, `update lifecycle.settings set webhook_allowed_hosts = array['127.0.0.1']
		where not '127.0.0.1' = any (webhook_allowed_hosts)`); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `insert into lifecycle.webhooks (namespace_id, url, secret, actions)
		values ($1, $2, $3, '{archived,renamed,transfer_completed,restored,hard_deleted}')`,
		ids["acme"], hooks.URL, receiverSecret); err != nil {
		return err
	}

	step(out, "1. A small organization, created with plain INSERTs (the database fills traversal_ids)")
	if err := printSubtree(ctx, out, conn, ids["acme"]); err != nil {
		return err
	}

	// Alice owns the organization; ownership is inherited by everything below it.
	const alice, bob = int64(1001), int64(1002)
	q = db.New(conn)
	if _, err := q.MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: ids["acme"], UserID: alice, AccessLevel: 50}); err != nil {
		return err
	}
	if _, err := q.MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: ids["acme/research"], UserID: bob, AccessLevel: 30}); err != nil {
		return err
	}
	lc := nslifecycle.NewClient(conn)

	step(out, "2. Alice (owner of acme) archives acme/platform")
	tr, err := lc.Event(ctx, ids["acme/platform"], "archive", ptr(alice), nslifecycle.Metadata{"reason": "platform v1 retired"})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "namespace_event(acme/platform, 'archive', alice): %s -> %s, effective %s, changed=%v\n",
		tr.FromState, tr.ToState, tr.EffectiveState, tr.Changed)

	step(out, "3. Its descendants inherit the state (nothing was written to them)")
	for _, p := range []string{"acme/platform/storage", "acme/platform/storage/blobs", "acme/platform/web/site", "acme/research/ml/models"} {
		es, err := lc.EffectiveState(ctx, ids[p])
		if err != nil {
			return err
		}
		from := "-"
		if es.InheritedFromNamespaceID != nil {
			from = pathOf(ids, *es.InheritedFromNamespaceID)
		}
		fmt.Fprintf(out, "%-30s own state %-18s effective %-8s inherited from %-14s read_only=%v\n",
			p, es.State, es.EffectiveState, from, es.ReadOnly)
	}

	step(out, "4. Refused transitions carry a stable code, the facts and a hint")
	refuse := func(what string, err error) error {
		var e *nslifecycle.Error
		if !errors.As(err, &e) {
			return fmt.Errorf("%s: expected a refusal, got %v", what, err)
		}
		fmt.Fprintf(out, "%s\n  %s %s (HTTP %d): %s\n  detail: %s\n  hint:   %s\n", what, e.Code,
			nslifecycle.Condition(e.Code), e.HTTPStatus(), e.Message, e.Detail, e.Hint)
		return nil
	}
	_, err = lc.Event(ctx, ids["acme/platform/web"], "archive", ptr(alice), nil)
	if err := refuse("archive acme/platform/web (below the archived group):", err); err != nil {
		return err
	}
	_, err = lc.Event(ctx, ids["acme/research/ml"], "schedule_deletion", ptr(bob), nil)
	if err := refuse("bob (developer on acme/research) schedules deletion of acme/research/ml:", err); err != nil {
		return err
	}
	_, err = lc.Transition(ctx, ids["acme/research"], "deletion_in_progress", ptr(alice), nil)
	if err := refuse("acme/research straight to deletion_in_progress:", err); err != nil {
		return err
	}

	step(out, "5. Alice renames acme/research to acme/labs; old paths keep resolving")
	rn, err := lc.Rename(ctx, ids["acme/research"], "labs", ptr(alice))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "namespace_rename: %s -> %s\n", rn.OldFullPath, rn.NewFullPath)
	for _, p := range []string{"acme/research", "acme/research/ml/models", "acme/labs/ml"} {
		r, ok, err := lc.Resolve(ctx, p)
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintf(out, "namespace_resolve(%q): not found\n", p)
			continue
		}
		fmt.Fprintf(out, "namespace_resolve(%-27q) -> id %-3d %-22s redirected=%v\n", p, r.NamespaceID, r.CanonicalPath, r.Redirected)
	}

	step(out, "6. acme/labs/ml moves to a new group: request, accept, then the move runs on its own")
	ops, err := q.NamespaceInsert(ctx, db.NamespaceInsertParams{ParentID: ptr(ids["acme"]), Type: "group", Path: "ops", Name: "Ops"})
	if err != nil {
		return err
	}
	ids["acme/ops"] = ops.ID
	const carol = int64(1003)
	if _, err := q.MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: ops.ID, UserID: carol, AccessLevel: 50}); err != nil {
		return err
	}
	if _, err := q.MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: ids["acme/research"], UserID: bob, AccessLevel: 50}); err != nil {
		return err
	}
	req, err := lc.RequestTransfer(ctx, ids["acme/research/ml"], ops.ID, ptr(bob))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "bob (owner of acme/labs) requests the move to acme/ops: request %d is %s\n", req.ID, req.Status)
	acc, err := lc.AcceptTransfer(ctx, req.ID, ptr(carol))
	if err != nil {
		return err
	}
	es, err := lc.EffectiveState(ctx, ids["acme/research/ml/models"])
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "carol (owner of acme/ops) accepts: request %s; acme/labs/ml/models is effectively %s while it moves\n",
		acc.Status, es.EffectiveState)
	outcome, err := lc.ExecuteTransfer(ctx, ids["acme/research/ml"])
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "namespace_transfer_execute (the syncer's job): %s\n", outcome)
	if err := printSubtree(ctx, out, conn, ids["acme/ops"]); err != nil {
		return err
	}
	if r, ok, err := lc.Resolve(ctx, "acme/research/ml/models"); err == nil && ok {
		fmt.Fprintf(out, "the oldest path, acme/research/ml/models, now resolves to %s\n", r.CanonicalPath)
	}

	step(out, "7. Soft delete and restore")
	if _, err := lc.Event(ctx, ids["acme/platform/storage/queues"], "schedule_deletion", ptr(alice), nil); err != nil {
		return err
	}
	fmt.Fprintln(out, "alice schedules acme/platform/storage/queues for deletion (an archived group's project may be)")
	if _, err := q.NamespaceInsert(ctx, db.NamespaceInsertParams{ParentID: ptr(ids["acme/research"]), Type: "project", Path: "notes", Name: "Notes"}); err != nil {
		return err
	}
	if _, err := lc.Event(ctx, ids["acme/research"], "schedule_deletion", ptr(alice), nil); err != nil {
		return err
	}
	fmt.Fprintln(out, "alice schedules acme/labs for deletion; its path is free again, and a new acme/labs takes it")
	if _, err := q.NamespaceInsert(ctx, db.NamespaceInsertParams{ParentID: ptr(ids["acme"]), Type: "group", Path: "labs", Name: "Labs 2"}); err != nil {
		return err
	}
	_, err = lc.Event(ctx, ids["acme/research"], "restore", ptr(alice), nil)
	if err := refuse("restoring the old acme/labs:", err); err != nil {
		return err
	}
	tr, err = lc.Event(ctx, ids["acme/platform/storage/queues"], "restore", ptr(alice), nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "restore acme/platform/storage/queues: %s -> %s (effective %s: its group is still archived)\n",
		tr.FromState, tr.ToState, tr.EffectiveState)

	step(out, "8. A week later: the sweeper (run with -now a week ahead)")
	if _, err := lc.Event(ctx, ids["acme/research/ml/models"], "schedule_deletion", ptr(carol), nil); err != nil {
		return err
	}
	if _, err := q.MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: ops.ID, UserID: carol, AccessLevel: 30}); err != nil {
		return err
	}
	fmt.Fprintln(out, "carol scheduled acme/ops/ml/models for deletion, then lost ownership of acme/ops (now a developer);")
	fmt.Fprintln(out, "the old acme/labs is still scheduled by alice, who still owns acme.")
	fmt.Fprintln(out)
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		return err
	}
	defer pool.Close()
	sweepLog := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // the tour's output stays the same from run to run
			}
			return a
		}}))
	if _, err := sweeper.Run(ctx, pool, sweeper.Config{
		Now: time.Now().Add(8 * 24 * time.Hour), BatchSize: 100, StuckAfter: 10 * time.Minute,
		CreationTimeout: 24 * time.Hour, MaxAttempts: 5,
	}, sweepLog); err != nil {
		return err
	}
	var snapshot string
	if err := conn.QueryRow(ctx, `select format('%s (%s, %s descendants)', full_path, type, descendant_count)
		from lifecycle.deleted_namespaces where namespace_id = $1`, ids["acme/research"]).Scan(&snapshot); err != nil {
		return err
	}
	fmt.Fprintf(out, "\ndeleted, and kept as a snapshot in lifecycle.deleted_namespaces: %s\n", snapshot)
	var state, lastErr string
	if err := conn.QueryRow(ctx, `select lifecycle.state_name(n.state), d.state_metadata ->> 'last_error'
		from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id where n.id = $1`,
		ids["acme/research/ml/models"]).Scan(&state, &lastErr); err != nil {
		return err
	}
	fmt.Fprintf(out, "restored: acme/ops/ml/models is %s again; last_error: %s\n", state, lastErr)

	if slot != "" {
		step(out, "9. The audit trail, written by the syncer from the write-ahead log")
		if err := printAudit(ctx, out, conn, hooks); err != nil {
			return err
		}
	}

	step(out, "10. What a UI would offer Alice for acme/platform/storage/blobs")
	avail, err := lc.AvailableTransitions(ctx, ids["acme/platform/storage/blobs"], ptr(alice))
	if err != nil {
		return err
	}
	for _, a := range avail {
		verdict := "allowed"
		if !a.Allowed {
			verdict = a.ErrorCode + ": " + a.Reason
		}
		fmt.Fprintf(out, "  -> %-21s %s\n", a.ToState, verdict)
	}
	return nil
}

func step(out io.Writer, title string) {
	fmt.Fprintf(out, "\n== %s\n\n", title)
}

func ptr[T any](v T) *T { return &v }

func pathOf(ids map[string]int64, id int64) string {
	for p, v := range ids {
		if v == id {
			return p
		}
	}
	return fmt.Sprint(id)
}

func printSubtree(ctx context.Context, out io.Writer, conn *pgx.Conn, root int64) error {
	rows, err := db.New(conn).NamespaceListSubtree(ctx, root)
	if err != nil {
		return err
	}
	printTree(out, rows)
	return nil
}

// printTree draws the depth-first rows (ordered by traversal_ids) as an indented tree.
func printTree(out io.Writer, rows []db.NamespaceListSubtreeRow) {
	base := len(rows[0].TraversalIds)
	for i, r := range rows {
		depth := len(r.TraversalIds) - base
		var b strings.Builder
		for d := 1; d <= depth; d++ {
			last := !hasLaterSibling(rows, i, base+d)
			switch {
			case d < depth && last:
				b.WriteString("    ")
			case d < depth:
				b.WriteString("│   ")
			case last:
				b.WriteString("└── ")
			default:
				b.WriteString("├── ")
			}
		}
		fmt.Fprintf(out, "%-44s %-12s id=%-3d traversal_ids=%v\n", b.String()+r.Path, r.Type, r.ID, r.TraversalIds)
	}
}

// hasLaterSibling tells whether, after row i, another row shares i's ancestor at the given depth
// (the ancestor's depth-level prefix) before the subtree ends: then that level's line continues.
func hasLaterSibling(rows []db.NamespaceListSubtreeRow, i, level int) bool {
	prefix := rows[i].TraversalIds[:level-1]
	for _, r := range rows[i+1:] {
		if len(r.TraversalIds) < level || !slices.Equal(r.TraversalIds[:level-1], prefix) {
			return false
		}
		if len(r.TraversalIds) == level {
			return true
		}
	}
	return false
}

const receiverSecret = "demo-webhook-secret-0123456789"

// receiver is the demo's webhook endpoint: it checks each delivery's signature and keeps it.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	received []delivery
}

type delivery struct {
	signatureOK bool
	key         string
	body        []byte
}

func newReceiver() *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.received = append(r.received, delivery{
			signatureOK: req.Header.Get(syncer.SignatureHeader) == syncer.Sign(receiverSecret, body),
			key:         req.Header.Get(syncer.IdempotencyHeader), body: body,
		})
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	return r
}

func (r *receiver) first() (delivery, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.received) == 0 {
		return delivery{}, false
	}
	return r.received[0], true
}

func waitForSlot(ctx context.Context, conn *pgx.Conn, slot string) error {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		var active bool
		err := conn.QueryRow(ctx, `select coalesce((select active from pg_replication_slots where slot_name = $1), false)`, slot).Scan(&active)
		if err != nil {
			return err
		}
		if active {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the syncer did not start streaming from slot %s", slot)
}

// printAudit waits until the syncer has recorded everything (a last fact's audit row) and a
// webhook has arrived, then prints the trail and the delivery.
func printAudit(ctx context.Context, out io.Writer, conn *pgx.Conn, hooks *receiver) error {
	var marker int64
	if err := conn.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', 'end-of-tour', 'End')
		returning id`).Scan(&marker); err != nil {
		return err
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		if err := conn.QueryRow(ctx, `select count(*) from lifecycle.audit_events where namespace_id = $1`, marker).Scan(&n); err != nil {
			return err
		}
		if _, ok := hooks.first(); n > 0 && ok {
			break
		}
		if time.Now().After(deadline) {
			return errors.New("the syncer did not catch up within 30s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	rows, err := conn.Query(ctx, `select a.id, a.action, coalesce(a.full_path, ''), coalesce(a.actor_id::text, '-'),
		(select count(*) from lifecycle.notifications n where n.audit_event_id = a.id)
		from lifecycle.audit_events a where a.namespace_id is distinct from $1 order by a.id`, marker)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%-4s %-20s %-34s %-6s %s\n", "id", "action", "namespace", "actor", "notified")
	for rows.Next() {
		var id, notified int64
		var action, path, actor string
		if err := rows.Scan(&id, &action, &path, &actor, &notified); err != nil {
			return err
		}
		fmt.Fprintf(out, "%-4d %-20s %-34s %-6s %d\n", id, action, path, actor, notified)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	d, _ := hooks.first()
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, d.body, "  ", "  ")
	fmt.Fprintf(out, "\nthe first webhook the local receiver got (signature verified: %v, Idempotency-Key %s):\n  %s\n",
		d.signatureOK, d.key, pretty.String())
	return nil
}
