package scenario

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// appSide is the application-side baseline: the state machine a web application would run itself,
// reading and checking in Go, then writing, over several round trips in one transaction. It
// enforces what the product enforces (matrix, authorization, ancestor and descendant guards) and,
// to be as race-free, takes the same locks (ancestors FOR SHARE root first, then the row); it
// writes the same row UPDATE and history INSERT, on the raw copies (lifecycle_bench), so no
// trigger does any of the work for it. Plain, it keeps no state metadata and emits no fact; with
// records (toggle's records), it also writes what the product writes for a change, in the same
// transaction and, as the product, in one statement with the history row: the details row's
// state_metadata (last update, actor, previous state, the preserved state of a temporary run) and
// an outbox row with the fact's action, path, full path and details, which a syncer could drain.
//
// Its rules are read from the product's tables once, as such an application would cache them.
type appSide struct {
	allowed   map[[2]int16]bool
	guards    map[[2]int16]map[string][]int16 // (from, to) → scope → forbidden states
	policy    map[int16]int16                 // to_state → access level required
	action    map[[2]int16]string             // (from, to) → the fact's action (state_transitions.audit_action)
	name      map[int16]string                // code → state name
	permanent map[int16]bool                  // code → a permanent state
}

var errRefused = errors.New("refused by the application-side state machine")

func loadAppSide(ctx context.Context, conn *pgx.Conn) (*appSide, error) {
	a := &appSide{allowed: map[[2]int16]bool{}, guards: map[[2]int16]map[string][]int16{}, policy: map[int16]int16{},
		action: map[[2]int16]string{}, name: map[int16]string{}, permanent: map[int16]bool{}}
	rows, err := conn.Query(ctx, `select from_state, to_state, coalesce(audit_action, '') from lifecycle.state_transitions where from_state is not null`)
	if err != nil {
		return nil, err
	}
	var from, to int16
	var action string
	if _, err := pgx.ForEachRow(rows, []any{&from, &to, &action}, func() error {
		a.allowed[[2]int16{from, to}] = true
		a.action[[2]int16{from, to}] = action
		return nil
	}); err != nil {
		return nil, err
	}
	var code int16
	var name string
	var permanent bool
	rows, err = conn.Query(ctx, `select code, name, permanent from lifecycle.states`)
	if err != nil {
		return nil, err
	}
	if _, err := pgx.ForEachRow(rows, []any{&code, &name, &permanent}, func() error {
		a.name[code], a.permanent[code] = name, permanent
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
// actor: read, check, write, commit; with records, keeping the product's records too.
func (a *appSide) toggle(ctx context.Context, conn *pgx.Conn, id, actor int64, on int16, onEvent, offEvent string, records bool) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		var path []int64
		if err := tx.QueryRow(ctx, `select traversal_ids from lifecycle_bench.namespaces where id = $1`, id).Scan(&path); err != nil {
			return err
		}
		ancestors := path[:len(path)-1]
		// Ancestors FOR SHARE, root first (an ancestor's path sorts before its descendants').
		rows, err := tx.Query(ctx, `select state, path from lifecycle_bench.namespaces where id = any($1) order by traversal_ids for share`, ancestors)
		if err != nil {
			return err
		}
		var ancestorStates []int16
		var fullPath strings.Builder
		var st int16
		var segment string
		if _, err := pgx.ForEachRow(rows, []any{&st, &segment}, func() error {
			ancestorStates = append(ancestorStates, st)
			fullPath.WriteString(segment + "/")
			return nil
		}); err != nil {
			return err
		}
		var from int16
		if err := tx.QueryRow(ctx, `select state, path from lifecycle_bench.namespaces where id = $1 for no key update`, id).Scan(&from, &segment); err != nil {
			return err
		}
		fullPath.WriteString(segment)
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
		if !records {
			_, err = tx.Exec(ctx, `insert into lifecycle_bench.state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata)
				values ($1, $2, $3, $4, $5, 'api', '{}')`, id, from, to, event, actor)
			return err
		}
		// The product's record of the change: the details row, the history row and its fact.
		removed := []string{}
		preserved := "{}"
		if a.permanent[to] {
			removed = []string{"preserved_state", "attempt_count"}
		} else if a.permanent[from] {
			preserved = `{"preserved_state": "` + a.name[from] + `"}`
		}
		_, err = tx.Exec(ctx, `with d as (
			  update lifecycle_bench.namespace_details d
			     set state_metadata = (((d.state_metadata - 'progress')
			                            || jsonb_build_object('last_updated_at', now(), 'last_changed_by_user_id', $5::bigint, 'previous_state', $6::text))
			                           - $7::text[]) || $8::jsonb
			   where d.namespace_id = $1
			  returning d.namespace_id
			), h as (
			  insert into lifecycle_bench.state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata)
			  select $1, $2, $3, $4, $5, 'api', '{}' from d
			  returning id
			)
			insert into lifecycle_bench.facts (action, namespace_id, traversal_ids, full_path, actor_id, details)
			select $9, $1, $10, $11, $5, jsonb_build_object('from_state', $6::text, 'to_state', $12::text, 'event', $4::text, 'source', 'api',
			                                                'metadata', '{}'::jsonb, 'state_update_id', h.id)
			  from h`,
			id, from, to, event, actor, a.name[from], removed, preserved, a.action[k], path, fullPath.String(), a.name[to])
		return err
	})
}
