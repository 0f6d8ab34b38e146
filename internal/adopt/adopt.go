// Package adopt is make demo-adopt: docs/adoption.md run end to end on GitLab's own tables
// (gitlab/structure.sql) with a generated population. It loads the tables and their population, bridges them to the states,
// stages a snapshot and imports it in committed batches while the application keeps writing,
// fixes the rejected rows and imports them, backfills and checks, shows the bridges at work both
// ways and a refused legacy write, proves that the import notified no one (the syncer running
// beside it), compares every legacy state, date and actor with the lifecycle's, and cuts over.
// Every proof is a field of the Report; Failures lists what did not hold.
package adopt

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

var (
	//go:embed legacy.sql
	legacySQL string
	//go:embed populate.sql
	populateSQL string
	//go:embed stage.sql
	stageSQL string
	//go:embed verify.sql
	verifySQL string
)

// Config is one run.
type Config struct {
	DatabaseURL string // a freshly migrated database of the run's own, as a superuser (the schema's owner)
	Namespaces  int64  // size of the legacy population
	BatchSize   int    // rows per committed import batch
	// Slot is the replication slot of the syncer running against the database: the run waits for
	// it to stream before importing, and for it to catch up before counting notifications.
	Slot           string
	CatchUpTimeout time.Duration // how long to wait for the syncer (default 2 minutes)
	Out            io.Writer     // the tour
}

// Report is what a run did and measured.
type Report struct {
	Groups, Users, Projects           int64 // the legacy population
	Archived, Scheduled, InProgress   int64 // legacy states (groups and projects)
	Staged                            int64
	Imported, Rejected                int64 // the first run
	RejectCodes                       map[string]int64
	ImportedAfterFix, RejectedLeft    int64 // the second run, after fixing the rejected rows
	Redirects                         int64 // legacy paths normalised, resolving through a redirect
	APIResolves                       bool  // the reserved top-level legacy path "api" still resolves
	WindowArchived, WindowScheduled   int64 // legacy writes between the snapshot and the import
	WindowCleared                     int64 // archived in the snapshot, unarchived before the import
	CheckBeforeBackfill, Backfilled   int64
	CheckAfterBackfill                int64
	Replayed, Refused                 int64 // what the backfill left, replayed through the bridges; refused by the rules
	CheckRows, Invariants             int64 // the final checks: both must be 0
	LegacyWriteMoved, APIWroteLegacy  bool
	RefusalCode                       string
	RefusalLeftLegacyAlone            bool
	ImportFacts                       int64 // namespaces_imported audit rows (import batches and the backfill)
	ImportNotifications               int64 // notifications and deliveries of the import and backfill: must be 0
	ImportDeliveries                  int64
	OwnAuditRows                      int64 // audit rows of imported namespaces other than the demo's own changes: must be 0
	LiveNotifications, LiveDeliveries int64 // of the demo's own changes afterwards: the syncer does notify
	Verified, Mismatches              int64 // namespaces compared with the legacy data, and disagreements
	BridgesLeft                       int64
	StageTime, ImportTime, FixTime    time.Duration
	BackfillTime, CheckTime           time.Duration
	InvariantsTime, VerifyTime        time.Duration
}

// Failures lists every proof that did not hold.
func (r *Report) Failures() []string {
	var f []string
	check := func(ok bool, format string, args ...any) {
		if !ok {
			f = append(f, fmt.Sprintf(format, args...))
		}
	}
	check(r.Staged > 0 && r.Imported+r.ImportedAfterFix == r.Staged, "imported %d+%d of %d staged", r.Imported, r.ImportedAfterFix, r.Staged)
	check(r.Rejected > 0 && r.RejectCodes["NS002"] == 1 && r.RejectCodes["NS010"] == 1 && r.RejectCodes["NS004"] > 0,
		"the first run's verdicts %v, want one NS002, one NS010 and the NS010's subtree as NS004", r.RejectCodes)
	check(r.RejectedLeft == 0, "%d rows still rejected after the fix", r.RejectedLeft)
	check(r.Redirects > 0 && r.APIResolves, "legacy paths: %d redirects, api resolves %v", r.Redirects, r.APIResolves)
	check(r.CheckBeforeBackfill == r.WindowArchived+r.WindowScheduled+r.WindowCleared,
		"before the backfill the check reported %d, want the %d+%d+%d legacy writes made after the snapshot",
		r.CheckBeforeBackfill, r.WindowArchived, r.WindowScheduled, r.WindowCleared)
	check(r.Backfilled > 0 && r.Backfilled+r.CheckAfterBackfill == r.CheckBeforeBackfill,
		"backfilled %d and %d left, of the %d disagreements", r.Backfilled, r.CheckAfterBackfill, r.CheckBeforeBackfill)
	check(r.Replayed+r.Refused == r.CheckAfterBackfill, "replayed %d and refused %d of the %d disagreements the backfill left",
		r.Replayed, r.Refused, r.CheckAfterBackfill)
	check(r.CheckRows == 0, "legacy_bridge_check() returned %d rows", r.CheckRows)
	check(r.Invariants == 0, "check_invariants() returned %d rows", r.Invariants)
	check(r.LegacyWriteMoved, "a legacy write did not move the state")
	check(r.APIWroteLegacy, "an API change did not write the legacy columns")
	check(r.RefusalCode == "NS002" && r.RefusalLeftLegacyAlone, "the refused legacy write: code %q, legacy row untouched %v",
		r.RefusalCode, r.RefusalLeftLegacyAlone)
	check(r.ImportFacts > 0, "no namespaces_imported audit row")
	check(r.ImportNotifications == 0 && r.ImportDeliveries == 0 && r.OwnAuditRows == 0,
		"the import and backfill: %d notifications, %d deliveries, %d audit rows of imported namespaces",
		r.ImportNotifications, r.ImportDeliveries, r.OwnAuditRows)
	check(r.LiveNotifications > 0 && r.LiveDeliveries > 0, "the demo's own changes: %d notifications, %d deliveries (want some: the syncer does notify)",
		r.LiveNotifications, r.LiveDeliveries)
	check(r.Verified == r.Staged && r.Mismatches == 0, "verified %d of %d namespaces, %d disagree with the legacy data",
		r.Verified, r.Staged, r.Mismatches)
	check(r.BridgesLeft == 0, "%d bridges (or their triggers) left after the cutover", r.BridgesLeft)
	return f
}

