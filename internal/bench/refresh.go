package bench

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// RefreshRun is one way of computing every namespace's effective state at once, timed over the
// rounds (median).
type RefreshRun struct {
	Namespaces int       `json:"namespaces"`
	Method     string    `json:"method"`
	Seconds    float64   `json:"seconds"`
	Rounds     []float64 `json:"seconds_rounds"`
}

// The methods of the refresh scenario.
const (
	RefreshConcurrently = "refresh_concurrently" // the product's: readers never blocked
	RefreshPlain        = "refresh_plain"        // baseline: blocks readers for the whole refresh
	RefreshQueryOnly    = "query_only"           // baseline: the view's query alone, nothing written
)

// runRefresh times a full REFRESH … CONCURRENTLY of lifecycle.effective_states (through the
// function the syncer calls) against a plain refresh and against running the view's query alone.
func runRefresh(ctx context.Context, e *env) error {
	var def string
	if err := e.pool.QueryRow(ctx, `select pg_get_viewdef('lifecycle.effective_states'::regclass)`).Scan(&def); err != nil {
		return err
	}
	methods := []struct{ name, sql string }{
		// The view is empty after the migrations: the first concurrent refresh needs it populated.
		{RefreshPlain, `refresh materialized view lifecycle.effective_states`},
		{RefreshConcurrently, `select lifecycle.effective_states_refresh()`},
		{RefreshQueryOnly, fmt.Sprintf(`select count(*) from (%s) v`, strings.TrimSuffix(strings.TrimSpace(def), ";"))},
	}
	if err := e.settle(ctx); err != nil {
		return err
	}
	runs := map[string]*RefreshRun{}
	for round := range e.cfg.Rounds {
		for _, m := range methods {
			start := time.Now()
			if _, err := e.pool.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("%s: %w", m.name, err)
			}
			s := time.Since(start).Seconds()
			if runs[m.name] == nil {
				runs[m.name] = &RefreshRun{Namespaces: e.data.Namespaces, Method: m.name}
			}
			runs[m.name].Rounds = append(runs[m.name].Rounds, round3(s))
			e.log.Info("refresh", "method", m.name, "round", round+1, "seconds", round3(s))
		}
	}
	var rows, namespaces int
	if err := e.pool.QueryRow(ctx, `select (select count(*) from lifecycle.effective_states), (select count(*) from lifecycle.namespaces)`).
		Scan(&rows, &namespaces); err != nil {
		return err
	}
	if rows != namespaces {
		return fmt.Errorf("the refreshed view has %d rows for %d namespaces", rows, namespaces)
	}
	for _, m := range methods {
		r := runs[m.name]
		r.Seconds = round3(median(r.Rounds))
		e.res.Refresh = append(e.res.Refresh, *r)
	}
	return nil
}
