package scenario

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/migration"
)

// AdoptionResult is issue 26's costs of adopting GitLab's tables (point 8), each beside its
// baseline in the same round, on GitLab's own table definitions (internal/adopt/gitlab/structure.sql)
// filled by the demo's population (internal/adopt/populate.sql) plus memberships:
//   - the adoption's import (cmd/adopt's path: bridges, staging, the import, the memberships) against
//     its floor, the same lifecycle rows (namespaces and memberships) INSERT … SELECT-ed into copies
//     with the same indexes, no trigger, no foreign key;
//   - GitLab's UPDATEs of a projects and a namespaces row that touch no bridged column (updated_at,
//     last_activity_at) against the same UPDATEs of the same rows in a copy of the tables without
//     bridges (schema plain), alternating call by call;
//   - GitLab's archive of a project through its column (projects.archived, as Projects::UpdateService
//     writes it) against the API's archive of the same project (lifecycle.namespace_event), and the
//     unarchives, alternating.
//
// Every statement runs as GitLab's one role does (a login granted lifecycle_app), one transaction
// each, its client latency measured.
type AdoptionResult struct {
	Namespaces  int   `json:"namespaces"` // the population's size (legacy.populate's total)
	Imported    int64 `json:"imported"`   // lifecycle namespaces after the adoption
	Memberships int64 `json:"memberships"`
	MemberRows  int64 `json:"member_rows"` // GitLab's members rows (access requests and invitations included)
	Calls       int   `json:"calls"`       // per statement and side, per round

	Rounds []AdoptionRound `json:"rounds"`
	// Medians over the rounds.
	ImportSeconds float64             `json:"import_seconds"`
	FloorSeconds  float64             `json:"floor_seconds"`
	ImportRatio   float64             `json:"import_ratio"` // FloorSeconds / ImportSeconds: the share of the floor's rate
	Statements    []AdoptionStatement `json:"statements"`
}

// AdoptionStatement is one pair: the product's statement and its baseline, medians of the rounds'
// p50 latencies, and the ratio of those.
type AdoptionStatement struct {
	Name     string  `json:"name"`
	Baseline string  `json:"baseline"`
	P50      float64 `json:"p50_ms"`
	BaseP50  float64 `json:"baseline_p50_ms"`
	Ratio    float64 `json:"ratio"`
}

// AdoptionRound is one round in a database of its own.
type AdoptionRound struct {
	PopulateSeconds float64 `json:"populate_seconds"` // GitLab's tables filled and copied (not counted)
	ImportSeconds   float64 `json:"import_seconds"`   // AdoptGitLab until its memberships are in
	// Its phases, from its log: the bridges installed, the namespaces staged (stage.sql's mapping),
	// imported (namespace_import_run and an ANALYZE), the memberships.
	BridgesSeconds    float64 `json:"bridges_seconds"`
	StageSeconds      float64 `json:"stage_seconds"`
	NamespacesSeconds float64 `json:"namespaces_seconds"`
	MembersSeconds    float64 `json:"members_seconds"`
	AdoptSeconds      float64 `json:"adopt_seconds"` // the whole command: with the backfill and the checks
	FloorSeconds      float64 `json:"floor_seconds"`
	// Latencies of each statement (keyed as AdoptionStatement.Name) and of its baseline.
	Latencies map[string]Latency `json:"latencies"`
	Baselines map[string]Latency `json:"baselines"`
}

// adoptionTarget is a project measured on: its projects id, its group's namespaces id, its
// project namespace (the lifecycle's id).
type adoptionTarget struct{ project, group, ns int64 }

