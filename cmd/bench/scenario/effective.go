package scenario

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// EffectiveRun is one way of reading a namespace's effective state at one depth: the latency a
// client sees (one connection, prepared statements, one call at a time), the server's own time
// per call (one statement doing every call of the sample, divided by their number), and the
// server's time per call made as a statement of its own, as a client's query is (a PL/pgSQL loop
// over the sample: each call its own executor start, cached plan, no network).
type EffectiveRun struct {
	Depth         int     `json:"depth"`
	Method        string  `json:"method"`
	Latency       Latency `json:"latency"`
	MeanMS        float64 `json:"mean_ms"`
	ServerUSPerOp float64 `json:"server_us_per_call"`
	LoopUSPerCall float64 `json:"loop_us_per_call"`
}

// The methods of the effective-state scenario.
const (
	EffectiveFunction = "function"      // lifecycle.namespace_effective_state: fresh, O(depth)
	EffectivePK       = "primary_key"   // baseline: the namespace's own row by primary key
	EffectiveCTE      = "recursive_cte" // baseline: the same answer by a recursive CTE up parent_id
	EffectiveView     = "view"          // lifecycle.effective_states by its unique index (may lag)
)

var effectiveDepths = []int{2, 5, 10, 20}

// effectiveQueries answer for one namespace ($1): what each method returns is the effective state
// (the primary key only the own state). The recursive CTE walks up parent_id computing the same
// nearest own state and path-wide flags as the function.
// Every method but the primary key returns the whole answer the function gives (the effective
// state, where it comes from and the three path-wide flags), as one text so nothing is pruned.
const (
	effectiveColumns = `concat_ws(',', e.effective_state, e.inherited_from_namespace_id, e.self_or_ancestor_archived,
		e.self_or_ancestor_deletion_scheduled, e.read_only)`
	// The recursive CTE walks up parent_id and folds the path as the function does.
	effectiveCTE = `with recursive up(id, parent_id, state, level) as (
		  select n.id, n.parent_id, n.state, 0 from lifecycle.namespaces n where n.id = %s
		  union all
		  select p.id, p.parent_id, p.state, up.level + 1 from up join lifecycle.namespaces p on p.id = up.parent_id)
		select concat_ws(',', coalesce((array_agg(s.name order by up.level) filter (where up.state <> 0))[1], 'active'),
		       nullif((array_agg(up.id order by up.level) filter (where up.state <> 0))[1], %s),
		       bool_or(s.name = 'archived'), bool_or(s.pending_deletion), bool_or(s.read_only)) as answer
		  from up join lifecycle.states s on s.code = up.state`
)

// effectiveQueries: each method for one namespace ($1), and for every namespace of an array in one
// statement (the server's own time).
var effectiveQueries = []struct{ method, one, many string }{
	{EffectiveFunction,
		`select ` + effectiveColumns + ` from lifecycle.namespace_effective_state($1) e`,
		`select count(` + effectiveColumns + `) from unnest($1::bigint[]) i(id) cross join lateral lifecycle.namespace_effective_state(i.id) e`},
	{EffectivePK,
		`select state::text from lifecycle.namespaces where id = $1`,
		`select count(n.state) from unnest($1::bigint[]) i(id) cross join lateral (select n.state from lifecycle.namespaces n where n.id = i.id) n`},
	{EffectiveCTE,
		fmt.Sprintf(effectiveCTE, "$1", "$1"),
		`select count(x.answer) from unnest($1::bigint[]) i(id) cross join lateral (` + fmt.Sprintf(effectiveCTE, "i.id", "i.id") + `) x`},
	{EffectiveView,
		`select ` + effectiveColumns + ` from lifecycle.effective_states e where e.namespace_id = $1`,
		`select count(` + effectiveColumns + `) from unnest($1::bigint[]) i(id) join lifecycle.effective_states e on e.namespace_id = i.id`},
}

const effectiveSample = 200

