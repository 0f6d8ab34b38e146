// Command orgmove moves an organization from one cluster running the product to another, ids,
// states, history, redirects, memberships and webhooks kept (docs/scaling.md, Cells):
//
//	orgmove -from <URL> -to <URL> -path <organization path>
//	orgmove -from <URL> -to <URL> -path <organization path> -cancel
//
// Both URLs name a lifecycle_worker login (docs/operations.md); both clusters are migrated to the
// same release and have id ranges of their own (lifecycle.id_range_set). While it runs, every
// write to the organization on the source is refused (NS011) and reads are served; afterwards
// the target serves it and the source no longer holds it. The work is SQL
// (sql/functions/organization_*.sql); internal/orgmove orders it.
//
// Exit status: 0 moved (or, with -cancel, the mark cleared or nothing to clear); 1 refused or
// failed, nothing changed (the source serves the organization as before); 2 could not begin (bad
// flags, a cluster unreachable); 3 incomplete: the organization is still marked on the source
// (writes refused there), run the same command again to finish (or -cancel, if the target does
// not have it).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
	"github.com/nslifecycle/nslifecycle/internal/logging"
	"github.com/nslifecycle/nslifecycle/internal/orgmove"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

type options struct {
	version             bool
	cfg                 orgmove.Config
	logFormat, logLevel string
}

// flagSet defines the flags. docs/operations.md's table is generated from it (make generate).
func flagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("orgmove", flag.ContinueOnError)
	fs.StringVar(&o.cfg.From, "from", "", "the source cluster's database URL, a lifecycle_worker login (else $ORGMOVE_FROM)")
	fs.StringVar(&o.cfg.To, "to", "", "the target cluster's database URL, a lifecycle_worker login (else $ORGMOVE_TO)")
	fs.StringVar(&o.cfg.Path, "path", "", "the organization's path")
	fs.BoolVar(&o.cfg.Cancel, "cancel", false, "give up a move that failed midway: clear the source's mark, unless the target has the organization")
	fs.DurationVar(&o.cfg.LockTimeout, "lock-timeout", 10*time.Second, "lock_timeout on both clusters: how long a step waits behind other sessions' locks")
	fs.IntVar(&o.cfg.BatchRows, "batch-rows", 5000, "exported rows sent to the target per COPY")
	fs.DurationVar(&o.cfg.DrainTimeout, "drain-timeout", 30*time.Second, "once the organization's writes are refused, wait at most this long for the source's syncer to record its facts and send its webhook deliveries (logged if it has not; 0: do not wait)")
	fs.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	buildinfo.Flag(fs, &o.version)
	return fs
}

func run(args []string, stderr io.Writer) int {
	var o options
	fs := flagSet(&o)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.version {
		fmt.Fprintln(os.Stdout, buildinfo.Describe("orgmove"))
		return 0
	}
	if o.cfg.From == "" {
		o.cfg.From = os.Getenv("ORGMOVE_FROM")
	}
	if o.cfg.To == "" {
		o.cfg.To = os.Getenv("ORGMOVE_TO")
	}
	log, err := logging.New(stderr, o.logFormat, o.logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "orgmove: %v\n", err)
		return 2
	}
	if o.cfg.From == "" || o.cfg.To == "" || o.cfg.Path == "" || fs.NArg() > 0 || o.cfg.LockTimeout < 0 || o.cfg.BatchRows < 1 || o.cfg.DrainTimeout < 0 {
		log.Error("bad flags: -from, -to and -path are required (no other arguments); -lock-timeout and -drain-timeout not negative, -batch-rows at least 1")
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, err = orgmove.Run(ctx, o.cfg, log)
	var setup *orgmove.SetupError
	var refused *orgmove.RefusedError
	var incomplete *orgmove.IncompleteError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &setup):
		log.Error("could not begin; nothing changed", "err", err)
		return 2
	case errors.As(err, &refused):
		log.Error("not moved; the source serves the organization as before", "err", err)
		return 1
	case errors.As(err, &incomplete):
		log.Error("incomplete: the organization is still marked as moving on the source (writes to it refused there); run the same command again", "err", err)
		return 3
	default:
		log.Error("failed", "err", err)
		return 3
	}
}