// The pairs measured, in the order they are reported; args gives each statement its parameters.
var adoptionPairs = []struct {
	name, baseline, sql, baseSQL string
	args, baseArgs               func(t adoptionTarget) []any
}{
	{"UPDATE of a projects row, no bridged column (updated_at, last_activity_at)", "the same UPDATE without bridges",
		`update legacy.projects set last_activity_at = now(), updated_at = now() where id = $1`,
		`update plain.projects set last_activity_at = now(), updated_at = now() where id = $1`,
		func(t adoptionTarget) []any { return []any{t.project} }, func(t adoptionTarget) []any { return []any{t.project} }},
	{"UPDATE of a namespaces row, no bridged column (updated_at)", "the same UPDATE without bridges",
		`update legacy.namespaces set updated_at = now() where id = $1`,
		`update plain.namespaces set updated_at = now() where id = $1`,
		func(t adoptionTarget) []any { return []any{t.group} }, func(t adoptionTarget) []any { return []any{t.group} }},
	{"archive of a project through projects.archived", "the API's archive of the same project (namespace_event)",
		`update legacy.projects set archived = true, updated_at = now() where id = $1`,
		`select from lifecycle.namespace_event($1, 'archive', $2)`,
		func(t adoptionTarget) []any { return []any{t.project} }, func(t adoptionTarget) []any { return []any{t.ns, adoptionActor} }},
	{"unarchive of a project through projects.archived", "the API's unarchive of the same project",
		`update legacy.projects set archived = false, updated_at = now() where id = $1`,
		`select from lifecycle.namespace_event($1, 'unarchive', $2)`,
		func(t adoptionTarget) []any { return []any{t.project} }, func(t adoptionTarget) []any { return []any{t.ns, adoptionActor} }},
}

// adoptionActor is the user GitLab's legacy writes act for (the bridges' actor_id) and the API's
// calls name: an owner of every top-level group (a members row, imported with the others).
const adoptionActor = 42

// adoptionMembers gives GitLab's tables memberships as GitLab keeps them: three members of each
// group (owner, maintainer, developer), two of each project, the actor an owner of each top-level
// group, and per twenty groups one access request and one pending invitation (which are not
// memberships).
const adoptionMembers = `
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, type, created_at, updated_at,
                            member_namespace_id, requested_at, invite_token)
select lvl, src, st, uid, 3, t, now(), now(), mns, req, tok from (
  select (array[50, 40, 30])[k] lvl, n.id src, 'Namespace' st, 10000 + (n.id * 7 + k * 13) % 50000 uid, 'GroupMember' t,
         n.id mns, null::timestamp req, null tok
    from legacy.namespaces n, generate_series(1, 3) k where n.type = 'Group'
  union all
  select (array[40, 30])[k], p.id, 'Project', 10000 + (p.id * 11 + k * 17) % 50000, 'ProjectMember', p.project_namespace_id, null, null
    from legacy.projects p, generate_series(1, 2) k
  union all
  select 50, n.id, 'Namespace', 42, 'GroupMember', n.id, null, null from legacy.namespaces n where n.type = 'Group' and n.parent_id is null
  union all
  select 10, n.id, 'Namespace', 70000 + n.id % 1000, 'GroupMember', n.id, now()::timestamp, null
    from legacy.namespaces n where n.type = 'Group' and n.id % 20 = 0
  union all
  select 30, n.id, 'Namespace', null, 'GroupMember', n.id, null, md5(n.id::text)
    from legacy.namespaces n where n.type = 'Group' and n.id % 20 = 1) m`

// adoptionFixes makes the population importable whole: populate.sql seeds rows the import rejects
// (a name with a control character, a project more visible than its group), which the demo fixes
// after its first run; the costs are measured on a complete adoption.
var adoptionFixes = []string{
	`update legacy.namespaces set name = regexp_replace(name, '[\x01-\x1f\x7f-\x9f]', ' ', 'g') where name ~ '[\x01-\x1f\x7f-\x9f]'`,
	`update legacy.projects set name = regexp_replace(name, '[\x01-\x1f\x7f-\x9f]', ' ', 'g') where name ~ '[\x01-\x1f\x7f-\x9f]'`,
	`update legacy.projects p set visibility_level = n.visibility_level from legacy.namespaces n
	  where n.id = p.namespace_id and p.visibility_level > n.visibility_level`,
	`update legacy.namespaces c set visibility_level = p.visibility_level from legacy.namespaces p
	  where p.id = c.parent_id and c.visibility_level > p.visibility_level`,
}

