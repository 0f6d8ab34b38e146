// Command demo-adopt walks docs/adoption.md end to end (make demo-adopt): on the database named by
// DATABASE_URL (freshly migrated, connected as a superuser), GitLab's own tables
// (internal/adopt/gitlab/structure.sql) with a generated population are bridged, staged, imported,
// backfilled, checked and cut over, with the syncer (slot
// -slot) running beside it. Exit 0 when every proof held, 1 when one did not, 2 when it could not
// run.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
	"github.com/nslifecycle/nslifecycle/internal/logging"
)

func main() {
	cfg := adopt.Config{DatabaseURL: os.Getenv("DATABASE_URL"), Out: os.Stdout}
	namespaces := int64(20000)
	if v := os.Getenv("ADOPT_NAMESPACES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "ADOPT_NAMESPACES=%q: %v\n", v, err)
			os.Exit(2)
		}
		namespaces = n
	}
	flag.Int64Var(&cfg.Namespaces, "namespaces", namespaces, "size of the legacy population (env ADOPT_NAMESPACES)")
	flag.IntVar(&cfg.BatchSize, "batch-size", 10000, "rows per committed import batch")
	flag.StringVar(&cfg.Slot, "slot", os.Getenv("LIFECYCLE_SLOT"), "the running syncer's replication slot (env LIFECYCLE_SLOT)")
	flag.DurationVar(&cfg.CatchUpTimeout, "catch-up-timeout", 5*time.Minute, "how long to wait for the syncer")
	var version bool
	buildinfo.Flag(flag.CommandLine, &version)
	flag.Parse()
	if version {
		fmt.Println(buildinfo.Describe("demo-adopt"))
		return
	}
	log, _ := logging.New(os.Stderr, "text", "info")
	if cfg.DatabaseURL == "" || cfg.Slot == "" {
		log.Error("need DATABASE_URL and -slot (or LIFECYCLE_SLOT)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	rep, err := adopt.Run(ctx, cfg)
	if err != nil {
		log.Error("demo-adopt could not finish", "err", err)
		os.Exit(2)
	}
	if f := rep.Failures(); len(f) > 0 {
		for _, s := range f {
			log.Error("did not hold", "what", s)
		}
		os.Exit(1)
	}
	fmt.Println("\nevery check held")
}
