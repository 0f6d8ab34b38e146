// Command migrate installs or upgrades the lifecycle schema in the database named by DATABASE_URL
// (or the libpq PG* variables).
//
//	migrate            apply every pending migration
//	migrate -to N      move up or down to version N (0 removes everything but the version table)
//	migrate -status    print the current and latest versions
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle"
)

func main() {
	os.Exit(run())
}

func run() int {
	to := flag.Int("to", -1, "target version (default: latest)")
	status := flag.Bool("status", false, "print the current and latest schema versions and exit")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// An empty string lets pgx fall back to the libpq PG* variables.
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Error("connect", "err", err)
		return 2
	}
	defer conn.Close(context.Background())

	if *status {
		current, latest, err := nslifecycle.SchemaVersion(ctx, conn)
		if err != nil {
			log.Error("status", "err", err)
			return 1
		}
		fmt.Printf("current %d latest %d\n", current, latest)
		return 0
	}

	before, latest, err := nslifecycle.SchemaVersion(ctx, conn)
	if err != nil {
		log.Error("status", "err", err)
		return 1
	}
	target := latest
	if *to >= 0 {
		target = int32(*to)
	}
	if err := nslifecycle.MigrateTo(ctx, conn, target); err != nil {
		log.Error("migrate", "err", err)
		return 1
	}
	log.Info("migrated", "from", before, "to", target, "database", conn.Config().Database)
	return 0
}