// runAdoption runs the rounds, each in a database of its own (dropped afterwards), and takes the
// medians.
func runAdoption(ctx context.Context, e *env) error {
	var bench string
	if err := e.pool.QueryRow(ctx, `select current_database()`).Scan(&bench); err != nil {
		return err
	}
	res := &AdoptionResult{Namespaces: e.cfg.Namespaces, Calls: adoptionCalls(e.cfg.Namespaces)}
	for round := range e.cfg.Rounds {
		r, err := e.adoptionRound(ctx, bench+"_adoption", res)
		if err != nil {
			return fmt.Errorf("round %d: %w", round+1, err)
		}
		res.Rounds = append(res.Rounds, *r)
		e.res.Adoption = res // the rounds so far, should a later one fail
		e.log.Info("adoption", "round", round+1, "import_seconds", r.ImportSeconds, "floor_seconds", r.FloorSeconds,
			"bridges_seconds", r.BridgesSeconds, "stage_seconds", r.StageSeconds, "namespaces_seconds", r.NamespacesSeconds,
			"members_seconds", r.MembersSeconds,
			"adopt_seconds", r.AdoptSeconds, "populate_seconds", r.PopulateSeconds)
	}
	var imp, floor []float64
	for _, r := range res.Rounds {
		imp, floor = append(imp, r.ImportSeconds), append(floor, r.FloorSeconds)
	}
	res.ImportSeconds, res.FloorSeconds = round3(median(imp)), round3(median(floor))
	res.ImportRatio = round3(ratio(res.FloorSeconds, res.ImportSeconds))
	for _, p := range adoptionPairs {
		var v, b []float64
		for _, r := range res.Rounds {
			v, b = append(v, r.Latencies[p.name].P50), append(b, r.Baselines[p.name].P50)
		}
		s := AdoptionStatement{Name: p.name, Baseline: p.baseline, P50: round3(median(v)), BaseP50: round3(median(b))}
		s.Ratio = round3(ratio(s.P50, s.BaseP50))
		res.Statements = append(res.Statements, s)
	}
	e.res.Adoption = res
	return nil
}

// adoptionCalls is how many calls each statement and its baseline make per round.
func adoptionCalls(namespaces int) int { return min(600, max(60, namespaces/100)) }

// adoptionLog keeps the time each of AdoptGitLab's log messages was written: the phases of the run.
type adoptionLog struct {
	mu sync.Mutex
	at map[string]time.Time
}

func (l *adoptionLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *adoptionLog) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	l.at[r.Message] = time.Now()
	l.mu.Unlock()
	return nil
}
func (l *adoptionLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *adoptionLog) WithGroup(string) slog.Handler      { return l }

