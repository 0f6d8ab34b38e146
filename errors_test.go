package nslifecycle_test

import (
	"context"
	"errors"
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