// owner is the user who owns the watched top-level namespaces (added after the import).
const owner = 1001

// run carries the connections of one run: the schema's owner (DATABASE_URL, a superuser), the
// importer (SET ROLE lifecycle_worker) and the application (SET ROLE lifecycle_app).
type run struct {
	cfg            Config
	out            io.Writer
	own, work, app *pgx.Conn
	rep            *Report
	window         []int64 // namespaces whose legacy state the application changed after the snapshot
	live           []int64 // namespaces the demo changes after the import
	watched        []int64 // top-level namespaces with an owner and a webhook
	importStart    string  // WAL position before the import
	backfillEnd    string  // and after the backfill
	legacyArchived int64   // the project archived through its legacy flag
	scheduledByAPI int64   // the project scheduled through the API
	groupByAPI     int64   // the group scheduled through the API
	refusedUnder   int64   // the project the legacy write may not archive
	receiver       *httptest.Server
}

// Run is the whole tour (see the package comment).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Namespaces < 1000 {
		return nil, errors.New("the population needs at least 1000 namespaces")
	}
	if cfg.BatchSize < 1 {
		cfg.BatchSize = 10000
	}
	if cfg.CatchUpTimeout <= 0 {
		cfg.CatchUpTimeout = 2 * time.Minute
	}
	if cfg.Slot == "" {
		return nil, errors.New("the syncer's slot is required: the run shows what the syncer made of the import")
	}
	r := &run{cfg: cfg, out: cfg.Out, rep: &Report{RejectCodes: map[string]int64{}}}
	if r.out == nil {
		r.out = io.Discard
	}
	var err error
	if r.own, err = pgx.Connect(ctx, cfg.DatabaseURL); err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	defer r.own.Close(context.Background())
	// The importer prints the import's progress (its NOTICEs) as they come.
	if r.work, err = connectAs(ctx, cfg.DatabaseURL, "lifecycle_worker", func(_ *pgconn.PgConn, n *pgconn.Notice) {
		fmt.Fprintf(r.out, "  NOTICE: %s\n", n.Message)
	}); err != nil {
		return nil, err
	}
	defer r.work.Close(context.Background())
	if r.app, err = connectAs(ctx, cfg.DatabaseURL, "lifecycle_app", nil); err != nil {
		return nil, err
	}
	defer r.app.Close(context.Background())
	r.receiver = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	defer r.receiver.Close()

	for _, s := range []struct {
		title string
		do    func(context.Context) error
	}{
		{"1. Installed: the migrations ran; the syncer streams from its slot", r.installed},
		{"2. GitLab's own tables (gitlab/structure.sql), with a population", r.legacy},
		{"3. Bridges on the live legacy tables (inert for namespaces the lifecycle does not know yet)", r.bridges},
		{"4. Stage a snapshot of the legacy data (lifecycle_worker, one INSERT … SELECT)", r.stage},
		{"5. The application keeps writing its legacy columns", r.keepWriting},
		{"6. Import: CALL lifecycle.namespace_import_run (committed batches)", r.importRun},
		{"7. Fix the rejected rows and run the import again", r.fixAndRerun},
		{"8. Legacy paths the rules refuse were normalised and keep resolving", r.paths},
		{"9. Owners and webhooks for the namespaces the application watches", r.watch},
		{"10. Backfill: the states written after the snapshot", r.backfill},
		{"11. Check: legacy_bridge_check() and check_invariants()", r.check},
		{"12. The bridges at work", r.bridgesAtWork},
		{"13. What the syncer made of it", r.syncerView},
		{"14. Every legacy state, date and actor against the lifecycle's", r.verify},
		{"15. Cutover: the application uses the API; the bridges go", r.cutover},
	} {
		fmt.Fprintf(r.out, "\n== %s\n\n", s.title)
		if err := s.do(ctx); err != nil {
			return r.rep, fmt.Errorf("%s: %w", s.title, err)
		}
	}
	r.summary()
	return r.rep, nil
}

func connectAs(ctx context.Context, url, role string, notice pgconn.NoticeHandler) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.OnNotice = notice
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	if _, err := conn.Exec(ctx, "set role "+role); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("set role %s: %w", role, err)
	}
	return conn, nil
}