func (e *env) adoptionRound(ctx context.Context, name string, res *AdoptionResult) (*AdoptionRound, error) {
	db := pgx.Identifier{name}.Sanitize()
	drop := func() error {
		_, err := e.pool.Exec(context.WithoutCancel(ctx), `drop database if exists `+db+` with (force)`)
		return err
	}
	if err := drop(); err != nil {
		return nil, err
	}
	if _, err := e.pool.Exec(ctx, `create database `+db); err != nil {
		return nil, err
	}
	defer drop()
	cfg, err := pgx.ParseConfig(e.cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	cfg.Database = name
	cfg.RuntimeParams["search_path"] = ""
	cfg.RuntimeParams["application_name"] = "nslifecycle-bench"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := migration.To(ctx, conn, migration.Latest, migration.Options{}); err != nil {
		return nil, err
	}
	r := &AdoptionRound{Latencies: map[string]Latency{}, Baselines: map[string]Latency{}}

	// GitLab's tables, filled (schema legacy, which adoption bridges), and an identical copy that
	// stays without bridges (schema plain). GitLab indexes namespaces.parent_id; structure.sql
	// lacks that definition, so both get the same one.
	start := time.Now()
	if err := adopt.LoadGitLabStructure(ctx, conn, "legacy"); err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, `create index on legacy.namespaces (parent_id, id)`); err != nil {
		return nil, err
	}
	if err := adopt.PopulateGitLab(ctx, conn, int64(res.Namespaces)); err != nil {
		return nil, err
	}
	for _, f := range adoptionFixes {
		if _, err := conn.Exec(ctx, f); err != nil {
			return nil, fmt.Errorf("fix: %w", err)
		}
	}
	if _, err := conn.Exec(ctx, adoptionMembers); err != nil {
		return nil, fmt.Errorf("members: %w", err)
	}
	if err := adopt.LoadGitLabStructure(ctx, conn, "plain"); err != nil {
		return nil, err
	}
	// Statement by statement, each its own transaction: one transaction holding the tables while
	// it analyzed them deadlocked with autovacuum's analyze of the same fresh tables.
	for _, q := range []string{`create index on plain.namespaces (parent_id, id)`,
		`insert into plain.namespaces select * from legacy.namespaces`,
		`insert into plain.projects select * from legacy.projects`,
		`insert into plain.namespace_settings select * from legacy.namespace_settings`,
		`insert into plain.group_deletion_schedules select * from legacy.group_deletion_schedules`,
		`insert into plain.members select * from legacy.members`,
		`grant usage on schema legacy, plain to lifecycle_app`,
		`grant select, insert, update, delete on all tables in schema legacy, plain to lifecycle_app`,
		`analyze legacy.namespaces, legacy.projects, legacy.namespace_settings, legacy.group_deletion_schedules, legacy.members,
		         plain.namespaces, plain.projects, plain.namespace_settings, plain.group_deletion_schedules, plain.members`,
		`checkpoint`} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return nil, fmt.Errorf("plain: %s: %w", q, err)
		}
	}
	if err := conn.QueryRow(ctx, `select count(*) from legacy.members`).Scan(&res.MemberRows); err != nil {
		return nil, err
	}
	r.PopulateSeconds = round3(time.Since(start).Seconds())

	// The adoption, as cmd/adopt runs it, its phases from its log.
	phases := &adoptionLog{at: map[string]time.Time{}}
	start = time.Now()
	a, err := adopt.AdoptGitLab(ctx, conn, adopt.GitLab{Schema: "legacy", ActorID: adoptionActor, OrganizationID: 1,
		BatchSize: e.cfg.ImportBatch, Log: slog.New(phases)})
	if err != nil {
		return nil, fmt.Errorf("adopt: %w", err)
	}
	end := time.Now()
	if !a.OK() {
		return nil, fmt.Errorf("adopt: %d rejected (%v), %d divergences (%v)", len(a.Rejected), firstOf(a.Rejected), len(a.Divergences),
			firstOf(a.Divergences))
	}
	in, ok := phases.at["memberships imported"]
	if !ok {
		return nil, fmt.Errorf("adopt: no memberships imported (its log: %v)", phases.at)
	}
	r.ImportSeconds, r.AdoptSeconds = round3(in.Sub(start).Seconds()), round3(end.Sub(start).Seconds())
	phase := func(from time.Time, to string) (float64, time.Time) {
		t := phases.at[to]
		if t.IsZero() || from.IsZero() {
			return 0, t
		}
		return round3(t.Sub(from).Seconds()), t
	}
	var at time.Time
	r.BridgesSeconds, at = phase(start, "bridges installed")
	r.StageSeconds, at = phase(at, "staged")
	r.NamespacesSeconds, at = phase(at, "imported")
	r.MembersSeconds, _ = phase(at, "memberships imported")
	res.Imported, res.Memberships = a.Namespaces, a.Members
	if a.Members == 0 || a.Imported == 0 {
		return nil, fmt.Errorf("adopt: %d namespaces and %d memberships imported", a.Imported, a.Members)
	}

	// The floor: the same rows into trigger-less copies with the same indexes, in one transaction.
	if _, err := conn.Exec(ctx, `create schema lifecycle_bench;
		create table lifecycle_bench.adoption_floor (like lifecycle.namespaces including all);
		create table lifecycle_bench.adoption_members_floor (like lifecycle.namespace_members including all); checkpoint`); err != nil {
		return nil, err
	}
	start = time.Now()
	var floorRows int64
	if err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		for _, q := range []string{`insert into lifecycle_bench.adoption_floor select * from lifecycle.namespaces`,
			`insert into lifecycle_bench.adoption_members_floor select * from lifecycle.namespace_members`} {
			tag, err := tx.Exec(ctx, q)
			if err != nil {
				return err
			}
			floorRows += tag.RowsAffected()
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	r.FloorSeconds = round3(time.Since(start).Seconds())
	if floorRows < a.Namespaces+a.Members {
		return nil, fmt.Errorf("floor: %d rows, want %d namespaces and %d memberships", floorRows, a.Namespaces, a.Members)
	}

	if err := e.adoptionStatements(ctx, cfg, r, res.Calls); err != nil {
		return nil, err
	}
	return r, conn.Close(ctx)
}

