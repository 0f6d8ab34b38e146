package scenario

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/migration"
)

// AdoptCheckResult is the adoption's check (docs/adoption.md, step 6) on GitLab's own tables: a
// GitLab of the run's size (internal/adopt's population, as make demo-adopt makes it, with the
// adoption scenario's members rows) adopted by cmd/adopt's preset into a freshly migrated database
// (bridges, import, memberships, backfill), then lifecycle.legacy_bridge_check() (states, tree and
// memberships) and lifecycle.check_invariants(), each timed round by round.
type AdoptCheckResult struct {
	Legacy        int64   `json:"legacy_namespaces"` // the population asked for
	Namespaces    int64   `json:"namespaces"`        // the lifecycle's afterwards
	Members       int64   `json:"members"`           // GitLab's members rows (adoptionMembers)
	Memberships   int64   `json:"memberships"`       // lifecycle.namespace_members' rows afterwards
	Rejected      int     `json:"rejected"`          // staged rows the import refused (the population's odd ones and those below them)
	AdoptSeconds  float64 `json:"adopt_seconds"`     // populate excluded: bridges, stage, import, memberships, backfill, checks
	CheckRows     int64   `json:"check_rows"`        // legacy_bridge_check's rows: the rejected rows' legacy rows, none else
	InvariantRows int64   `json:"invariant_rows"`

	Rounds []AdoptCheckRound `json:"rounds"`
	// Medians over the rounds.
	CheckSeconds      float64 `json:"check_seconds"`
	InvariantsSeconds float64 `json:"invariants_seconds"`
}

// AdoptCheckRound is one timing of each check, with the machine's load average (1 minute, from
// /proc/loadavg where the bench runs: the database's machine when it runs there) when the check
// started: on a machine other jobs share, the wall time follows it.
type AdoptCheckRound struct {
	CheckSeconds      float64 `json:"check_seconds"`
	InvariantsSeconds float64 `json:"invariants_seconds"`
	LoadAverage       float64 `json:"load_average,omitempty"`
}