// one scans a single row of a query into dest.
func one(ctx context.Context, conn *pgx.Conn, sql string, args []any, dest ...any) error {
	return conn.QueryRow(ctx, sql, args...).Scan(dest...)
}

func (r *run) installed(ctx context.Context) error {
	var version int64
	if err := one(ctx, r.own, `select version from lifecycle.schema_version`, nil, &version); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "schema lifecycle at version %d; the import runs as lifecycle_worker, the application as lifecycle_app\n", version)
	if err := r.waitForSyncer(ctx, "stream"); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "the syncer streams from slot %s\n", r.cfg.Slot)
	return nil
}

// waitForSyncer waits until the syncer has confirmed the WAL position of now: it streams (a slot
// reads active while still being made, and a change committed before it is ready is never
// decoded) and has recorded everything committed before.
func (r *run) waitForSyncer(ctx context.Context, what string) error {
	var target string
	if err := one(ctx, r.own, `select pg_current_wal_lsn()::text`, nil, &target); err != nil {
		return err
	}
	deadline := time.Now().Add(r.cfg.CatchUpTimeout)
	for {
		var ok bool
		err := one(ctx, r.own, `select coalesce((select active and confirmed_flush_lsn >= $2::pg_lsn
			from pg_replication_slots where slot_name = $1), false)`, []any{r.cfg.Slot, target}, &ok)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the syncer (slot %s) did not %s within %s", r.cfg.Slot, what, r.cfg.CatchUpTimeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (r *run) legacy(ctx context.Context) error {
	start := time.Now()
	if err := LoadGitLabStructure(ctx, r.own, "legacy"); err != nil {
		return err
	}
	if _, err := r.own.Exec(ctx, legacySQL); err != nil {
		return err
	}
	if _, err := r.own.Exec(ctx, populateSQL); err != nil {
		return err
	}
	if _, err := r.own.Exec(ctx, `select legacy.populate($1)`, r.cfg.Namespaces); err != nil {
		return err
	}
	// The application writes its tables; the importer reads them.
	if _, err := r.own.Exec(ctx, `grant usage on schema legacy to lifecycle_app, lifecycle_worker;
		grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
		grant select on all tables in schema legacy to lifecycle_worker`); err != nil {
		return err
	}
	rep := r.rep
	if err := one(ctx, r.own, `select
		(select count(*) from legacy.namespaces where type = 'Group'),
		(select count(*) from legacy.namespaces where type = 'User'),
		(select count(*) from legacy.projects),
		(select count(*) from legacy.namespace_settings where archived) + (select count(*) from legacy.projects where archived),
		(select count(*) from legacy.group_deletion_schedules) + (select count(*) from legacy.projects where marked_for_deletion_at is not null),
		(select count(*) from legacy.projects where pending_delete)`, nil,
		&rep.Groups, &rep.Users, &rep.Projects, &rep.Archived, &rep.Scheduled, &rep.InProgress); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "legacy.namespaces: %d groups (nested up to 4 levels), %d user namespaces, %d project namespaces\n",
		rep.Groups, rep.Users, rep.Projects)
	fmt.Fprintf(r.out, "legacy.projects: %d projects, ids 1..%d, an id space of their own\n", rep.Projects, rep.Projects)
	fmt.Fprintf(r.out, "archived %d, scheduled for deletion %d (GitLab's dates and users), pending_delete %d  [%s]\n",
		rep.Archived, rep.Scheduled, rep.InProgress, since(start))
	var pid, pns int64
	var path string
	if err := one(ctx, r.own, `select id, project_namespace_id, path from legacy.projects where id = 10`, nil, &pid, &pns, &path); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "the way in: project %d (%s) has projects.project_namespace_id = %d, the id it keeps in lifecycle.namespaces\n",
		pid, path, pns)
	var odd []string
	rows, err := r.own.Query(ctx, `select path from legacy.namespaces where path !~ '^[a-z0-9][a-z0-9_.-]*$' or path ~ '[.]$|[.]git$' or path = 'api'
		order by id limit 6`)
	if err != nil {
		return err
	}
	if odd, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "legacy paths the lifecycle's rules refuse, e.g. %q\n", odd)
	return nil
}

// The bridges of docs/adoption.md, on the live legacy tables: added by the schema's owner. A
// legacy write has the writer's authority on behalf of the user its row names (by column), else
// the bridge's actor: here the owner (1001, owner), who the application's old code acts for
// where its tables name nobody (docs/design.md §10.2). Without one, only a worker's legacy write
// could change a state.
var bridgeCalls = []string{
	`select lifecycle.legacy_bridge_add('legacy.namespace_settings', 'namespace_id', 'archived', 'archived', actor_id => 1001)`,
	`select lifecycle.legacy_bridge_add('legacy.group_deletion_schedules', 'group_id', 'deletion_scheduled', null,
	                                    'marked_for_deletion_on', 'user_id', array['organization', 'group'], actor_id => 1001)`,
	`select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'archived', 'archived', actor_id => 1001)`,
	`select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_scheduled', 'marked_for_deletion_at',
	                                    'marked_for_deletion_at', 'marked_for_deletion_by_user_id', actor_id => 1001)`,
	`select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_in_progress', 'pending_delete',
	                                    actor_id => 1001)`,
}

