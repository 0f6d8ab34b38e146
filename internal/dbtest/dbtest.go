// Package dbtest gives tests a real, freshly migrated PostgreSQL database.
//
// DATABASE_URL names the server (make test starts the private cluster and sets it). The first test
// of a package that asks for a database gets a clone of a template database migrated once per
// version of the embedded SQL; the clone is dropped when the package's tests end (see Main). Pools
// run with an empty search_path, so an unqualified name in a query fails instead of resolving by luck.
package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/migration"
)

const (
	templatePrefix = "nslifecycle_tmpl_"
	// DatabasePrefix starts the name of every database this package creates, followed by the
	// creating process id: make test drops the databases of processes that are gone (killed runs).
	DatabasePrefix = "nslt_"
)

var (
	pkgOnce sync.Once
	pkgURL  string
	pkgErr  error
	created []string // databases to drop when the package's tests end
	mu      sync.Mutex
)

// Main runs a package's tests and drops the databases they created. Use it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }
func Main(m *testing.M) int {
	code := m.Run()
	mu.Lock()
	defer mu.Unlock()
	if len(created) == 0 {
		return code
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := adminConn(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dbtest: drop test databases:", err)
		return code
	}
	defer admin.Close(ctx)
	for _, name := range created {
		if _, err := admin.Exec(ctx, "drop database if exists "+pgx.Identifier{name}.Sanitize()+" with (force)"); err != nil {
			fmt.Fprintln(os.Stderr, "dbtest: drop", name+":", err)
		}
	}
	return code
}

// ServerURL is DATABASE_URL, or a failed test that says how to set it.
func ServerURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("DATABASE_URL")
	if u == "" {
		t.Fatal("DATABASE_URL is not set: run `make test`, or `export DATABASE_URL=$(scripts/db.sh start)`")
	}
	return u
}

// URL returns the connection string of this package's migrated database, creating it on first use.
func URL(t testing.TB) string {
	t.Helper()
	ServerURL(t)
	pkgOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		pkgURL, pkgErr = cloneTemplate(ctx)
	})
	if pkgErr != nil {
		t.Fatalf("test database: %v", pkgErr)
	}
	return pkgURL
}

// Pool returns a pool on this package's migrated database, closed when the test ends.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(URL(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = ""
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// NewDatabase creates a migrated database of the test's own (a clone of the template) and returns
// its URL; it is dropped when the test ends. For tests that need a database to themselves: a
// replication slot, or counts over whole tables.
func NewDatabase(t testing.TB) string {
	t.Helper()
	ServerURL(t)
	ctx := context.Background()
	tmpl, err := ensureTemplate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := adminConn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := databaseName("test")
	if _, err := admin.Exec(ctx, "create database "+pgx.Identifier{name}.Sanitize()+" template "+pgx.Identifier{tmpl}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropDatabase(t, name) })
	return urlFor(name)
}

// NewDatabasePool is NewDatabase with a pool on it (the caller's search_path), closed when the
// test ends.
func NewDatabasePool(t testing.TB) (string, *pgxpool.Pool) {
	t.Helper()
	url := NewDatabase(t)
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return url, pool
}

// EmptyDatabase creates a database with nothing in it (for migration tests) and returns its URL.
// It is dropped when the test ends.
func EmptyDatabase(t testing.TB) string {
	t.Helper()
	ServerURL(t)
	ctx := context.Background()
	admin, err := adminConn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := databaseName("empty")
	if _, err := admin.Exec(ctx, "create database "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropDatabase(t, name) })
	return urlFor(name)
}

