package nslifecycle

import "github.com/nslifecycle/nslifecycle/internal/dberr"

// Error is a refusal from the lifecycle schema: one of docs/design.md §4.5's stable SQLSTATEs with
// the database's message, detail (the facts: ids, states) and hint (what to do instead).
//
// Compare with errors.Is against the sentinels below (ErrInvalidTransition, …); errors.As gives
// the detail, and Unwrap the *pgconn.PgError. HTTPStatus maps the code as design.md §4.5 does.
type Error = dberr.Error

// Sentinels for errors.Is: any *Error with the same code matches.
var (
	ErrInvalidTransition       = dberr.ErrInvalidTransition       // NS001
	ErrAncestorStateConflict   = dberr.ErrAncestorStateConflict   // NS002
	ErrDescendantStateConflict = dberr.ErrDescendantStateConflict // NS003
	ErrNamespaceNotFound       = dberr.ErrNamespaceNotFound       // NS004
	ErrPermissionDenied        = dberr.ErrPermissionDenied        // NS005
	ErrNameTaken               = dberr.ErrNameTaken               // NS006
	ErrPastGracePeriod         = dberr.ErrPastGracePeriod         // NS007
	ErrRateLimited             = dberr.ErrRateLimited             // NS008
	ErrTransferRequestClosed   = dberr.ErrTransferRequestClosed   // NS009
	ErrInvalidArgument         = dberr.ErrInvalidArgument         // NS010
	ErrOrganizationMoving      = dberr.ErrOrganizationMoving      // NS011
	ErrIDTaken                 = dberr.ErrIDTaken                 // NS012
	ErrLegacyParentsDisagree   = dberr.ErrLegacyParentsDisagree   // NS013
)

// Errors that are not refusals but say what is wrong with the connection or the installation.
// FromDB wraps the *pgconn.PgError in them: errors.Is matches the sentinel, errors.As still gives
// the PgError.
var (
	// ErrTransactionPooler: a protocol-level prepared statement of this connection is missing or
	// another client's of the same name is in the way: what a transaction-mode pooler
	// (PgBouncer pool_mode=transaction before 1.21, or without max_prepared_statements) does.
	ErrTransactionPooler = dberr.ErrTransactionPooler
	// ErrSchemaMissing: the lifecycle schema, a table or a function of it is not there.
	ErrSchemaMissing = dberr.ErrSchemaMissing
)

// Condition is the docs/design.md §4.5 name of a code ("invalid_transition" for NS001), or the
// code itself.
func Condition(code string) string { return dberr.Condition(code) }

// FromDB converts an error from the database into the product's errors: a lifecycle SQLSTATE
// becomes an *Error, a lost or clashing prepared statement is wrapped in ErrTransactionPooler, a
// missing schema object in ErrSchemaMissing; anything else (connection errors, lock timeouts
// 55P03, deadlocks 40P01) is returned unchanged.
func FromDB(err error) error { return dberr.FromDB(err) }

// Transient reports whether an error from the database may go away when the same work is simply
// run again (a lost connection, an ended context, SQLSTATE classes 08, 40, 53, 57, 58, and 55P03).
func Transient(err error) bool { return dberr.Transient(err) }