// adoptionStatements runs each pair alternating, call by call (which side goes first alternating
// too), as lifecycle_app, on projects whose namespace and ancestors are active, in groups.
func (e *env) adoptionStatements(ctx context.Context, cfg *pgx.ConnConfig, r *AdoptionRound, calls int) error {
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	if _, err := c.Exec(ctx, `set role lifecycle_app`); err != nil {
		return err
	}
	var targets []adoptionTarget
	rows, err := c.Query(ctx, `
		select p.id, p.namespace_id, p.project_namespace_id
		  from legacy.projects p
		  join legacy.namespaces g on g.id = p.namespace_id and g.type = 'Group'
		 where not p.archived and not coalesce(p.pending_delete, false) and p.marked_for_deletion_at is null
		   and (select s.effective_state from lifecycle.namespace_effective_state(p.project_namespace_id) s) = 'active'
		 order by hashint8(p.id) limit $1`, calls)
	if err != nil {
		return err
	}
	var t adoptionTarget
	if _, err := pgx.ForEachRow(rows, []any{&t.project, &t.group, &t.ns}, func() error {
		targets = append(targets, t)
		return nil
	}); err != nil {
		return err
	}
	if len(targets) < 10 {
		return fmt.Errorf("statements: %d active projects in groups to measure on", len(targets))
	}
	rnd := rand.New(rand.NewPCG(7, 8))
	lat := make([][]time.Duration, len(adoptionPairs))
	base := make([][]time.Duration, len(adoptionPairs))
	timed := func(sql string, args []any) (time.Duration, error) {
		start := time.Now()
		_, err := c.Exec(ctx, sql, args...)
		return time.Since(start), err
	}
	for i := range calls {
		t := targets[rnd.IntN(len(targets))]
		// The UPDATEs: both sides on the same rows, which goes first alternating.
		for k, p := range adoptionPairs[:2] {
			type call struct {
				sql  string
				args []any
			}
			order := []call{{p.sql, p.args(t)}, {p.baseSQL, p.baseArgs(t)}}
			if i%2 == 1 {
				order[0], order[1] = order[1], order[0]
			}
			var d [2]time.Duration
			for j, q := range order {
				var err error
				if d[j], err = timed(q.sql, q.args); err != nil {
					return fmt.Errorf("%s: %w", p.name, err)
				}
			}
			if i%2 == 1 {
				d[0], d[1] = d[1], d[0]
			}
			lat[k], base[k] = append(lat[k], d[0]), append(base[k], d[1])
		}
		// Archive and unarchive of one project through GitLab's column, then through the API (the
		// API first every other call), leaving it active.
		sides := []struct {
			out  [][]time.Duration
			call func(k int) (string, []any)
		}{
			{lat, func(k int) (string, []any) { return adoptionPairs[k].sql, adoptionPairs[k].args(t) }},
			{base, func(k int) (string, []any) { return adoptionPairs[k].baseSQL, adoptionPairs[k].baseArgs(t) }},
		}
		if i%2 == 1 {
			sides[0], sides[1] = sides[1], sides[0]
		}
		for _, side := range sides {
			for k := 2; k < len(adoptionPairs); k++ {
				d, err := timed(side.call(k))
				if err != nil {
					return fmt.Errorf("%s: %w", adoptionPairs[k].name, err)
				}
				side.out[k] = append(side.out[k], d)
			}
		}
	}
	var state int
	if err := c.QueryRow(ctx, `select count(*) filter (where n.state <> 0) from lifecycle.namespaces n
		where n.id = any ($1)`, func() []int64 {
		var ids []int64
		for _, t := range targets {
			ids = append(ids, t.ns)
		}
		return ids
	}()).Scan(&state); err != nil {
		return err
	}
	var legacyArchived int
	if err := c.QueryRow(ctx, `select count(*) from legacy.projects where archived and id = any ($1)`, func() []int64 {
		var ids []int64
		for _, t := range targets {
			ids = append(ids, t.project)
		}
		return ids
	}()).Scan(&legacyArchived); err != nil {
		return err
	}
	if state != 0 || legacyArchived != 0 {
		return fmt.Errorf("statements: afterwards %d of the projects are not active, %d archived in GitLab's table", state, legacyArchived)
	}
	for k, p := range adoptionPairs {
		r.Latencies[p.name], r.Baselines[p.name] = summarize(lat[k]), summarize(base[k])
	}
	return nil
}

