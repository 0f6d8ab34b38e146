package nslifecycle_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// FromDB names what is wrong for the errors that are not refusals: a prepared statement lost or
// in the way (what a transaction-mode pooler causes) and a missing schema object, each keeping
// the server's error for errors.As; anything else comes back unchanged.
func TestFromDBNamesPoolerAndMissingSchemaErrors(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	exec := func(sql string) error {
		_, err := conn.Exec(ctx, sql)
		return nslifecycle.FromDB(err)
	}
	if err := exec("prepare twice as select 1"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sql, code string
		is, isNot error
	}{
		{"prepare twice as select 1", "42P05", nslifecycle.ErrTransactionPooler, nslifecycle.ErrSchemaMissing},
		{"execute never_prepared", "26000", nslifecycle.ErrTransactionPooler, nslifecycle.ErrSchemaMissing},
		{"select * from lifecycle.no_such_table", "42P01", nslifecycle.ErrSchemaMissing, nslifecycle.ErrTransactionPooler},
		{"select no_such_schema.settings_get()", "3F000", nslifecycle.ErrSchemaMissing, nslifecycle.ErrTransactionPooler},
		{"select lifecycle.no_such_function()", "42883", nslifecycle.ErrSchemaMissing, nslifecycle.ErrTransactionPooler},
		{"select 1/0", "22012", nil, nslifecycle.ErrSchemaMissing},
	} {
		err := exec(c.sql)
		var pg *pgconn.PgError
		if !errors.As(err, &pg) || pg.Code != c.code {
			t.Errorf("%s: %v, want the server's %s kept", c.sql, err, c.code)
			continue
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v is not %v", c.sql, err, c.is)
		}
		if errors.Is(err, c.isNot) || (c.is == nil && errors.Is(err, nslifecycle.ErrTransactionPooler)) {
			t.Errorf("%s: %v is %v", c.sql, err, c.isNot)
		}
	}
}

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
