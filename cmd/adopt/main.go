// Command adopt adopts an application's existing tables in the database named by DATABASE_URL (or
// the libpq PG* variables), run as the lifecycle schema's owner after cmd/migrate:
//
//	adopt -preset gitlab -schema public -actor-id 1
//
// installs the bridges that keep the lifecycle in step with GitLab's tables in that schema (states,
// tree and memberships; kept
// when installed already as configured), stages the namespaces the lifecycle does not have and
// imports them in committed batches (an interrupted run resumes), imports GitLab's memberships
// quietly, backfills, runs
// lifecycle.legacy_bridge_check() and lifecycle.check_invariants() and prints a summary. Exit
// status: 0 adopted, both checks empty; 1 a step failed; 2 bad flags or no connection; 3 adopted
// but rows were rejected or a check found divergences (listed). docs/adoption.md, "One command".
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
	"github.com/nslifecycle/nslifecycle/internal/logging"
)

type options struct {
	version             bool
	preset, schema      string
	actorID, orgID      int64
	batchSize           int
	logFormat, logLevel string
}

func flagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("adopt", flag.ContinueOnError)
	fs.StringVar(&o.preset, "preset", "", "the application whose tables are adopted: gitlab (required)")
	fs.StringVar(&o.schema, "schema", "public", "the schema holding the application's tables")
	fs.Int64Var(&o.actorID, "actor-id", 0, "the application's user a legacy write naming nobody acts for, and the user written into NOT NULL actor columns (group_deletion_schedules.user_id) for a change made by nobody (required)")
	fs.Int64Var(&o.orgID, "organization-id", 1, "organization_id of the rows the bridges write for namespaces created through the API")
	fs.IntVar(&o.batchSize, "batch-size", 10000, "namespaces per committed import batch")
	fs.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	buildinfo.Flag(fs, &o.version)
	return fs
}

// Exit statuses (docs/operations.md, cmd/adopt).
const (
	exitOK       = 0
	exitFailed   = 1
	exitUsage    = 2
	exitDiverged = 3
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv("DATABASE_URL"), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, databaseURL string, stdout, stderr io.Writer) int {
	var o options
	fs := flagSet(&o)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if o.version {
		fmt.Fprintln(os.Stdout, buildinfo.Describe("adopt"))
		return 0
	}
	log, err := logging.New(stderr, o.logFormat, o.logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "adopt: %v\n", err)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "adopt: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	if o.preset != "gitlab" {
		fmt.Fprintf(stderr, "adopt: -preset gitlab is required (the only preset), not %q\n", o.preset)
		return exitUsage
	}
	if o.actorID < 1 || o.schema == "" || o.batchSize < 1 {
		fmt.Fprintln(stderr, "adopt: -actor-id (a user id, 1 or more), -schema and -batch-size (1 or more) are required")
		return exitUsage
	}

	// An empty string lets pgx fall back to the libpq PG* variables.
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		log.Error("connect", "err", err)
		return exitUsage
	}
	// The import reports each committed batch as a NOTICE; the others (a trigger not there to
	// drop, …) are for debugging.
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		if strings.HasPrefix(n.Message, "import:") {
			log.Info(n.Message)
		} else {
			log.Debug(n.Message)
		}
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		log.Error("connect", "err", err)
		return exitUsage
	}
	defer conn.Close(context.Background())

	start := time.Now()
	a, err := adopt.AdoptGitLab(ctx, conn, adopt.GitLab{Schema: o.schema, ActorID: o.actorID, OrganizationID: o.orgID,
		BatchSize: o.batchSize, Log: log})
	if err != nil {
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			log.Error("interrupted: the committed import batches stay; run again to resume", "err", err)
		} else {
			log.Error("adopt", "err", err)
		}
		return exitFailed
	}
	summary(stdout, o, a, time.Since(start))
	if !a.OK() {
		return exitDiverged
	}
	return exitOK
}

// at most this many rejected rows and divergences are listed (the counts are complete).
const listed = 50

func summary(w io.Writer, o options, a *adopt.Adoption, took time.Duration) {
	bridges := "installed"
	if a.BridgesKept {
		bridges = "kept (installed already as configured)"
	}
	fmt.Fprintf(w, "adopt -preset %s -schema %s: %s\n", o.preset, o.schema, took.Round(time.Millisecond))
	fmt.Fprintf(w, "bridges:      %d state bridges, %d tree bridges, %d members bridge, %s\n", a.StateBridges, a.TreeBridges,
		a.MembersBridges, bridges)
	fmt.Fprintf(w, "staged:       %d namespaces the lifecycle did not have\n", a.Staged)
	fmt.Fprintf(w, "imported:     %d (rejected %d)\n", a.Imported, a.Rejections)
	fmt.Fprintf(w, "memberships:  %d written (skipped %d: no such namespace, or a level the lifecycle has not)\n", a.Members, a.MembersSkipped)
	fmt.Fprintf(w, "backfilled:   %d (refused %d)\n", a.Backfilled, a.BackfillRefused)
	fmt.Fprintf(w, "namespaces:   %d in the lifecycle\n", a.Namespaces)
	fmt.Fprintf(w, "still staged, rejected: %d\n", len(a.Rejected))
	for i, r := range a.Rejected {
		if i == listed {
			fmt.Fprintf(w, "  … and %d more (lifecycle.namespace_imports)\n", len(a.Rejected)-listed)
			break
		}
		fmt.Fprintf(w, "  %d %s %s\n", r.ID, r.Code, r.Reason)
	}
	fmt.Fprintf(w, "divergences:  %d (legacy_bridge_check and check_invariants)\n", len(a.Divergences))
	for i, d := range a.Divergences {
		if i == listed {
			fmt.Fprintf(w, "  … and %d more\n", len(a.Divergences)-listed)
			break
		}
		fmt.Fprintf(w, "  %s: namespace %d: %s\n", d.Check, d.NamespaceID, d.What)
	}
	if a.OK() {
		fmt.Fprintln(w, "adopted: every namespace imported, both checks empty")
	}
}