// runAdoptCheck adopts a generated GitLab in a database of its own (dropped afterwards) and times
// the checks. It fails when a check lists what the adoption did not leave: legacy_bridge_check may
// list only the legacy rows of the rejected rows, check_invariants nothing.
//
// With -reuse the database is kept afterwards, and one a previous run kept with an adoption of the
// same size is migrated to the newest version and measured again, without populating and adopting
// anew (a 1M adoption takes 20-40 minutes on a loaded 2-core machine); what the adoption itself
// left is then the earlier run's, and AdoptSeconds stays 0.
func runAdoptCheck(ctx context.Context, e *env) error {
	var bench string
	if err := e.pool.QueryRow(ctx, `select current_database()`).Scan(&bench); err != nil {
		return err
	}
	name := bench + "_adopt"
	db := pgx.Identifier{name}.Sanitize()
	// The mark a complete adoption leaves on its database: a kept one without it (a run cut short)
	// is made again.
	mark := fmt.Sprintf("adopt_check: %d legacy namespaces adopted", e.cfg.Namespaces)
	drop := func() error {
		_, err := e.pool.Exec(context.WithoutCancel(ctx), `drop database if exists `+db+` with (force)`)
		return err
	}
	reused := false
	if e.cfg.Reuse {
		err := e.pool.QueryRow(ctx, `select coalesce(shobj_description(oid, 'pg_database'), '') = $1 from pg_database where datname = $2`,
			mark, name).Scan(&reused)
		if err != nil && err != pgx.ErrNoRows {
			return err
		}
	}
	if !reused {
		if err := drop(); err != nil {
			return err
		}
		if _, err := e.pool.Exec(ctx, `create database `+db); err != nil {
			return err
		}
	}
	if !e.cfg.Reuse {
		defer drop()
	}
	cfg, err := pgx.ParseConfig(e.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	cfg.Database = name
	cfg.RuntimeParams["application_name"] = "nslifecycle-bench"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := migration.To(ctx, conn, migration.Latest, migration.Options{}); err != nil {
		return err
	}
	res := &AdoptCheckResult{Legacy: int64(e.cfg.Namespaces)}
	if reused {
		e.log.Info("adopt_check: reusing the adoption a previous run kept", "database", name)
		if err := conn.QueryRow(ctx, `select (select count(*) from legacy.members), (select count(*) from lifecycle.namespaces),
			(select count(*) from lifecycle.namespace_imports where reject_code is not null)`).Scan(&res.Members, &res.Namespaces, &res.Rejected); err != nil {
			return err
		}
	} else if err := adoptCheckPopulate(ctx, e, conn, res); err != nil {
		return err
	}
	if e.cfg.Reuse && !reused {
		if _, err := conn.Exec(ctx, `comment on database `+db+` is `+quoteLiteral(mark)); err != nil {
			return err
		}
	}
	if _, err := conn.Exec(ctx, `analyze`); err != nil {
		return err
	}
	if err := conn.QueryRow(ctx, `select count(*) from lifecycle.namespace_members`).Scan(&res.Memberships); err != nil {
		return err
	}
	if res.Memberships == 0 {
		return fmt.Errorf("after the adoption: no memberships (of %d members rows) for the check to compare", res.Members)
	}
	var checks, invariants []float64
	for round := range e.cfg.Rounds {
		r := AdoptCheckRound{LoadAverage: loadAverage()}
		start := time.Now()
		if err := conn.QueryRow(ctx, `select count(*) from lifecycle.legacy_bridge_check()`).Scan(&res.CheckRows); err != nil {
			return err
		}
		r.CheckSeconds = round3(time.Since(start).Seconds())
		start = time.Now()
		if err := conn.QueryRow(ctx, `select count(*) from lifecycle.check_invariants()`).Scan(&res.InvariantRows); err != nil {
			return err
		}
		r.InvariantsSeconds = round3(time.Since(start).Seconds())
		res.Rounds = append(res.Rounds, r)
		checks, invariants = append(checks, r.CheckSeconds), append(invariants, r.InvariantsSeconds)
		e.log.Info("adopt_check", "round", round+1, "namespaces", res.Namespaces, "check_seconds", r.CheckSeconds, "load_average", r.LoadAverage,
			"memberships", res.Memberships, "check_rows", res.CheckRows, "invariants_seconds", r.InvariantsSeconds)
	}
	// Every row the check lists is a legacy row of a rejected namespace (a row without its
	// namespace, "staged, rejected …"): anything else is a divergence the adoption left.
	var other int64
	if err := conn.QueryRow(ctx, `select count(*) from lifecycle.legacy_bridge_check() c
		where not (c.legacy_says = 'a row' and c.state like 'staged, rejected %')`).Scan(&other); err != nil {
		return err
	}
	if other != 0 || res.InvariantRows != 0 {
		return fmt.Errorf("after the adoption: %d rows of legacy_bridge_check besides the rejected rows', %d of check_invariants", other,
			res.InvariantRows)
	}
	res.CheckSeconds, res.InvariantsSeconds = round3(median(checks)), round3(median(invariants))
	e.res.AdoptCheck = res
	return nil
}

// adoptCheckPopulate fills GitLab's tables (populate.sql and the adoption scenario's members rows)
// and adopts them as cmd/adopt -preset gitlab does.
func adoptCheckPopulate(ctx context.Context, e *env, conn *pgx.Conn, res *AdoptCheckResult) error {
	if err := adopt.LoadGitLabStructure(ctx, conn, "legacy"); err != nil {
		return err
	}
	if err := adopt.PopulateGitLab(ctx, conn, res.Legacy); err != nil {
		return err
	}
	// The memberships the check compares (populate.sql makes no members rows).
	if _, err := conn.Exec(ctx, adoptionMembers); err != nil {
		return err
	}
	if err := conn.QueryRow(ctx, `select count(*) from legacy.members`).Scan(&res.Members); err != nil {
		return err
	}
	start := time.Now()
	a, err := adopt.AdoptGitLab(ctx, conn, adopt.GitLab{Schema: "legacy", ActorID: 1001, OrganizationID: 1, BatchSize: e.cfg.ImportBatch,
		Log: e.log})
	if err != nil {
		return fmt.Errorf("adopt: %w", err)
	}
	res.AdoptSeconds = round3(time.Since(start).Seconds())
	res.Namespaces, res.Rejected = a.Namespaces, len(a.Rejected)
	return nil
}

// quoteLiteral quotes s as a SQL string literal (COMMENT takes no parameter).
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// loadAverage is the 1-minute load average of the machine the bench runs on (0 where /proc/loadavg
// cannot be read).
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0
	}
	return v
}