func (r *run) bridges(ctx context.Context) error {
	for _, call := range bridgeCalls {
		var id int64
		if err := one(ctx, r.own, call, nil, &id); err != nil {
			return err
		}
		fmt.Fprintf(r.out, "bridge %d: %s\n", id, strings.Join(strings.Fields(strings.TrimPrefix(call, "select ")), " "))
	}
	return nil
}

func (r *run) stage(ctx context.Context) error {
	start := time.Now()
	tag, err := r.work.Exec(ctx, stageInsert+gitlabMapping("legacy"))
	if err != nil {
		return err
	}
	r.rep.StageTime = time.Since(start)
	r.rep.Staged = tag.RowsAffected()
	fmt.Fprintf(r.out, "staged %d rows in lifecycle.namespace_imports  [%s]\n", r.rep.Staged, r.rep.StageTime.Round(time.Millisecond))
	return nil
}

// keepWriting is the application's legacy code between the snapshot and the import: the bridges
// leave these namespaces alone (the lifecycle does not know them yet), so the staged snapshot
// is stale for them. The backfill and the check find them.
func (r *run) keepWriting(ctx context.Context) error {
	k := min(max(r.cfg.Namespaces/2000, 3), 100)
	collect := func(sql string) ([]int64, error) {
		rows, err := r.app.Query(ctx, sql, k)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, pgx.RowTo[int64])
	}
	archived, err := collect(`update legacy.projects set archived = true
		where id in (select id from legacy.projects where not archived and marked_for_deletion_at is null and id % 997 = 13 order by id limit $1)
		returning project_namespace_id`)
	if err != nil {
		return err
	}
	scheduled, err := collect(`insert into legacy.group_deletion_schedules (group_id, marked_for_deletion_on, user_id)
		select n.id, current_date, 4242 from legacy.namespaces n
		 where n.type = 'Group' and n.id > 1 and n.id % 97 = 41
		   and not exists (select from legacy.group_deletion_schedules d where d.group_id = n.id)
		 order by n.id limit $1
		returning group_id`)
	if err != nil {
		return err
	}
	cleared, err := collect(`update legacy.projects set archived = false
		where id in (select id from legacy.projects where archived and marked_for_deletion_at is null and not coalesce(pending_delete, false)
		               and id % 7 = 3 and id % 997 <> 13 order by id limit $1)
		returning project_namespace_id`)
	if err != nil {
		return err
	}
	r.rep.WindowArchived, r.rep.WindowScheduled, r.rep.WindowCleared = int64(len(archived)), int64(len(scheduled)), int64(len(cleared))
	r.window = append(append(append(r.window, archived...), scheduled...), cleared...)
	fmt.Fprintf(r.out, "lifecycle_app archives %d projects, schedules %d groups for deletion (user 4242, today) and unarchives %d projects\n",
		len(archived), len(scheduled), len(cleared))
	fmt.Fprintln(r.out, "in the legacy tables; the lifecycle does not know these namespaces yet, so the bridges let the writes through untouched")
	return nil
}

func (r *run) importRun(ctx context.Context) error {
	if err := one(ctx, r.own, `select pg_current_wal_lsn()::text`, nil, &r.importStart); err != nil {
		return err
	}
	start := time.Now()
	imported, rejected, err := r.callImport(ctx)
	if err != nil {
		return err
	}
	r.rep.ImportTime = time.Since(start)
	r.rep.Imported, r.rep.Rejected = imported, rejected
	fmt.Fprintf(r.out, "\nimported %d, rejected %d in %s: %.0f rows/s\n", imported, rejected,
		r.rep.ImportTime.Round(time.Millisecond), float64(imported)/r.rep.ImportTime.Seconds())
	rows, err := r.work.Query(ctx, `select reject_code, count(*), min(reject_reason) from lifecycle.namespace_imports
		where reject_code is not null group by 1 order by 1`)
	if err != nil {
		return err
	}
	fmt.Fprintln(r.out, "the verdicts left on the staged rows:")
	for rows.Next() {
		var code, reason string
		var n int64
		if err := rows.Scan(&code, &n, &reason); err != nil {
			return err
		}
		r.rep.RejectCodes[code] = n
		fmt.Fprintf(r.out, "  %s %-22s %6d  e.g. %s\n", code, dberr.Condition(code), n, reason)
	}
	return rows.Err()
}

// callImport runs the import procedure (it commits, so in the simple protocol, outside a
// transaction) and returns its INOUT results.
func (r *run) callImport(ctx context.Context) (imported, rejected int64, err error) {
	err = r.work.QueryRow(ctx, fmt.Sprintf(`call lifecycle.namespace_import_run(%d)`, r.cfg.BatchSize),
		pgx.QueryExecModeSimpleProtocol).Scan(&imported, &rejected)
	return imported, rejected, err
}

