package nslifecycle_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle"
)

// Transient: what running again may cure (a lost connection, an ended context, PostgreSQL's
// classes 08, 40, 53, 57, 58 and 55P03), not what is the statement's own fault; wrapped or not.
func TestTransientErrorsAreTheOnesRunningAgainMayCure(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{io.ErrUnexpectedEOF, true},
		{context.Canceled, true},
		{&pgconn.PgError{Code: "08006"}, true},
		{&pgconn.PgError{Code: "40001"}, true},
		{fmt.Errorf("record fact 1: %w", nslifecycle.FromDB(&pgconn.PgError{Code: "40P01"})), true},
		{&pgconn.PgError{Code: "53100"}, true},
		{&pgconn.PgError{Code: "55P03"}, true},
		{&pgconn.PgError{Code: "57P01"}, true},
		{&pgconn.PgError{Code: "58030"}, true},
		{&pgconn.PgError{Code: "55006"}, false},
		{&pgconn.PgError{Code: "22P05"}, false},
		{&pgconn.PgError{Code: "23514"}, false},
		{fmt.Errorf("record fact 1: %w", nslifecycle.FromDB(&pgconn.PgError{Code: "NS010"})), false},
		{&pgconn.PgError{Code: "XX000"}, false},
	} {
		if got := nslifecycle.Transient(c.err); got != c.want {
			var pg *pgconn.PgError
			errors.As(c.err, &pg)
			t.Errorf("Transient(%v, code %v) = %v, want %v", c.err, pg, got, c.want)
		}
	}
}