func firstOf[T any](v []T) []T { return v[:min(len(v), 3)] }

// renderAdoption renders the scenario.
func renderAdoption(b io.Writer, a *AdoptionResult) {
	fmt.Fprintf(b, "\n### Adoption of GitLab's tables (issue 26)\n\n")
	fmt.Fprintf(b, "GitLab's own table definitions filled with %s namespaces (the demo's population: %s adopted), %s members rows "+
		"(%s memberships imported); %d round(s), a database each, %d calls per statement and side per round, alternating.\n\n",
		thousands(a.Namespaces), thousands(int(a.Imported)), thousands(int(a.MemberRows)), thousands(int(a.Memberships)), len(a.Rounds), a.Calls)
	fmt.Fprintf(b, "| what | seconds (median) | floor seconds | share of the floor's rate | rounds |\n| --- | --- | --- | --- | --- |\n")
	var rounds []string
	for _, r := range a.Rounds {
		rounds = append(rounds, fmt.Sprintf("%.2f / %.2f", r.ImportSeconds, r.FloorSeconds))
	}
	fmt.Fprintf(b, "| adoption's import with memberships (cmd/adopt until its memberships are in) vs INSERT … SELECT of the same rows | %.2f | %.2f | %.1f%% | %s |\n\n",
		a.ImportSeconds, a.FloorSeconds, 100*a.ImportRatio, strings.Join(rounds, ", "))
	fmt.Fprintf(b, "| GitLab's statement, as its role | p50 ms | baseline | baseline p50 ms | ratio |\n| --- | --- | --- | --- | --- |\n")
	for _, s := range a.Statements {
		fmt.Fprintf(b, "| %s | %.3f | %s | %.3f | %.2f× |\n", s.Name, s.P50, s.Baseline, s.BaseP50, s.Ratio)
	}
	fmt.Fprintln(b)
}
