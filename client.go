package nslifecycle

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nslifecycle/nslifecycle/internal/db"
)

// Client calls the lifecycle SQL API (DESIGN §4) through the sqlc queries, and is the one place
// where their rows become the product's types and their errors the product's errors (FromDB).
// The rules stay in SQL: the client never decides whether a transition is allowed.
type Client struct {
	q *db.Queries
}

// NewClient works over a pool, a connection or a transaction (pgx/v5).
func NewClient(conn db.DBTX) *Client {
	return &Client{q: db.New(conn)}
}

// Transition is the outcome of a transition or an event. States are names from lifecycle.states.
type Transition struct {
	NamespaceID    int64
	FromState      string
	ToState        string
	EffectiveState string
	Changed        bool // false for a same-state no-op
}

// EffectiveState is a namespace's own state, the state it behaves as, and the path-wide flags.
type EffectiveState struct {
	NamespaceID                     int64
	State                           string
	EffectiveState                  string
	InheritedFromNamespaceID        *int64 // the ancestor the effective state comes from, if any
	SelfOrAncestorArchived          bool
	SelfOrAncestorDeletionScheduled bool
	ReadOnly                        bool
}

// AvailableTransition says whether a target state is reachable now, or why not.
type AvailableTransition struct {
	ToState   string
	Allowed   bool
	ErrorCode string
	Reason    string
	Hint      string
}

// Metadata is the optional JSON object passed with a change (keys: lifecycle.json_schemas).
type Metadata map[string]any

// Transition moves a namespace to toState. actorID nil acts as the system (lifecycle_worker only).
func (c *Client) Transition(ctx context.Context, namespaceID int64, toState string, actorID *int64, md Metadata) (Transition, error) {
	raw, err := metadataJSON(md)
	if err != nil {
		return Transition{}, err
	}
	r, err := c.q.NamespaceTransition(ctx, db.NamespaceTransitionParams{
		NamespaceID: namespaceID, ToState: toState, ActorID: actorID, Metadata: raw,
	})
	if err != nil {
		return Transition{}, notFound(err, namespaceID)
	}
	return Transition{
		NamespaceID: deref(r.NamespaceID), FromState: deref(r.FromState), ToState: deref(r.ToState),
		EffectiveState: deref(r.EffectiveState), Changed: deref(r.Changed),
	}, nil
}

// Event applies one of ADR 001's events (lifecycle.events) to a namespace.
func (c *Client) Event(ctx context.Context, namespaceID int64, event string, actorID *int64, md Metadata) (Transition, error) {
	raw, err := metadataJSON(md)
	if err != nil {
		return Transition{}, err
	}
	r, err := c.q.NamespaceEvent(ctx, db.NamespaceEventParams{
		NamespaceID: namespaceID, Event: event, ActorID: actorID, Metadata: raw,
	})
	if err != nil {
		return Transition{}, notFound(err, namespaceID)
	}
	return Transition{
		NamespaceID: deref(r.NamespaceID), FromState: deref(r.FromState), ToState: deref(r.ToState),
		EffectiveState: deref(r.EffectiveState), Changed: deref(r.Changed),
	}, nil
}

// EffectiveState reads a namespace's effective state, always fresh.
func (c *Client) EffectiveState(ctx context.Context, namespaceID int64) (EffectiveState, error) {
	r, err := c.q.NamespaceEffectiveState(ctx, namespaceID)
	if err != nil {
		return EffectiveState{}, notFound(err, namespaceID)
	}
	return EffectiveState{
		NamespaceID: deref(r.NamespaceID), State: deref(r.State), EffectiveState: deref(r.EffectiveState),
		InheritedFromNamespaceID: r.InheritedFromNamespaceID, SelfOrAncestorArchived: deref(r.SelfOrAncestorArchived),
		SelfOrAncestorDeletionScheduled: deref(r.SelfOrAncestorDeletionScheduled), ReadOnly: deref(r.ReadOnly),
	}, nil
}

// AvailableTransitions lists every state with whether actorID may move the namespace there now.
func (c *Client) AvailableTransitions(ctx context.Context, namespaceID int64, actorID *int64) ([]AvailableTransition, error) {
	rows, err := c.q.NamespaceAvailableTransitions(ctx, db.NamespaceAvailableTransitionsParams{
		NamespaceID: namespaceID, ActorID: actorID,
	})
	if err != nil {
		return nil, FromDB(err)
	}
	out := make([]AvailableTransition, 0, len(rows))
	for _, r := range rows {
		out = append(out, AvailableTransition{
			ToState: deref(r.ToState), Allowed: deref(r.Allowed), ErrorCode: deref(r.ErrorCode),
			Reason: deref(r.Reason), Hint: deref(r.Hint),
		})
	}
	return out, nil
}

func metadataJSON(md Metadata) ([]byte, error) {
	if md == nil {
		return []byte("{}"), nil
	}
	b, err := json.Marshal(md)
	if err != nil {
		return nil, fmt.Errorf("encode metadata: %w", err)
	}
	return b, nil
}

// deref reads a column the sqlc analyzer could not prove non-null (function results).
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
