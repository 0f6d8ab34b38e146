package scenario

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// appSide is the application-side baseline: the state machine a web application would run itself,
// reading and checking in Go, then writing, over several round trips in one transaction. It
// enforces what the product enforces (matrix, authorization, ancestor and descendant guards) and,
// to be as race-free, takes the same locks (ancestors FOR SHARE root first, then the row); it
// writes the same row UPDATE and history INSERT, on the raw copies (lifecycle_bench), so no
// trigger does any of the work for it. It does not keep state metadata nor emit facts.
//
// Its rules are read from the product's tables once, as such an application would cache them.
type appSide struct {
	allowed map[[2]int16]bool
	guards  map[[2]int16]map[string][]int16 // (from, to) → scope → forbidden states
	policy  map[int16]int16                 // to_state → access level required
}

var errRefused = errors.New("refused by the application-side state machine")

func loadAppSide(ctx context.Context, conn *pgx.Conn) (*appSide, error) {
	a := &appSide{allowed: map[[2]int16]bool{}, guards: map[[2]int16]map[string][]int16{}, policy: map[int16]int16{}}
	rows, err := conn.Query(ctx, `select from_state, to_state from lifecycle.state_transitions where from_state is not null`)
	if err != nil {
		return nil, err
	}
	var from, to int16
	if _, err := pgx.ForEachRow(rows, []any{&from, &to}, func() error {
		a.allowed[[2]int16{from, to}] = true
		return nil
	}); err != nil {
		return nil, err
	}
	var scope string
	var forbidden int16
	rows, err = conn.Query(ctx, `select from_state, to_state, scope, forbidden_state from lifecycle.transition_guards where from_state is not null`)
	if err != nil {
		return nil, err
	}
	if _, err := pgx.ForEachRow(rows, []any{&from, &to, &scope, &forbidden}, func() error {
		k := [2]int16{from, to}
		if a.guards[k] == nil {
			a.guards[k] = map[string][]int16{}
		}
		a.guards[k][scope] = append(a.guards[k][scope], forbidden)
		return nil
	}); err != nil {
		return nil, err
	}
	var level int16
	rows, err = conn.Query(ctx, `select to_state, min_access_level from lifecycle.transition_policies`)
	if err != nil {
		return nil, err
	}
	_, err = pgx.ForEachRow(rows, []any{&to, &level}, func() error {
		a.policy[to] = level
		return nil
	})
	return a, err
}

// toggle moves the namespace to `on` from active, or back to active from anything else, as the
// actor: read, check, write, commit.
func (a *appSide) toggle(ctx context.Context, conn *pgx.Conn, id, actor int64, on int16, onEvent, offEvent string) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		var path []int64
		if err := tx.QueryRow(ctx, `select traversal_ids from lifecycle_bench.namespaces where id = $1`, id).Scan(&path); err != nil {
			return err
		}
		ancestors := path[:len(path)-1]
		// Ancestors FOR SHARE, root first (an ancestor's path sorts before its descendants').
		rows, err := tx.Query(ctx, `select state from lifecycle_bench.namespaces where id = any($1) order by traversal_ids for share`, ancestors)
		if err != nil {
			return err
		}
		ancestorStates, err := pgx.CollectRows(rows, pgx.RowTo[int16])
		if err != nil {
			return err
		}
		var from int16
		if err := tx.QueryRow(ctx, `select state from lifecycle_bench.namespaces where id = $1 for no key update`, id).Scan(&from); err != nil {
			return err
		}
		to, event := on, onEvent
		if from != 0 {
			to, event = 0, offEvent
		}
		k := [2]int16{from, to}
		if !a.allowed[k] {
			return fmt.Errorf("%w: %d → %d not in the matrix", errRefused, from, to)
		}
		var level int16
		if err := tx.QueryRow(ctx, `select coalesce(max(access_level), 0)::smallint from lifecycle.namespace_members
			where namespace_id = any($1) and user_id = $2`, path, actor).Scan(&level); err != nil {
			return err
		}
		if level < a.policy[to] {
			return fmt.Errorf("%w: access level %d", errRefused, level)
		}
		for _, s := range ancestorStates {
			for _, f := range a.guards[k]["ancestor"] {
				if s == f {
					return fmt.Errorf("%w: an ancestor is in state %d", errRefused, s)
				}
			}
		}
		if f := a.guards[k]["descendant"]; len(f) > 0 {
			upper := append(append([]int64{}, ancestors...), path[len(path)-1]+1)
			var hit bool
			if err := tx.QueryRow(ctx, `select exists (select from lifecycle_bench.namespaces where state = any($1)
				and traversal_ids > $2 and traversal_ids < $3)`, f, path, upper).Scan(&hit); err != nil {
				return err
			}
			if hit {
				return fmt.Errorf("%w: a descendant is in a forbidden state", errRefused)
			}
		}
		if _, err := tx.Exec(ctx, `update lifecycle_bench.namespaces set state = $2, updated_at = now() where id = $1`, id, to); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `insert into lifecycle_bench.state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata)
			values ($1, $2, $3, $4, $5, 'api', '{}')`, id, from, to, event, actor)
		return err
	})
}
