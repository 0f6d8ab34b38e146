// Command stress tries to break the product's promises (make stress): clients fire random
// lifecycle operations at a random tree while the syncer is SIGKILLed and restarted and, with
// -restart-command, PostgreSQL is restarted once; then it checks that no invariant broke, that
// the history rows match the changes the clients saw, and that the audit caught up with the
// history. Bounded by -duration; loopback only. Exit 0 when every promise held, 1 when not, 2
// when it could not run.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"syscall"
	"time"

	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
	"github.com/nslifecycle/nslifecycle/internal/logging"
)

func main() {
	cfg := Config{DatabaseURL: os.Getenv("DATABASE_URL")}
	restart := flag.String("restart-command", "", "a command that restarts PostgreSQL once, mid-run (e.g. scripts/db.sh restart-immediate)")
	flag.IntVar(&cfg.Clients, "clients", 8, "concurrent clients")
	flag.DurationVar(&cfg.Duration, "duration", time.Minute, "how long the clients fire")
	flag.IntVar(&cfg.Namespaces, "namespaces", 300, "size of the random tree")
	flag.StringVar(&cfg.SyncerBinary, "syncer", "", "the syncer binary to run and kill")
	flag.StringVar(&cfg.Slot, "slot", "nslifecycle_stress", "the syncer's replication slot")
	flag.DurationVar(&cfg.KillEvery, "kill-every", 5*time.Second, "SIGKILL and restart the syncer this often")
	var version bool
	buildinfo.Flag(flag.CommandLine, &version)
	flag.Parse()
	if version {
		fmt.Println(buildinfo.Describe("stress"))
		return
	}
	log, _ := logging.New(os.Stderr, "text", "info")
	cfg.Log = log
	if cfg.SyncerBinary == "" || cfg.Clients < 1 || cfg.Duration <= 0 || cfg.Namespaces < 10 {
		log.Error("need -syncer, -clients >= 1, -duration > 0, -namespaces >= 10")
		os.Exit(2)
	}
	if *restart != "" {
		cfg.RestartPostgres = func() error { return exec.Command("sh", "-c", *restart).Run() }
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	rep, err := Run(ctx, cfg)
	if rep != nil {
		print(rep)
	}
	if err != nil {
		log.Error("stress could not finish", "err", err)
		os.Exit(2)
	}
	if f := rep.Failures(); len(f) > 0 {
		for _, s := range f {
			log.Error("promise broken", "what", s)
		}
		os.Exit(1)
	}
	fmt.Println("every promise held")
}

func print(r *Report) {
	fmt.Printf("clients %d, duration %s, tree of %d namespaces\n", r.Clients, r.Duration, r.Namespaces)
	fmt.Printf("operations %d: %d state changes seen by the clients, %d calls cut off by a restart\n", r.Operations, r.Changes, r.Ambiguous)
	codes := make([]string, 0, len(r.Refusals))
	for c := range r.Refusals {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		fmt.Printf("  refused %s: %d\n", c, r.Refusals[c])
	}
	fmt.Printf("syncer kills %d, PostgreSQL restarts %d\n", r.SyncerKills, r.PGRestarts)
	fmt.Printf("history rows %d, state changes counted by the gate %d, audit rows for them %d\n", r.History, r.Counted, r.Audited)
	fmt.Printf("invariant violations %d, effective_states rows wrong %d, undocumented errors %d\n", len(r.Violations), r.EffectiveStatesWrong, len(r.Other))
}
