// Command migrate installs or upgrades the lifecycle schema in the database named by DATABASE_URL
// (or the libpq PG* variables).
//
//	migrate            apply every pending migration
//	migrate -to N      move up or down to version N (0 removes everything but the version table)
//	migrate -status    print the database's version and release, this build's, and what an upgrade would do
//	migrate -render D  write every migration's up and down SQL, as the database receives it, into D
//
// Every step waits at most -lock-timeout for a lock and is retried when it could not get one
// (docs/operations.md, Upgrades).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
	"github.com/nslifecycle/nslifecycle/internal/logging"
	"github.com/nslifecycle/nslifecycle/internal/migration"
)

type options struct {
	version             bool
	to                  int
	status              bool
	render              string
	lock                nslifecycle.MigrateOptions
	logFormat, logLevel string
}

func flagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.IntVar(&o.to, "to", -1, "target version (default: latest)")
	fs.BoolVar(&o.status, "status", false, "print the database's schema version and release, this build's, and what migrating would do, and exit")
	fs.StringVar(&o.render, "render", "", "write each migration's up and down SQL, templates filled in, into this directory (NNN_name.up.sql, .down.sql) and exit; needs no database")
	fs.DurationVar(&o.lock.LockTimeout, "lock-timeout", nslifecycle.DefaultLockTimeout, "the longest a client's call waits behind a lock a migration step asks for (the step's lock_timeout is four fifths of it)")
	fs.IntVar(&o.lock.Attempts, "attempts", 10, "tries of a step that could not get a lock within -lock-timeout (or was a deadlock's victim) before the run fails")
	fs.DurationVar(&o.lock.Backoff, "backoff", time.Second, "pause after a step's first failed try, doubled after each (at most 10s)")
	fs.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	buildinfo.Flag(fs, &o.version)
	return fs
}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	var o options
	fs := flagSet(&o)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.version {
		fmt.Fprintln(os.Stdout, buildinfo.Describe("migrate"))
		return 0
	}
	log, err := logging.New(stderr, o.logFormat, o.logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "migrate: %v\n", err)
		return 2
	}
	o.lock.Log = log
	if o.render != "" {
		if err := nslifecycle.RenderMigrations(o.render); err != nil {
			log.Error("render", "err", err)
			return 1
		}
		return 0
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// An empty string lets pgx fall back to the libpq PG* variables.
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Error("connect", "err", err)
		return 2
	}
	defer conn.Close(context.Background())

	before, latest, err := nslifecycle.SchemaVersion(ctx, conn)
	if err != nil {
		log.Error("status", "err", err)
		return 1
	}
	if o.status {
		if err := printStatus(os.Stdout, before); err != nil {
			log.Error("status", "err", err)
			return 1
		}
		return 0
	}
	target := latest
	if o.to >= 0 {
		target = int32(o.to)
	}
	start := time.Now()
	retries, err := nslifecycle.MigrateToWith(ctx, conn, target, o.lock)
	if err != nil {
		log.Error("migrate", "err", err, "retries", retries)
		return 1
	}
	log.Info("migrated", "from", before, "to", target, "database", conn.Config().Database,
		"took", time.Since(start).Round(time.Millisecond).String(), "retries", retries)
	return 0
}

// printStatus says where the database is, where this build would take it, and what it would run.
func printStatus(w io.Writer, current int32) error {
	set, err := migration.Load(migration.Migrations())
	if err != nil {
		return err
	}
	release := func(v int32) string {
		if r := set.ReleaseOf(v); r != "" {
			return "release " + r
		}
		if v > set.Baseline() {
			return "unreleased"
		}
		return "before the first release"
	}
	switch {
	case current == 0:
		fmt.Fprintf(w, "database: schema version 0 (nothing installed)\n")
	default:
		fmt.Fprintf(w, "database: schema version %d (%s)\n", current, release(current))
	}
	fmt.Fprintf(w, "this build: %s\n", buildinfo.Describe("migrate"))
	switch {
	case current > 0 && current < set.Baseline():
		fmt.Fprintf(w, "refused: %v\n", set.Refusal(current))
	case current > set.Latest():
		fmt.Fprintf(w, "refused: the database is newer than this build (%d > %d)\n", current, set.Latest())
	case current == set.Latest():
		fmt.Fprintf(w, "up to date\n")
	case current == 0:
		fmt.Fprintf(w, "to apply: the baseline %s (schema %d, one step)", set.Steps[0].Name, set.Baseline())
		for v := set.Baseline() + 1; v <= set.Latest(); v++ {
			fmt.Fprintf(w, ", %s", set.Step(v).Name)
		}
		fmt.Fprintln(w)
	default:
		fmt.Fprintf(w, "to apply:")
		for v := current + 1; v <= set.Latest(); v++ {
			fmt.Fprintf(w, " %s", set.Step(v).Name)
		}
		fmt.Fprintln(w)
	}
	return nil
}
