package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/cmd/bench/scenario"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
	"github.com/nslifecycle/nslifecycle/internal/migration"
)

var binDir string // the syncer and the sweeper, built once

func TestMain(m *testing.M) {
	var err error
	if binDir, err = os.MkdirTemp("", "bench-test"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if out, err := exec.Command("go", "build", "-o", binDir+"/", "../syncer", "../sweeper").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build the syncer and the sweeper: %v\n%s", err, out)
		os.Exit(2)
	}
	code := dbtest.Main(m)
	os.RemoveAll(binDir)
	os.Exit(code)
}

func pgbenchBinary(t *testing.T) string {
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p
	}
	p := "/usr/lib/postgresql/15/bin/pgbench"
	if _, err := os.Stat(p); err != nil {
		t.Fatal("pgbench not found (it comes with postgresql-15; scripts/db.sh install)")
	}
	return p
}

// A small run of every scenario: each reports a figure for every case it promises, the rows the
// transition scenario wrote match the transactions it counted (so its throughput counts real
// state changes), and the database is consistent afterwards.
func TestEveryScenarioMeasuresWhatItReports(t *testing.T) {
	ctx := context.Background()
	url := dbtest.NewDatabase(t)
	slot := fmt.Sprintf("nslt_%d_bench", os.Getpid())
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Before the database goes: its slots would keep it.
		pool.Exec(context.Background(), `select pg_drop_replication_slot(slot_name) from pg_replication_slots
			where slot_name in ($1, $1 || '_floor', $1 || '_transfer', $1 || '_effective_states')`, slot)
		pool.Close()
	})
	cfg := scenario.Config{Label: "test", DatabaseURL: url, Namespaces: 3000, Duration: time.Second, Rounds: 1, Clients: []int{1, 2},
		TransferSizes: []int{1, 50}, BurstSizes: []int{100, 200}, SweepGroups: 5, SweepSize: 20, HardDeleteSizes: []int{40}, SyncerRate: 50, SyncerSteps: []int{20}, SyncerLoad: 2 * time.Second, TakeoverKills: 2,
		Scenarios: []string{"transitions"}, Pgbench: pgbenchBinary(t), Syncer: filepath.Join(binDir, "syncer"),
		Sweeper: filepath.Join(binDir, "sweeper"), Slot: slot, ScratchDir: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}

	res, err := scenario.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Transitions
	if tr == nil || len(tr.Runs) != 2*2*5 {
		t.Fatalf("transition runs: %+v, want 2 workloads × 2 client counts × 5 methods", tr)
	}
	var api, floor, records int
	for _, r := range tr.Runs {
		if r.TPS <= 0 || r.Latency.N == 0 || r.Latency.P50 <= 0 || r.Latency.P99 < r.Latency.P50 {
			t.Fatalf("run without figures: %+v", r)
		}
		switch r.Method {
		case scenario.MethodAPIPgbench, scenario.MethodAPIGo:
			api += r.Latency.N
		case scenario.MethodAppSideRecordsGo:
			records += r.Latency.N
			floor += r.Latency.N
		default:
			floor += r.Latency.N
		}
	}
	// The machine keeping the product's records wrote one outbox row for each of its transactions,
	// after the metadata of its details row.
	var facts, kept int
	if err := pool.QueryRow(ctx, `select (select count(*) from lifecycle_bench.facts where details ? 'state_update_id'),
		(select count(*) from lifecycle_bench.namespace_details where state_metadata ? 'last_changed_by_user_id')`).Scan(&facts, &kept); err != nil {
		t.Fatal(err)
	}
	if records == 0 || facts != records || kept == 0 {
		t.Fatalf("the records-keeping machine: %d transactions, %d outbox rows, %d details rows with its metadata", records, facts, kept)
	}
	var history, floorHistory int
	if err := pool.QueryRow(ctx, `select (select count(*) from lifecycle.namespace_state_updates
			where source = 'api' and event in ('archive', 'unarchive', 'schedule_deletion', 'restore')),
		(select count(*) from lifecycle_bench.state_updates)`).Scan(&history, &floorHistory); err != nil {
		t.Fatal(err)
	}
	// The API's count has the resets after the first workload and after the last on top (at most
	// one per target each).
	if floorHistory != floor || history < api || history > api+2*tr.Targets {
		t.Fatalf("history rows: %d by the API for %d transactions measured, %d on the floor for %d", history, api, floorHistory, floor)
	}

	// The other scenarios, on the same hierarchy.
	cfg.Scenarios, cfg.Reuse = nil, true
	cfg.Scenarios = []string{"effective_states", "effective_states_burst", "effective_state", "scheduling", "transfer", "sweeper", "hard_delete", "syncer", "takeover", "upgrade", "vacuum"}
	cfg.UpgradeHold, cfg.VacuumDuration = 3*time.Second, 2*time.Second
	// The upgrade scenario moves the newest migration down and up: two test migrations after the
	// baseline, the embedded ones holding none after it yet.
	later := dbtest.MigrationsWith(t, dbtest.LaterMigrations)
	cfg.Migrations = later
	if err := migrateWith(ctx, cfg.DatabaseURL, later, later.Latest()); err != nil {
		t.Fatal(err)
	}
	reloptions := func() string {
		var opts string
		if err := pool.QueryRow(ctx, `select string_agg(relname || ':' || coalesce(array_to_string(reloptions, ','), ''), ' ' order by relname)
			from pg_class where oid in ('lifecycle.namespaces'::regclass, 'lifecycle.namespace_details'::regclass)`).Scan(&opts); err != nil {
			t.Fatal(err)
		}
		return opts
	}
	migrated := reloptions()
	if res, err = scenario.Run(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	// The vacuum scenario measured the defaults against the settings the migrations left, every
	// transaction it counted was a state change (a history row), each updating a row of each table
	// (the statistics may carry earlier writes too, sent late), and it left the settings as it found
	// them.
	if v := res.Vacuum; v == nil || len(v.Sides) != 2 || v.Sides[0].Name != "defaults" || len(v.Sides[0].Settings) != 0 ||
		len(v.Sides[1].Settings["lifecycle.namespaces"]) == 0 {
		t.Fatalf("vacuum: %+v", v)
	}
	for _, s := range res.Vacuum.Sides {
		if s.TPS <= 0 || len(s.Rounds) != 1 || s.Latency.N == 0 || len(s.Tables) != 2 || len(s.Transitions) != 1 || s.Transitions[0] != int64(s.Latency.N) {
			t.Fatalf("vacuum side without figures, or %v state changes for %d transactions measured: %+v", s.Transitions, s.Latency.N, s)
		}
		// The latencies miss no transaction: the history rows written during the load are exactly
		// as many. The statistics' updates may be more (a make test counted 3,147 for 3,132): they
		// can carry writes made before the load, which their session sent late. Never fewer (the
		// scenario waits for the load's own: vacuumSettled).
		for _, tb := range s.Tables {
			if tb.Updates < s.Transitions[0] || tb.HeapBefore <= 0 || tb.HeapAfter <= 0 || tb.IndexesAfter <= 0 {
				t.Fatalf("vacuum, %s, %s: %d updates for %d state changes: %+v", s.Name, tb.Table, tb.Updates, s.Transitions[0], tb)
			}
		}
	}
	if after := reloptions(); after != migrated {
		t.Fatalf("the tables' settings after the vacuum scenario: %s, before: %s", after, migrated)
	}
	es := res.EffectiveStates
	if es == nil || len(es.Updates) != 3 || len(es.Lag) != 3 || len(es.Rebuilds) != 3 || len(res.EffectiveState) != 4*4 || len(res.Scheduling) != 3 || len(res.Transfers) != 2*2 ||
		res.Sweeper == nil || res.Syncer == nil {
		t.Fatalf("missing scenario results: effective_states %+v, %d effective, %d scheduling, %d transfer, sweeper %v, syncer %v",
			es, len(res.EffectiveState), len(res.Scheduling), len(res.Transfers), res.Sweeper, res.Syncer)
	}
	if tk := res.Takeover; tk == nil || tk.Kills != 2 || len(tk.Rounds) != 2 || tk.Takeover.Max <= 0 || tk.Changes == 0 || tk.Audited != tk.Changes {
		t.Fatalf("takeover without figures: %+v", tk)
	}
	if b := res.EffectiveStatesBurst; b == nil || len(b.Runs) != 2 || b.Runs[1].Rows != 200 || b.Runs[1].Seconds <= 0 || b.Growth <= 0 || b.Rebuild.Seconds <= 0 || len(b.Lag) != 1 {
		t.Fatalf("effective_states_burst without figures: %+v", b)
	}
	for i, u := range es.Updates {
		if u.Latency.N == 0 || es.Lag[i].Lag.N != u.Latency.N || es.Lag[i].Lag.P50 <= 0 {
			t.Fatalf("effective_states without figures for %d descendants: update %+v, lag %+v", u.Descendants, u, es.Lag[i])
		}
	}
	for _, e := range res.EffectiveState {
		if e.Latency.N == 0 || e.ServerUSPerOp <= 0 {
			t.Fatalf("effective state without figures: %+v", e)
		}
	}
	for _, s := range res.Scheduling {
		if s.API.N == 0 || !s.ChangedAsAsked {
			t.Fatalf("scheduling: %+v", s)
		}
	}
	for _, tr := range res.Transfers {
		if tr.Moves != 2 || tr.AcceptToMS.P50 <= 0 || tr.Raw.N != 2 {
			t.Fatalf("transfer: %+v", tr)
		}
	}
	if s := res.Sweeper; s.Deleted != 5 || s.Namespaces != 5*21 || s.PerSecond <= 0 || s.RawPerSecond <= 0 {
		t.Fatalf("sweeper: %+v", s)
	}
	if h := res.HardDeletes; len(h) != 1 || h[0].Descendants != 40 || h[0].Seconds <= 0 || h[0].FloorSeconds <= 0 {
		t.Fatalf("hard delete: %+v", h)
	}
	if s := res.Syncer; s.Lag.Syncer.N == 0 || s.Lag.Floor.N == 0 || len(s.Steps) != 1 || s.Drain.PerSecond <= 0 || s.Drain.FloorPerSecond <= 0 {
		t.Fatalf("syncer: %+v", s)
	}
	// The newest migration went down and up under the load, and the schema is back at the newest.
	if u := res.Upgrade; u == nil || len(u.Rounds) != 1 || u.To != u.From+1 || u.Rounds[0].DownSeconds <= 0 || u.Rounds[0].UpSeconds <= 0 ||
		u.ReadDuring.N == 0 || u.WriteDuring.N == 0 || u.ReadBefore.N == 0 || u.WriteBefore.N == 0 || u.Migrations == "" {
		t.Fatalf("upgrade: %+v", u)
	}
	var version int32
	if err := pool.QueryRow(ctx, `select version from lifecycle.schema_version`).Scan(&version); err != nil || version != res.Upgrade.To {
		t.Fatalf("after the upgrade scenario: version %d (%v), want %d", version, err, res.Upgrade.To)
	}
	if version != later.Latest() {
		t.Fatalf("the scenario went back up to %d, not the newest, %d", version, later.Latest())
	}
	// With no migration after the baseline (the embedded ones at the first release), the scenario
	// says so and measures nothing.
	if err := migrateWith(ctx, cfg.DatabaseURL, later, later.Baseline()); err != nil {
		t.Fatal(err)
	}
	alone := cfg
	alone.Scenarios, alone.Migrations = []string{"upgrade"}, nil
	embedded, err := migration.Load(migration.Migrations())
	if err != nil {
		t.Fatal(err)
	}
	if embedded.Latest() == embedded.Baseline() {
		skipped, err := scenario.Run(ctx, alone)
		if err != nil || skipped.Upgrade == nil || skipped.Upgrade.Skipped == "" || len(skipped.Upgrade.Rounds) != 0 {
			t.Fatalf("upgrade with only the baseline: %+v (%v)", skipped.Upgrade, err)
		}
	}
	var violations int
	if err := pool.QueryRow(ctx, `select count(*) from lifecycle.check_invariants()`).Scan(&violations); err != nil || violations != 0 {
		t.Fatalf("%d invariant violations after the bench (%v)", violations, err)
	}
	if len(res.Targets) == 0 {
		t.Fatal("no target judged")
	}

	// The import, alone: no hierarchy is generated for it, and it works in databases of its own
	// (dropped afterwards), leaving the bench database as it was. The scenario itself fails unless
	// every staged row was imported and check_invariants is empty after each round.
	var before int
	if err := pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	icfg := cfg
	icfg.Label, icfg.Scenarios, icfg.Reuse, icfg.Rounds, icfg.ImportBatch = "import", []string{"import", "adopt_check"}, false, 2, 500
	ires, err := scenario.Run(ctx, icfg)
	if err != nil {
		t.Fatal(err)
	}
	im := ires.Import
	if im == nil || ires.Data.Namespaces != 0 || im.Namespaces != 3000 || len(im.Rounds) != 2 || im.Archived != 150 || im.Scheduled != 60 ||
		im.MinTreeDepth < 4 || im.MaxDepth > 6 || im.LegacyPaths != 30 || im.Seconds <= 0 || im.FloorSeconds <= 0 ||
		im.RowsPerSecond <= 0 || im.FloorRowsPerSecond <= 0 || im.Ratio <= 0 {
		t.Fatalf("import: %+v (data %+v)", im, ires.Data)
	}
	for _, r := range im.Rounds {
		// One level per batch at least (up to 6 levels), and 3000 rows in batches of 500 at least 6.
		if r.Batches < 6 || r.PrepareSeconds <= 0 || r.PrepareSeconds >= r.Seconds || r.StageSeconds <= 0 {
			t.Fatalf("import round: %+v", r)
		}
	}
	// The adoption check, beside it: a GitLab of the run's size adopted in a database of its own
	// with its memberships (the scenario fails when a check lists more than the rejected rows), both
	// checks timed each round.
	if ac := ires.AdoptCheck; ac == nil || ac.Legacy != 3000 || ac.Namespaces < 2900 || ac.Rejected == 0 || ac.CheckRows < int64(ac.Rejected) ||
		ac.InvariantRows != 0 || ac.Members == 0 || ac.Memberships == 0 || ac.Memberships > ac.Members || len(ac.Rounds) != 2 || ac.CheckSeconds <= 0 || ac.InvariantsSeconds <= 0 || ac.AdoptSeconds <= 0 {
		t.Fatalf("adopt_check: %+v", ac)
	}
	var after, left int
	if err := pool.QueryRow(ctx, `select (select count(*) from lifecycle.namespaces),
		(select count(*) from pg_database where datname in (current_database() || '_import', current_database() || '_adopt'))`).Scan(&after, &left); err != nil {
		t.Fatal(err)
	}
	if after != before || left != 0 {
		t.Fatalf("after the import scenario: %d namespaces in the bench database (%d before), %d import databases left", after, before, left)
	}
	var judged int
	for _, tc := range ires.Targets {
		if strings.HasPrefix(tc.Name, "import of") && tc.Measured != "not measured in this run" {
			judged++
		}
	}
	if judged != 0 {
		t.Fatalf("import targets judged at 3000 namespaces: %+v", ires.Targets)
	}

	// The adoption, alone, in a database of its own (dropped afterwards): GitLab's tables filled,
	// adopted with cmd/adopt's code (it fails unless every namespace and membership came in and the
	// checks are empty), its statements measured beside their baselines.
	acfg := cfg
	acfg.Label, acfg.Scenarios, acfg.Reuse, acfg.Rounds, acfg.ImportBatch = "adoption", []string{"adoption"}, false, 1, 500
	ares, err := scenario.Run(ctx, acfg)
	if err != nil {
		t.Fatal(err)
	}
	ad := ares.Adoption
	if ad == nil || ad.Namespaces != 3000 || ad.Imported < 2900 || ad.Memberships < ad.Imported || len(ad.Rounds) != 1 ||
		ad.ImportSeconds <= 0 || ad.FloorSeconds <= 0 || ad.ImportRatio <= 0 || len(ad.Statements) != 4 {
		t.Fatalf("adoption: %+v", ad)
	}
	for _, st := range ad.Statements {
		if st.P50 <= 0 || st.BaseP50 <= 0 || st.Ratio <= 0 || ad.Rounds[0].Latencies[st.Name].N != ad.Calls ||
			ad.Rounds[0].Baselines[st.Name].N != ad.Calls {
			t.Fatalf("adoption statement: %+v (round %+v)", st, ad.Rounds[0])
		}
	}
	judged = 0
	for _, tc := range ares.Targets {
		if strings.HasPrefix(tc.Name, "GitLab's ") && tc.Measured != "not measured in this run" {
			judged++
		}
		if strings.HasPrefix(tc.Name, "adoption's import") && tc.Measured != "not measured in this run" {
			t.Fatalf("the adoption's import judged at 3000 namespaces: %+v", tc)
		}
	}
	if judged != 3 {
		t.Fatalf("adoption targets: %+v", ares.Targets)
	}
	if err := pool.QueryRow(ctx, `select count(*) from pg_database where datname = current_database() || '_adoption'`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Fatalf("%d adoption databases left", left)
	}

	// The report: the generated part of a document is replaced, the prose kept.
	dir := t.TempDir()
	doc := filepath.Join(dir, "b.md")
	os.WriteFile(doc, []byte("# prose\n"+scenario.ReportBegin+"old\n"+scenario.ReportEnd+"\nmore prose\n"), 0o644)
	if code := run([]string{"-render", doc, writeResults(t, filepath.Join(dir, "test.json"), res),
		writeResults(t, filepath.Join(dir, "import.json"), ires), writeResults(t, filepath.Join(dir, "adoption.json"), ares)}, io.Discard); code != 0 {
		t.Fatalf("render exit %d", code)
	}
	b, _ := os.ReadFile(doc)
	if s := string(b); !strings.Contains(s, "## Test run") || !strings.Contains(s, "more prose") || strings.Contains(s, "old\n") ||
		!strings.Contains(s, "### Syncer") || !strings.Contains(s, "### Upgrade under load") || !strings.Contains(s, "## Import run") || !strings.Contains(s, "### Import") || !strings.Contains(s, "### Adoption check") ||
		!strings.Contains(s, "import (3,000 namespaces)") || !strings.Contains(s, "### Adoption of GitLab's tables") {
		t.Fatalf("rendered document:\n%s", s)
	}
}

func writeResults(t *testing.T, path string, res *scenario.Results) string {
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// docs/benchmarks.md shows the figures of the results checked in beside it (make bench renders
// them; a hand edit of the generated part, or a results file without its rendering, fails here).
func TestTheBenchmarksDocumentShowsTheCheckedInResults(t *testing.T) {
	files, err := filepath.Glob("../../docs/benchmarks/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no results in docs/benchmarks (%v)", err)
	}
	stale, err := scenario.UpdateDoc("../../docs/benchmarks.md", files, false)
	if err != nil {
		t.Fatal(err)
	}
	if stale {
		t.Fatal("docs/benchmarks.md is stale: go run ./cmd/bench -render docs/benchmarks.md docs/benchmarks/*.json")
	}
}

// migrateWith moves the database at url to version with set.
func migrateWith(ctx context.Context, url string, set *migration.Set, version int32) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = set.To(ctx, conn, version, migration.Options{})
	return err
}