func (r *run) fixAndRerun(ctx context.Context) error {
	// A name with a control or bidirectional formatting character (lifecycle.character_refusal's
	// list): replace it. A project more visible than its parent: as visible as the parent (the
	// legacy row may be fixed and staged again instead).
	fixes := []string{
		`update lifecycle.namespace_imports
		    set name = regexp_replace(name, '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]', ' ', 'g')
		  where reject_code = 'NS010' and reject_reason like 'name contains U+%'`,
		`update lifecycle.namespace_imports s set visibility = p.visibility
		   from lifecycle.namespaces p where p.id = s.parent_id and s.reject_code = 'NS002'`,
	}
	for _, f := range fixes {
		tag, err := r.work.Exec(ctx, f)
		if err != nil {
			return err
		}
		fmt.Fprintf(r.out, "%s\n  -- %d row(s)\n", strings.Join(strings.Fields(f), " "), tag.RowsAffected())
	}
	start := time.Now()
	imported, rejected, err := r.callImport(ctx)
	if err != nil {
		return err
	}
	r.rep.FixTime = time.Since(start)
	r.rep.ImportedAfterFix, r.rep.RejectedLeft = imported, rejected
	fmt.Fprintf(r.out, "\nthe second run imported %d (the fixed rows and the subtrees rejected below them), %d left rejected\n",
		imported, rejected)
	return nil
}

func (r *run) paths(ctx context.Context) error {
	if err := one(ctx, r.own, `select count(*) from lifecycle.namespace_redirects where kind = 'import'`, nil, &r.rep.Redirects); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "%d redirects (kind import) keep legacy paths resolving, e.g.:\n", r.rep.Redirects)
	rows, err := r.own.Query(ctx, `select old_full_path, new_full_path from lifecycle.namespace_redirects where kind = 'import'
		order by id limit 5`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var old, cur string
		if err := rows.Scan(&old, &cur); err != nil {
			return err
		}
		fmt.Fprintf(r.out, "  %-40s -> %s\n", old, cur)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var canonical string
	var redirected bool
	err = one(ctx, r.app, `select canonical_path, redirected from lifecycle.namespace_resolve('api')`, nil, &canonical, &redirected)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	r.rep.APIResolves = err == nil && strings.HasPrefix(canonical, "api-") && redirected
	fmt.Fprintf(r.out, "namespace_resolve('api'): %s (redirected %v); a top-level 'api' is reserved for the application's routes\n",
		canonical, redirected)
	return nil
}

