package scenario

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// connect opens one connection with an empty search_path: every name the bench uses is qualified.
func connect(ctx context.Context, url string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["search_path"] = ""
	cfg.RuntimeParams["application_name"] = "nslifecycle-bench"
	return pgx.ConnectConfig(ctx, cfg)
}

// drive runs op as fast as it goes on `clients` connections of their own for duration d, and
// returns the throughput and every call's latency. The connections are opened before the clock
// starts. The first error stops the run.
func drive(ctx context.Context, url string, clients int, d time.Duration,
	op func(ctx context.Context, conn *pgx.Conn, client int, r *rand.Rand) error) (*pgbenchResult, error) {
	conns := make([]*pgx.Conn, clients)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close(context.Background())
			}
		}
	}()
	for i := range conns {
		c, err := connect(ctx, url)
		if err != nil {
			return nil, err
		}
		conns[i] = c
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), uint64(start.UnixNano())))
			for ctx.Err() == nil && time.Now().Before(deadline) {
				t0 := time.Now()
				if err := op(ctx, conns[i], i, r); err != nil {
					cancel(err)
					return
				}
				lat[i] = append(lat[i], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	res := &pgbenchResult{}
	for _, l := range lat {
		res.latencies = append(res.latencies, l...)
	}
	res.tps = float64(len(res.latencies)) / elapsed.Seconds()
	return res, nil
}