// dropDatabase drops a test's database, and first the logical replication slots on it, which
// would otherwise keep it from being dropped.
func dropDatabase(t testing.TB, name string) {
	ctx := context.Background()
	admin, err := adminConn(ctx)
	if err != nil {
		t.Error(err)
		return
	}
	defer admin.Close(ctx)
	// A consumer still running (a syncer a test has not stopped yet, or one that reconnects after
	// its walsender was ended) may make its slot again between the two statements: 55006 then, and
	// the pair is tried again.
	for attempt := 1; ; attempt++ {
		if err := DropSlots(ctx, admin, name, ""); err != nil {
			t.Error(err)
			return
		}
		_, err = admin.Exec(ctx, "drop database if exists "+pgx.Identifier{name}.Sanitize()+" with (force)")
		var pgErr *pgconn.PgError
		if err == nil {
			return
		}
		if !errors.As(err, &pgErr) || pgErr.Code != "55006" || attempt == 50 {
			t.Error(err)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// DropSlots drops the logical replication slots of a database (only the one named slot, if not
// empty). A slot stays active for a moment after its consumer is gone (its walsender ends), so
// this ends the walsender and retries for up to ten seconds.
func DropSlots(ctx context.Context, conn *pgx.Conn, database, slot string) error {
	var err error
	for range 100 {
		var left int
		err = conn.QueryRow(ctx, `
			with s as (select slot_name, active, active_pid from pg_replication_slots
			            where database = $1 and ($2 = '' or slot_name = $2)),
			     ended as (select pg_terminate_backend(active_pid) from s where active),
			     dropped as (select pg_drop_replication_slot(slot_name) from s where not active)
			select (select count(*) from s where active) + (select count(*) from ended) * 0 + (select count(*) from dropped) * 0`,
			database, slot).Scan(&left)
		if err == nil && left == 0 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("drop the replication slots of %s: %w", database, err)
	}
	return fmt.Errorf("the replication slots of %s stay active", database)
}

// cloneTemplate makes sure the template for the embedded SQL exists, then clones it.
func cloneTemplate(ctx context.Context) (string, error) {
	tmpl, err := ensureTemplate(ctx)
	if err != nil {
		return "", err
	}
	admin, err := adminConn(ctx)
	if err != nil {
		return "", err
	}
	defer admin.Close(ctx)
	name := databaseName("pkg")
	if _, err := admin.Exec(ctx, "create database "+pgx.Identifier{name}.Sanitize()+" template "+pgx.Identifier{tmpl}.Sanitize()); err != nil {
		return "", fmt.Errorf("clone %s: %w", tmpl, err)
	}
	mu.Lock()
	created = append(created, name)
	mu.Unlock()
	return urlFor(name), nil
}

// ensureTemplate creates and migrates the template named after a hash of the embedded SQL, once
// per SQL version: test packages run in parallel processes, so they serialise on an advisory lock.
func ensureTemplate(ctx context.Context) (string, error) {
	sum, err := sqlHash()
	if err != nil {
		return "", err
	}
	name := templatePrefix + sum
	admin, err := adminConn(ctx)
	if err != nil {
		return "", err
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "select pg_advisory_lock(hashtext('nslifecycle dbtest template'))"); err != nil {
		return "", err
	}
	defer admin.Exec(ctx, "select pg_advisory_unlock(hashtext('nslifecycle dbtest template'))")

	var exists bool
	if err := admin.QueryRow(ctx, "select exists (select from pg_database where datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	// Templates of older SQL are of no further use.
	rows, err := admin.Query(ctx, "select datname from pg_database where datname like $1 || '%'", templatePrefix)
	if err != nil {
		return "", err
	}
	stale, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", err
	}
	for _, s := range stale {
		if _, err := admin.Exec(ctx, "alter database "+pgx.Identifier{s}.Sanitize()+" is_template false"); err != nil {
			return "", err
		}
		if _, err := admin.Exec(ctx, "drop database if exists "+pgx.Identifier{s}.Sanitize()+" with (force)"); err != nil {
			return "", err
		}
	}

	build := name + "_build"
	if _, err := admin.Exec(ctx, "drop database if exists "+pgx.Identifier{build}.Sanitize()+" with (force)"); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "create database "+pgx.Identifier{build}.Sanitize()); err != nil {
		return "", err
	}
	conn, err := pgx.Connect(ctx, urlFor(build))
	if err != nil {
		return "", err
	}
	_, err = migration.To(ctx, conn, migration.Latest, migration.Options{})
	conn.Close(ctx)
	if err != nil {
		return "", err
	}
	// Built under another name and renamed at the end, so a half-built template is never cloned.
	if _, err := admin.Exec(ctx, "alter database "+pgx.Identifier{build}.Sanitize()+" rename to "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "alter database "+pgx.Identifier{name}.Sanitize()+" is_template true"); err != nil {
		return "", err
	}
	return name, nil
}

// sqlHash names the embedded SQL: any change to a migration or an included file changes it.
func sqlHash() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migration.Migrations(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migration.Migrations(), path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

func adminConn(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, urlFor("postgres"))
	if err != nil {
		return nil, fmt.Errorf("connect to the server's postgres database: %w", err)
	}
	return conn, nil
}

// urlFor is DATABASE_URL with its database replaced. DATABASE_URL may be a URL or a libpq
// keyword/value string (where a later dbname overrides an earlier one).
func urlFor(database string) string {
	base := os.Getenv("DATABASE_URL")
	if u, err := url.Parse(base); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Path = "/" + database
		return u.String()
	}
	return base + " dbname=" + database
}

// databaseName is nslt_<pid>_<kind>_<random>: unique, and traceable to the process that owns it.
func databaseName(kind string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s%d_%s_%s", DatabasePrefix, os.Getpid(), kind, hex.EncodeToString(b))
}

// LoginAs creates a login role that is a member of group (lifecycle_app or lifecycle_worker), as a
// user's application or worker would connect, and returns databaseURL with that role as its user.
// An empty group makes a login with no grants at all: any other user of the server.
// Roles are cluster-wide: the name is unique to the test, and the role is dropped when the test
// ends (after the test's pools, registered earlier, are closed).
func LoginAs(t testing.TB, databaseURL, group string) string {
	t.Helper()
	ctx := context.Background()
	admin, err := adminConn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	create := "create role %s login"
	if group != "" {
		create += " in role " + pgx.Identifier{group}.Sanitize()
	} else {
		group = "nogrants"
	}
	role := fmt.Sprintf("%s%d_%s_%s", DatabasePrefix, os.Getpid(), group, hex.EncodeToString(b))
	if _, err := admin.Exec(ctx, fmt.Sprintf(create, pgx.Identifier{role}.Sanitize())); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		admin, err := adminConn(ctx)
		if err != nil {
			t.Error(err)
			return
		}
		defer admin.Close(ctx)
		// Its sessions end first (a killed test's connection may linger); then nothing it owns
		// stays (it owns nothing but what a test made), nor what the test granted it in its
		// database (which would keep the role from being dropped): the database is still there,
		// its cleanup having been registered first.
		_, _ = admin.Exec(ctx, "select pg_terminate_backend(pid) from pg_stat_activity where usename = $1", role)
		// (As the server's superuser: databaseURL may name a login that may not drop the role's
		// grants.)
		if u, err := url.Parse(databaseURL); err == nil {
			if c, err := pgx.Connect(ctx, urlFor(strings.TrimPrefix(u.Path, "/"))); err == nil {
				if _, err := c.Exec(ctx, "drop owned by "+pgx.Identifier{role}.Sanitize()); err != nil {
					t.Errorf("drop owned by %s: %v", role, err)
				}
				c.Close(ctx)
			}
		}
		if _, err := admin.Exec(ctx, "drop role if exists "+pgx.Identifier{role}.Sanitize()); err != nil {
			t.Logf("drop role %s: %v", role, err)
		}
	})
	u, err := url.Parse(databaseURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("LoginAs needs a postgres:// URL, not %q", databaseURL)
	}
	u.User = url.User(role)
	return u.String()
}