// watch gives an owner (user 1001) and a webhook to the top-level namespaces of what changed
// after the snapshot and of what the demo changes later: so the backfill would tell them if it
// told anyone, and the demo's own changes do.
func (r *run) watch(ctx context.Context) error {
	// The demo's own changes: picked now, while the states are as the import left them.
	pick := func(sql string) (int64, error) {
		var id int64
		err := one(ctx, r.own, sql, nil, &id)
		return id, err
	}
	const clean = `not exists (select from lifecycle.namespaces a where a.id = any (n.traversal_ids) and a.state <> 0)
		and not n.id = any ($WINDOW)`
	window := "array[" + joinIDs(r.window) + "]::bigint[]"
	var err error
	if r.legacyArchived, err = pick(`select n.id from lifecycle.namespaces n where n.type = 'project' and ` +
		strings.ReplaceAll(clean, "$WINDOW", window) + ` order by n.id limit 1`); err != nil {
		return fmt.Errorf("a project for the legacy write: %w", err)
	}
	if r.scheduledByAPI, err = pick(`select n.id from lifecycle.namespaces n where n.type = 'project' and n.id > ` +
		fmt.Sprint(r.legacyArchived) + ` and ` + strings.ReplaceAll(clean, "$WINDOW", window) + ` order by n.id limit 1`); err != nil {
		return fmt.Errorf("a project for the API change: %w", err)
	}
	taken := "array[" + joinIDs([]int64{r.legacyArchived, r.scheduledByAPI}) + "]::bigint[]"
	if r.groupByAPI, err = pick(`select n.id from lifecycle.namespaces n where n.type = 'group' and n.parent_id is not null and ` +
		strings.ReplaceAll(clean, "$WINDOW", window) + ` and not exists (select from lifecycle.namespaces c
		  where c.id = any (` + taken + `) and n.id = any (c.traversal_ids)) order by n.id desc limit 1`); err != nil {
		return fmt.Errorf("a group for the API change: %w", err)
	}
	if r.refusedUnder, err = pick(`select n.id from lifecycle.namespaces n join lifecycle.namespaces g on g.id = n.parent_id
		where n.type = 'project' and n.state = 0 and g.state = 1 and not n.id = any (` + window + `) order by n.id limit 1`); err != nil {
		return fmt.Errorf("a project below an archived group: %w", err)
	}
	r.live = []int64{r.legacyArchived, r.scheduledByAPI, r.groupByAPI, r.refusedUnder}
	rows, err := r.own.Query(ctx, `select distinct n.traversal_ids[1] from lifecycle.namespaces n where n.id = any ($1) order by 1`,
		append(append([]int64{}, r.window...), r.live...))
	if err != nil {
		return err
	}
	if r.watched, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
		return err
	}
	if _, err := r.app.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
		select id, $2, 50 from unnest($1::bigint[]) id`, r.watched, owner); err != nil {
		return err
	}
	// The receiver listens on 127.0.0.1, a loopback address webhooks are refused unless the
	// operator (the schema owner) allows it.
	if _, err := r.own.Exec(ctx, `update lifecycle.settings set webhook_allowed_hosts = array['127.0.0.1']
		where not '127.0.0.1' = any (webhook_allowed_hosts)`); err != nil {
		return err
	}
	if _, err := r.app.Exec(ctx, `insert into lifecycle.webhooks (namespace_id, url, secret)
		select id, $2, 'adopt-demo-webhook-secret' from unnest($1::bigint[]) id`, r.watched, r.receiver.URL); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "lifecycle_app: user %d owns %d top-level namespaces, each with a webhook (every action) to a local receiver\n",
		owner, len(r.watched))
	return nil
}

func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	if len(s) == 0 {
		return "0"
	}
	return strings.Join(s, ",")
}

func (r *run) backfill(ctx context.Context) error {
	if err := one(ctx, r.work, `select count(*) from lifecycle.legacy_bridge_check()`, nil, &r.rep.CheckBeforeBackfill); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "legacy_bridge_check() before the backfill: %d disagreements (the writes of step 5)\n", r.rep.CheckBeforeBackfill)
	start := time.Now()
	if err := one(ctx, r.work, `select backfilled from lifecycle.legacy_bridge_backfill()`, nil, &r.rep.Backfilled); err != nil {
		return err
	}
	r.rep.BackfillTime = time.Since(start)
	if err := one(ctx, r.own, `select pg_current_wal_lsn()::text`, nil, &r.backfillEnd); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "lifecycle_worker: select lifecycle.legacy_bridge_backfill() -> %d namespaces got the state their legacy data says, "+
		"with its date and actor, as an import does  [%s]\n", r.rep.Backfilled, r.rep.BackfillTime.Round(time.Millisecond))
	return nil
}

func (r *run) check(ctx context.Context) error {
	// One pass of the check (it reads every bridged table and every namespace), kept to look at.
	tag, err := r.work.Exec(ctx, `create temporary table adopt_check as select * from lifecycle.legacy_bridge_check()`)
	if err != nil {
		return err
	}
	r.rep.CheckAfterBackfill = tag.RowsAffected()
	fmt.Fprintf(r.out, "legacy_bridge_check(): %d rows, e.g.:\n", r.rep.CheckAfterBackfill)
	rows, err := r.work.Query(ctx, `select namespace_id, source::text, legacy_says, state from adopt_check order by namespace_id limit 3`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		var source, says, state string
		if err := rows.Scan(&id, &source, &says, &state); err != nil {
			return err
		}
		fmt.Fprintf(r.out, "  namespace %d: %s says %s, the state is %s\n", id, source, says, state)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	// What the backfill leaves (a legacy state cleared after the snapshot, or one added to a state
	// the namespace has already): replayed through the bridge, now that it speaks for the
	// namespace. The rules judge the replay as they would have judged the write; one they refuse
	// is undone, as the bridge would have refused it: the legacy data follows the state.
	rows, err = r.work.Query(ctx, `select namespace_id, source::text, legacy_says from adopt_check order by namespace_id, source`)
	if err != nil {
		return err
	}
	type disagreement struct {
		ns          int64
		source, say string
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (disagreement, error) {
		var d disagreement
		return d, row.Scan(&d.ns, &d.source, &d.say)
	})
	if err != nil {
		return err
	}
	refusals := map[string]int64{}
	for _, d := range list {
		code, err := r.replay(ctx, d.ns, d.source, d.say)
		if err != nil {
			return fmt.Errorf("replay namespace %d (%s says %s): %w", d.ns, d.source, d.say, err)
		}
		if code == "" {
			r.rep.Replayed++
			continue
		}
		r.rep.Refused++
		refusals[code]++
		if err := followState(ctx, r.app, d.ns); err != nil {
			return fmt.Errorf("namespace %d: the legacy data follows its state: %w", d.ns, err)
		}
	}
	fmt.Fprintf(r.out, "replayed through the bridges, now that they speak for these namespaces: %d\n", r.rep.Replayed)
	fmt.Fprintf(r.out, "refused by the rules, as the bridge would have refused the write (the legacy data set back to the state): %d %v\n",
		r.rep.Refused, refusals)
	start := time.Now()
	if err := one(ctx, r.work, `select count(*) from lifecycle.legacy_bridge_check()`, nil, &r.rep.CheckRows); err != nil {
		return err
	}
	r.rep.CheckTime = time.Since(start)
	start = time.Now()
	if err := one(ctx, r.work, `select count(*) from lifecycle.check_invariants()`, nil, &r.rep.Invariants); err != nil {
		return err
	}
	r.rep.InvariantsTime = time.Since(start)
	fmt.Fprintf(r.out, "legacy_bridge_check(): %d rows  [%s]\ncheck_invariants(): %d rows  [%s]\n",
		r.rep.CheckRows, r.rep.CheckTime.Round(time.Millisecond), r.rep.Invariants, r.rep.InvariantsTime.Round(time.Millisecond))
	return nil
}

func (r *run) bridgesAtWork(ctx context.Context) error {
	// Legacy → state: the application's old code archives a project.
	tag, err := r.app.Exec(ctx, `update legacy.projects set archived = true where project_namespace_id = $1`, r.legacyArchived)
	if err != nil {
		return err
	}
	var state, path string
	if err := one(ctx, r.own, `select lifecycle.state_name(state), lifecycle.namespace_full_path(id) from lifecycle.namespaces where id = $1`,
		[]any{r.legacyArchived}, &state, &path); err != nil {
		return err
	}
	r.rep.LegacyWriteMoved = tag.RowsAffected() == 1 && state == "archived"
	fmt.Fprintf(r.out, "lifecycle_app: update legacy.projects set archived = true where project_namespace_id = %d\n  -> %s is %s\n",
		r.legacyArchived, path, state)

	// State → legacy: the API schedules a project and a group for deletion.
	q := db.New(r.app)
	actor := int64(owner)
	for _, id := range []int64{r.scheduledByAPI, r.groupByAPI} {
		if _, err := q.NamespaceEvent(ctx, db.NamespaceEventParams{NamespaceID: id, Event: "schedule_deletion", ActorID: &actor, Metadata: []byte("{}")}); err != nil {
			return dberr.NotFound(err, id)
		}
	}
	var projectOK, groupOK bool
	var markedAt time.Time
	var by int64
	if err := one(ctx, r.own, `select p.marked_for_deletion_at, p.marked_for_deletion_by_user_id,
		p.marked_for_deletion_at = n.deletion_scheduled_at::date and p.marked_for_deletion_by_user_id = n.deletion_scheduled_by
		from legacy.projects p join lifecycle.namespaces n on n.id = p.project_namespace_id where n.id = $1`,
		[]any{r.scheduledByAPI}, &markedAt, &by, &projectOK); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "lifecycle_app: namespace_event(%d, 'schedule_deletion', %d)\n  -> legacy.projects: marked_for_deletion_at %s, by user %d\n",
		r.scheduledByAPI, owner, markedAt.Format("2006-01-02"), by)
	var day time.Time
	if err := one(ctx, r.own, `select d.marked_for_deletion_on, d.user_id, d.user_id = $2 from legacy.group_deletion_schedules d where d.group_id = $1`,
		[]any{r.groupByAPI, owner}, &day, &by, &groupOK); err != nil {
		return fmt.Errorf("the group's legacy row: %w", err)
	}
	fmt.Fprintf(r.out, "lifecycle_app: namespace_event(%d, 'schedule_deletion', %d)\n  -> legacy.group_deletion_schedules: a row for the group, %s, by user %d\n",
		r.groupByAPI, owner, day.Format("2006-01-02"), by)
	r.rep.APIWroteLegacy = projectOK && groupOK

	// A legacy write the rules refuse: the statement fails with the code, and nothing of it stays.
	_, err = r.app.Exec(ctx, `update legacy.projects set archived = true where project_namespace_id = $1`, r.refusedUnder)
	var e *dberr.Error
	if !errors.As(dberr.FromDB(err), &e) {
		return fmt.Errorf("archiving project %d below an archived group through its legacy flag: %v, want a refusal", r.refusedUnder, err)
	}
	r.rep.RefusalCode = e.Code
	if err := one(ctx, r.own, `select not archived from legacy.projects where project_namespace_id = $1`, []any{r.refusedUnder},
		&r.rep.RefusalLeftLegacyAlone); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "lifecycle_app: update legacy.projects set archived = true where project_namespace_id = %d (its group is archived)\n"+
		"  -> ERROR %s %s: %s\n     DETAIL: %s\n     HINT: %s\n  legacy.projects.archived is still false: %v\n",
		r.refusedUnder, e.Code, dberr.Condition(e.Code), e.Message, e.Detail, e.Hint, r.rep.RefusalLeftLegacyAlone)
	return nil
}

func (r *run) syncerView(ctx context.Context) error {
	if err := r.waitForSyncer(ctx, "catch up"); err != nil {
		return err
	}
	own := append(append([]int64{}, r.live...), r.window...)
	err := one(ctx, r.own, `select
		(select count(*) from lifecycle.audit_events where action = 'namespaces_imported'),
		(select count(*) from lifecycle.notifications n join lifecycle.audit_events a on a.id = n.audit_event_id
		  where a.action = 'namespaces_imported'),
		(select count(*) from lifecycle.webhook_deliveries d join lifecycle.audit_events a on a.id = d.audit_event_id
		  where a.action = 'namespaces_imported'),
		(select count(*) from lifecycle.audit_events a
		  where a.namespace_id is not null and a.action <> 'member_added' and not a.namespace_id = any ($1)
		    and exists (select from legacy.namespaces l where l.id = a.namespace_id)),
		(select count(*) from lifecycle.notifications n join lifecycle.audit_events a on a.id = n.audit_event_id
		  where a.namespace_id = any ($1)),
		(select count(*) from lifecycle.webhook_deliveries d join lifecycle.audit_events a on a.id = d.audit_event_id
		  where a.namespace_id = any ($1))`, []any{own},
		&r.rep.ImportFacts, &r.rep.ImportNotifications, &r.rep.ImportDeliveries, &r.rep.OwnAuditRows,
		&r.rep.LiveNotifications, &r.rep.LiveDeliveries)
	if err != nil {
		return err
	}
	var window int64
	if err := one(ctx, r.own, `select count(*) from lifecycle.audit_events a where a.source_lsn between $1::pg_lsn and $2::pg_lsn
		and a.action <> 'member_added' and a.action <> 'namespaces_imported'`, []any{r.importStart, r.backfillEnd}, &window); err != nil {
		return err
	}
	r.rep.OwnAuditRows += window
	fmt.Fprintf(r.out, "the syncer has caught up: %d namespaces_imported audit rows (one per import batch, one for the backfill)\n", r.rep.ImportFacts)
	fmt.Fprintf(r.out, "their notifications: %d, webhook deliveries: %d\n", r.rep.ImportNotifications, r.rep.ImportDeliveries)
	fmt.Fprintf(r.out, "audit rows of their own for the %d imported namespaces (memberships and the changes after the import aside): %d\n",
		r.rep.Staged, r.rep.OwnAuditRows)
	fmt.Fprintf(r.out, "the changes of steps 11-12 (ordinary changes, for comparison): %d notifications, %d webhook deliveries\n",
		r.rep.LiveNotifications, r.rep.LiveDeliveries)
	return nil
}

func (r *run) verify(ctx context.Context) error {
	start := time.Now()
	if _, err := r.own.Exec(ctx, `create temporary table adopt_verified as `+verifySQL); err != nil {
		return err
	}
	r.rep.VerifyTime = time.Since(start)
	rows, err := r.own.Query(ctx, `select case when state = 0 then 'active' else lifecycle.state_name(state) end, count(*), count(problem)
		from adopt_verified group by state order by state`)
	if err != nil {
		return err
	}
	r.rep.Verified, r.rep.Mismatches = 0, 0
	for rows.Next() {
		var state string
		var n, bad int64
		if err := rows.Scan(&state, &n, &bad); err != nil {
			return err
		}
		r.rep.Verified += n
		r.rep.Mismatches += bad
		fmt.Fprintf(r.out, "  legacy data says %-20s %8d namespaces, %d disagree\n", state+":", n, bad)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = r.own.Query(ctx, `select id, problem from adopt_verified where problem is not null order by id limit 10`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		var problem string
		if err := rows.Scan(&id, &problem); err != nil {
			return err
		}
		fmt.Fprintf(r.out, "  namespace %d: %s\n", id, problem)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if r.rep.Mismatches == 0 && r.rep.Verified == r.rep.Staged {
		fmt.Fprintf(r.out, "every legacy state, date and actor kept (%d namespaces)  [%s]\n", r.rep.Verified, r.rep.VerifyTime.Round(time.Millisecond))
	} else {
		fmt.Fprintf(r.out, "NOT KEPT: %d of %d namespaces disagree with their legacy data\n", r.rep.Mismatches, r.rep.Verified)
	}
	return nil
}

func (r *run) cutover(ctx context.Context) error {
	fmt.Fprintln(r.out, "the application reads states from the API (namespace_effective_state, lifecycle.effective_states) and changes them")
	fmt.Fprintln(r.out, "only through it; then the schema's owner drops the bridges (the legacy columns stay, unmaintained, until dropped):")
	for _, table := range []string{"legacy.namespace_settings", "legacy.group_deletion_schedules", "legacy.projects"} {
		var n int64
		if err := one(ctx, r.own, `select lifecycle.legacy_bridge_drop($1::regclass)`, []any{table}, &n); err != nil {
			return err
		}
		fmt.Fprintf(r.out, "  select lifecycle.legacy_bridge_drop('%s') -> %d\n", table, n)
	}
	if err := one(ctx, r.own, `select (select count(*) from lifecycle.legacy_bridges)
		+ (select count(*) from pg_trigger where tgname in ('lifecycle_legacy_bridge', 'lifecycle_legacy_bridge_update', 'namespaces_5_legacy_bridge'))`, nil,
		&r.rep.BridgesLeft); err != nil {
		return err
	}
	fmt.Fprintf(r.out, "bridges and bridge triggers left: %d\n", r.rep.BridgesLeft)
	return nil
}

func (r *run) summary() {
	rep := r.rep
	fmt.Fprintf(r.out, "\n== Figures (%d namespaces)\n\n", rep.Staged)
	fmt.Fprintf(r.out, "staging           %10s\n", rep.StageTime.Round(time.Millisecond))
	fmt.Fprintf(r.out, "import            %10s  %.0f rows/s (%d rows, batches of %d)\n", rep.ImportTime.Round(time.Millisecond),
		float64(rep.Imported)/rep.ImportTime.Seconds(), rep.Imported, r.cfg.BatchSize)
	fmt.Fprintf(r.out, "import after fix  %10s  (%d rows)\n", rep.FixTime.Round(time.Millisecond), rep.ImportedAfterFix)
	fmt.Fprintf(r.out, "backfill          %10s  (%d namespaces)\n", rep.BackfillTime.Round(time.Millisecond), rep.Backfilled)
	fmt.Fprintf(r.out, "legacy_bridge_check %8s  (%d rows)\n", rep.CheckTime.Round(time.Millisecond), rep.CheckRows)
	fmt.Fprintf(r.out, "check_invariants  %10s  (%d rows)\n", rep.InvariantsTime.Round(time.Millisecond), rep.Invariants)
	fmt.Fprintf(r.out, "verification      %10s  (%d namespaces, %d disagree)\n", rep.VerifyTime.Round(time.Millisecond), rep.Verified, rep.Mismatches)
	fmt.Fprintf(r.out, "notifications / deliveries of the import and backfill: %d / %d\n", rep.ImportNotifications, rep.ImportDeliveries)
}

func since(t time.Time) string { return time.Since(t).Round(time.Millisecond).String() }
