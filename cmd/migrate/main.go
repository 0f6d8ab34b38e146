// Command migrate installs or upgrades the lifecycle schema in the database named by DATABASE_URL
// (or the libpq PG* variables).
//
//	migrate            apply every pending migration
//	migrate -to N      move up or down to version N (0 removes everything but the version table)
//	migrate -status    print the current and latest versions
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
	"github.com/nslifecycle/nslifecycle/internal/logging"
)

type options struct {
	to                  int
	status              bool
	render              string
	lock                nslifecycle.MigrateOptions
	logFormat, logLevel string
}

func flagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.IntVar(&o.to, "to", -1, "target version (default: latest)")
	fs.BoolVar(&o.status, "status", false, "print the current and latest schema versions and exit")
	fs.StringVar(&o.render, "render", "", "write each migration's up and down SQL, templates filled in, into this directory (NNN_name.up.sql, .down.sql) and exit; needs no database")
	fs.DurationVar(&o.lock.LockTimeout, "lock-timeout", nslifecycle.DefaultLockTimeout, "the longest a client's call waits behind a lock a migration step asks for (the step's lock_timeout is four fifths of it)")
	fs.IntVar(&o.lock.Attempts, "attempts", 10, "tries of a step that could not get a lock within -lock-timeout (or was a deadlock's victim) before the run fails")
	fs.DurationVar(&o.lock.Backoff, "backoff", time.Second, "pause after a step's first failed try, doubled after each (at most 10s)")
	fs.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
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
		fmt.Printf("current %d latest %d\n", before, latest)
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