// LegacyLogin makes a login as an application connects to its own tables beside the lifecycle
// (GitLab's one role): LoginAs groups[0] (lifecycle_app), also a member of the other groups
// (lifecycle_worker: GitLab's role runs its workers too), that reads and writes every table and
// uses every sequence of schema, with schema in its search_path. Granted as the server's superuser,
// after the schema's tables exist. Returns the login's URL.
func LegacyLogin(t testing.TB, databaseURL, schema string, groups ...string) string {
	t.Helper()
	if len(groups) == 0 {
		t.Fatal("LegacyLogin needs a group (lifecycle_app)")
	}
	login := LoginAs(t, databaseURL, groups[0])
	u, err := url.Parse(login)
	if err != nil {
		t.Fatal(err)
	}
	role, ns := pgx.Identifier{u.User.Username()}.Sanitize(), pgx.Identifier{schema}.Sanitize()
	grants := []string{
		"grant usage on schema " + ns + " to " + role,
		"grant select, insert, update, delete on all tables in schema " + ns + " to " + role,
		"grant usage on all sequences in schema " + ns + " to " + role,
		"alter role " + role + " set search_path = " + ns,
	}
	for _, g := range groups[1:] {
		grants = append(grants, "grant "+pgx.Identifier{g}.Sanitize()+" to "+role)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, urlFor(strings.TrimPrefix(u.Path, "/")))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, g := range grants {
		if _, err := conn.Exec(ctx, g); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
	}
	return login
}

// LaterMigrations are two migrations for after the embedded ones (MigrationsWith numbers them),
// for the tests of what every migration after the baseline must keep working: the first a step in
// a transaction whose down part takes ACCESS EXCLUSIVE on lifecycle.namespaces (dropping a
// constraint), the second a concurrent index build, statement by statement.
var LaterMigrations = []Migration{
	{"test_constraint", `alter table lifecycle.namespaces add constraint namespaces_test_named check (name <> '') not valid;
---- create above / drop below ----
alter table lifecycle.namespaces drop constraint namespaces_test_named;`},
	{"test_concurrent_index", `---- tern: disable-tx ----
drop index concurrently if exists lifecycle.namespaces_test_name_idx;
create index concurrently if not exists namespaces_test_name_idx on lifecycle.namespaces (name);
---- create above / drop below ----
---- tern: disable-tx ----
drop index concurrently if exists lifecycle.namespaces_test_name_idx;`},
}

// Migration is a migration's name (without its number) and text.
type Migration struct{ Name, SQL string }

// MigrationsWith is the embedded migrations and after them extra, numbered on from the newest.
func MigrationsWith(t testing.TB, extra []Migration) *migration.Set {
	t.Helper()
	embedded, err := migration.Load(migration.Migrations())
	if err != nil {
		t.Fatal(err)
	}
	files := fstest.MapFS{}
	err = fs.WalkDir(migration.Migrations(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migration.Migrations(), p)
		files[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range extra {
		files[fmt.Sprintf("%03d_%s.sql", embedded.Latest()+int32(i)+1, m.Name)] = &fstest.MapFile{Data: []byte(m.SQL)}
	}
	set, err := migration.Load(files)
	if err != nil {
		t.Fatal(err)
	}
	return set
}
