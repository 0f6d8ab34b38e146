package nslifecycle

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

// Client calls the lifecycle SQL API (docs/design.md §4) through the sqlc queries, and is the one place
// where their rows become the product's types and their errors the product's errors (FromDB).
// The rules stay in SQL: the client never decides whether a transition is allowed.
type Client struct {
	q *db.Queries
}

// DBTX is what a Client sends its statements through: a *pgxpool.Pool, a *pgx.Conn or a pgx.Tx.
type DBTX interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
	Query(context.Context, string, ...any) (pgx.Rows, error)
	QueryRow(context.Context, string, ...any) pgx.Row
	SendBatch(context.Context, *pgx.Batch) pgx.BatchResults
	CopyFrom(context.Context, pgx.Identifier, []string, pgx.CopyFromSource) (int64, error)
}

// NewClient works over a pool, a connection or a transaction (pgx/v5).
func NewClient(conn DBTX) *Client {
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
		return Transition{}, dberr.NotFound(err, namespaceID)
	}
	return transition(db.NamespaceEventRow(r)), nil
}

// transition converts a row of namespace_transition or namespace_event (the same columns).
func transition(r db.NamespaceEventRow) Transition {
	return Transition{
		NamespaceID: deref(r.NamespaceID), FromState: deref(r.FromState), ToState: deref(r.ToState),
		EffectiveState: deref(r.EffectiveState), Changed: deref(r.Changed),
	}
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
		return Transition{}, dberr.NotFound(err, namespaceID)
	}
	return transition(r), nil
}

// EffectiveState reads a namespace's effective state, always fresh.
func (c *Client) EffectiveState(ctx context.Context, namespaceID int64) (EffectiveState, error) {
	r, err := c.q.NamespaceEffectiveState(ctx, namespaceID)
	if err != nil {
		return EffectiveState{}, dberr.NotFound(err, namespaceID)
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

// Renamed is the outcome of a path change.
type Renamed struct {
	NamespaceID int64
	OldFullPath string
	NewFullPath string
	Changed     bool // false when the path was already new_path
}

// Rename changes a namespace's path, keeping a redirect from the old full path.
func (c *Client) Rename(ctx context.Context, namespaceID int64, newPath string, actorID *int64) (Renamed, error) {
	r, err := c.q.NamespaceRename(ctx, db.NamespaceRenameParams{NamespaceID: namespaceID, NewPath: newPath, ActorID: actorID})
	if err != nil {
		return Renamed{}, dberr.NotFound(err, namespaceID)
	}
	return Renamed{NamespaceID: deref(r.NamespaceID), OldFullPath: deref(r.OldFullPath), NewFullPath: deref(r.NewFullPath),
		Changed: deref(r.Changed)}, nil
}

// Resolved is where a full path leads.
type Resolved struct {
	NamespaceID   int64
	CanonicalPath string
	Redirected    bool
}

// Resolve finds the live namespace at a full path, following redirects; ok is false when none.
func (c *Client) Resolve(ctx context.Context, fullPath string) (r Resolved, ok bool, err error) {
	rows, err := c.q.NamespaceResolve(ctx, fullPath)
	if err != nil || len(rows) == 0 {
		return Resolved{}, false, FromDB(err)
	}
	return Resolved{NamespaceID: deref(rows[0].NamespaceID), CanonicalPath: deref(rows[0].CanonicalPath),
		Redirected: deref(rows[0].Redirected)}, true, nil
}

// SetVisibility sets private, internal or public; changed is false when it already was.
func (c *Client) SetVisibility(ctx context.Context, namespaceID int64, visibility string, actorID *int64) (changed bool, err error) {
	r, err := c.q.NamespaceSetVisibility(ctx, db.NamespaceSetVisibilityParams{NamespaceID: namespaceID, Visibility: visibility, ActorID: actorID})
	if err != nil {
		return false, dberr.NotFound(err, namespaceID)
	}
	return deref(r.Changed), nil
}

// TransferRequest is a request's id and status after a call.
type TransferRequest struct {
	ID     int64
	Status string
}

// RequestTransfer offers a namespace to a new parent; accepted at once when the actor owns both.
func (c *Client) RequestTransfer(ctx context.Context, namespaceID, toParentID int64, actorID *int64) (TransferRequest, error) {
	r, err := c.q.TransferRequestCreate(ctx, db.TransferRequestCreateParams{NamespaceID: namespaceID, ToParentID: toParentID, ActorID: actorID})
	if err != nil {
		return TransferRequest{}, FromDB(err)
	}
	return TransferRequest{ID: deref(r.RequestID), Status: deref(r.Status)}, nil
}

// AcceptTransfer accepts a pending request; the namespace enters transfer_in_progress.
func (c *Client) AcceptTransfer(ctx context.Context, requestID int64, actorID *int64) (TransferRequest, error) {
	r, err := c.q.TransferRequestAccept(ctx, db.TransferRequestAcceptParams{RequestID: requestID, ActorID: actorID})
	if err != nil {
		return TransferRequest{}, FromDB(err)
	}
	return TransferRequest{ID: deref(r.RequestID), Status: deref(r.Status)}, nil
}

// DeclineTransfer declines a pending request.
func (c *Client) DeclineTransfer(ctx context.Context, requestID int64, actorID *int64) (TransferRequest, error) {
	r, err := c.q.TransferRequestDecline(ctx, db.TransferRequestDeclineParams{RequestID: requestID, ActorID: actorID})
	if err != nil {
		return TransferRequest{}, FromDB(err)
	}
	return TransferRequest{ID: deref(r.RequestID), Status: deref(r.Status)}, nil
}

// CancelTransfer cancels a pending request.
func (c *Client) CancelTransfer(ctx context.Context, requestID int64, actorID *int64) (TransferRequest, error) {
	r, err := c.q.TransferRequestCancel(ctx, db.TransferRequestCancelParams{RequestID: requestID, ActorID: actorID})
	if err != nil {
		return TransferRequest{}, FromDB(err)
	}
	return TransferRequest{ID: deref(r.RequestID), Status: deref(r.Status)}, nil
}

// ExecuteTransfer performs the move of an accepted transfer: outcome completed, failed or noop.
func (c *Client) ExecuteTransfer(ctx context.Context, namespaceID int64) (outcome string, err error) {
	r, err := c.q.TransferExecute(ctx, namespaceID)
	if err != nil {
		return "", dberr.NotFound(err, namespaceID)
	}
	return deref(r.Outcome), nil
}

// HardDeleteBatch is the progress of one hard-delete batch.
type HardDeleteBatch struct {
	Deleted, Remaining int64
	Done               bool
}

// HardDelete removes one batch of a namespace in deletion_in_progress (batchSize nil: the setting).
// Call it, each time in its own transaction, until Done.
func (c *Client) HardDelete(ctx context.Context, namespaceID int64, batchSize *int32) (HardDeleteBatch, error) {
	r, err := c.q.NamespaceHardDelete(ctx, db.NamespaceHardDeleteParams{NamespaceID: namespaceID, BatchSize: batchSize})
	if err != nil {
		return HardDeleteBatch{}, dberr.NotFound(err, namespaceID)
	}
	return HardDeleteBatch{Deleted: deref(r.Deleted), Remaining: deref(r.Remaining), Done: deref(r.Done)}, nil
}