// runEffectiveState reads the effective state of namespaces at depths 1, 5, 10 and 20 by the
// function, a primary-key lookup, a recursive CTE and the materialized view, interleaved, the
// rounds pooled. The view is refreshed first so it answers for every namespace.
func runEffectiveState(ctx context.Context, e *env) error {
	if _, err := e.pool.Exec(ctx, `select lifecycle.effective_states_refresh()`); err != nil {
		return err
	}
	conn, err := e.settledConn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	// The loops: one PL/pgSQL function per method, its query static (planned once, cached).
	for _, q := range effectiveQueries {
		if _, err := e.pool.Exec(ctx, fmt.Sprintf(`create or replace function lifecycle_bench.effective_loop_%s(ids bigint[]) returns float8
			language plpgsql as $f$
			declare i bigint; x text; t0 timestamptz := clock_timestamp();
			begin
			  foreach i in array ids loop x := (%s); end loop;
			  return extract(epoch from clock_timestamp() - t0) * 1e6 / cardinality(ids);
			end $f$`, q.method, strings.ReplaceAll(q.one, "$1", "i"))); err != nil {
			return fmt.Errorf("%s loop: %w", q.method, err)
		}
	}
	calls := max(200, int(200*e.cfg.Duration.Seconds())) // per depth, method and round
	type key struct {
		depth  int
		method string
	}
	loop := map[key][]float64{}
	lat := map[key][]time.Duration{}
	server := map[key][]float64{}
	for round := range e.cfg.Rounds {
		for _, d := range effectiveDepths {
			rows, err := conn.Query(ctx, `select id from lifecycle.namespaces where cardinality(traversal_ids) = $1
				order by random() limit $2`, d, effectiveSample)
			if err != nil {
				return err
			}
			ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			if err != nil {
				return err
			}
			if len(ids) == 0 {
				return fmt.Errorf("no namespace at depth %d", d)
			}
			for _, q := range effectiveQueries {
				k := key{d, q.method}
				var answer string
				// Untimed: the first call plans the statement and warms the caches.
				if err := conn.QueryRow(ctx, q.one, ids[0]).Scan(&answer); err != nil {
					return fmt.Errorf("%s at depth %d: %w", q.method, d, err)
				}
				for i := range calls {
					t0 := time.Now()
					if err := conn.QueryRow(ctx, q.one, ids[i%len(ids)]).Scan(&answer); err != nil {
						return fmt.Errorf("%s at depth %d: %w", q.method, d, err)
					}
					lat[k] = append(lat[k], time.Since(t0))
				}
				// The server's time: every call of the sample, ten times over, in one statement.
				many := make([]int64, 0, 10*len(ids))
				for range 10 {
					many = append(many, ids...)
				}
				var n int
				if err := conn.QueryRow(ctx, q.many, ids).Scan(&n); err != nil { // untimed, as above
					return fmt.Errorf("%s at depth %d, in one statement: %w", q.method, d, err)
				}
				t0 := time.Now()
				if err := conn.QueryRow(ctx, q.many, many).Scan(&n); err != nil {
					return fmt.Errorf("%s at depth %d, in one statement: %w", q.method, d, err)
				}
				server[k] = append(server[k], float64(time.Since(t0).Microseconds())/float64(len(many)))
				if n != len(many) {
					return fmt.Errorf("%s at depth %d answered for %d of %d namespaces", q.method, d, n, len(many))
				}
				// And call by call, each a statement of its own (the first pass untimed, as above).
				var us float64
				for range 2 {
					if err := conn.QueryRow(ctx, fmt.Sprintf(`select lifecycle_bench.effective_loop_%s($1)`, q.method), many).Scan(&us); err != nil {
						return fmt.Errorf("%s at depth %d, in a loop: %w", q.method, d, err)
					}
				}
				loop[k] = append(loop[k], us)
			}
		}
		e.log.Info("effective state", "round", round+1)
	}
	for _, d := range effectiveDepths {
		for _, q := range effectiveQueries {
			k := key{d, q.method}
			var sum time.Duration
			for _, l := range lat[k] {
				sum += l
			}
			mean := ms(sum / time.Duration(len(lat[k])))
			e.res.EffectiveState = append(e.res.EffectiveState, EffectiveRun{Depth: d, Method: q.method, Latency: summarize(lat[k]),
				MeanMS: mean, ServerUSPerOp: round3(median(server[k])), LoopUSPerCall: round3(median(loop[k]))})
		}
	}
	return nil
}
