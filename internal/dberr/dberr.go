// Package dberr turns errors from the lifecycle schema into the product's errors: the one place Go
// knows the SQLSTATEs of docs/design.md §4.5. The root package re-exports it for users; internal
// packages use it directly (they never import the root).
package dberr

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Error is a refusal from the lifecycle schema: one of docs/design.md §4's stable SQLSTATEs with the
// database's message, detail (the facts: ids, states) and hint (what to do instead).
//
// Compare with errors.Is against the sentinels below (ErrInvalidTransition, …); errors.As gives
// the detail, and Unwrap the *pgconn.PgError.
type Error struct {
	Code    string // SQLSTATE, e.g. "NS001"
	Message string
	Detail  string
	Hint    string
	pg      *pgconn.PgError
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s (%s): %s", Condition(e.Code), e.Code, e.Message)
	if e.Detail != "" {
		s += " [" + e.Detail + "]"
	}
	return s
}

// Is matches any *Error with the same code, so errors.Is(err, ErrInvalidTransition) works for
// every refusal of that kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func (e *Error) Unwrap() error {
	if e.pg == nil {
		return nil
	}
	return e.pg
}

// HTTPStatus is the status docs/design.md §4 maps the code to (500 for an unknown code).
func (e *Error) HTTPStatus() int {
	if c, ok := conditions[e.Code]; ok {
		return c.status
	}
	return http.StatusInternalServerError
}

// The SQLSTATEs of docs/design.md §4. This table is the one place Go knows them.
var conditions = map[string]struct {
	name   string
	status int
}{
	"NS001": {"invalid_transition", http.StatusConflict},
	"NS002": {"ancestor_state_conflict", http.StatusConflict},
	"NS003": {"descendant_state_conflict", http.StatusConflict},
	"NS004": {"namespace_not_found", http.StatusNotFound},
	"NS005": {"permission_denied", http.StatusForbidden},
	"NS006": {"name_taken", http.StatusConflict},
	"NS007": {"past_grace_period", http.StatusGone},
	"NS008": {"rate_limited", http.StatusTooManyRequests},
	"NS009": {"transfer_request_closed", http.StatusConflict},
	"NS010": {"invalid_argument", http.StatusUnprocessableEntity},
	"NS011": {"organization_moving", http.StatusConflict},
	"NS012": {"id_taken", http.StatusConflict},
	"NS013": {"legacy_parents_disagree", http.StatusUnprocessableEntity},
}

// Sentinels for errors.Is.
var (
	ErrInvalidTransition       = &Error{Code: "NS001"}
	ErrAncestorStateConflict   = &Error{Code: "NS002"}
	ErrDescendantStateConflict = &Error{Code: "NS003"}
	ErrNamespaceNotFound       = &Error{Code: "NS004"}
	ErrPermissionDenied        = &Error{Code: "NS005"}
	ErrNameTaken               = &Error{Code: "NS006"}
	ErrPastGracePeriod         = &Error{Code: "NS007"}
	ErrRateLimited             = &Error{Code: "NS008"}
	ErrTransferRequestClosed   = &Error{Code: "NS009"}
	ErrInvalidArgument         = &Error{Code: "NS010"}
	ErrOrganizationMoving      = &Error{Code: "NS011"}
	ErrIDTaken                 = &Error{Code: "NS012"}
	ErrLegacyParentsDisagree   = &Error{Code: "NS013"}
)

// Errors that are not refusals but say what is wrong with the connection or the installation.
// FromDB wraps the *pgconn.PgError in them: errors.Is matches the sentinel, errors.As still gives
// the PgError.
var (
	// ErrTransactionPooler: a protocol-level prepared statement of this connection is missing
	// (26000 invalid_sql_statement_name) or another client's of the same name is in the way
	// (42P05 duplicate_prepared_statement) on the server connection. That is what a
	// transaction-mode pooler does between transactions (PgBouncer pool_mode=transaction before
	// 1.21, or without max_prepared_statements); the product never PREPAREs in SQL.
	ErrTransactionPooler = errors.New("this connection goes through a transaction-mode pooler (PgBouncer pool_mode=transaction): " +
		"its prepared statements vanish or clash between transactions")
	// ErrSchemaMissing: the lifecycle schema, a table or a function of it is not there (3F000
	// invalid_schema_name, 42P01 undefined_table, 42883 undefined_function).
	ErrSchemaMissing = errors.New("the lifecycle schema, or part of it, is missing: is the database migrated to this release (cmd/migrate)?")
)

// Condition is the docs/design.md §4 name of a code ("invalid_transition" for NS001), or the code itself.
func Condition(code string) string {
	if c, ok := conditions[code]; ok {
		return c.name
	}
	return code
}

// FromDB converts an error from the database into the product's errors: a lifecycle SQLSTATE
// becomes an *Error. A lost or clashing prepared statement is wrapped in ErrTransactionPooler, a
// missing schema object in ErrSchemaMissing. Anything else (connection errors, lock timeouts 55P03,
// deadlocks 40P01) is returned unchanged. Path races need no mapping here: the database takes the
// sibling-path lock on every write that makes a path live, so they end in NS006 for every client
// (sql/triggers/namespaces_paths.sql).
func FromDB(err error) error {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		if _, ok := conditions[pg.Code]; ok {
			return &Error{Code: pg.Code, Message: pg.Message, Detail: pg.Detail, Hint: pg.Hint, pg: pg}
		}
		switch pg.Code {
		case "42P05", "26000":
			return fmt.Errorf("%w: %w", ErrTransactionPooler, err)
		case "3F000", "42P01", "42883":
			return fmt.Errorf("%w: %w", ErrSchemaMissing, err)
		}
	}
	return err
}

// NotFound converts pgx.ErrNoRows from a lookup of one namespace into ErrNamespaceNotFound, and
// any other error as FromDB does.
func NotFound(err error, namespaceID int64) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return &Error{Code: "NS004", Message: "namespace not found", Detail: fmt.Sprintf("namespace_id=%d", namespaceID)}
	}
	return FromDB(err)
}

// Transient reports whether an error from the database may go away when the same work is simply
// run again: the connection was lost or the context ended (any error that is not PostgreSQL's own
// answer), or PostgreSQL refused for the moment: SQLSTATE classes 08 (connection exception), 40
// (transaction rollback: serialization failure, deadlock), 53 (insufficient resources), 57
// (operator intervention: shutdown, cancel) and 58 (system error), and 55P03 (lock not available).
// Any other SQLSTATE is the statement's own fault: run again, it fails again.
func Transient(err error) bool {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) {
		return true
	}
	switch pg.Code[:min(2, len(pg.Code))] {
	case "08", "40", "53", "57", "58":
		return true
	}
	return pg.Code == "55P03"
}
