package testtools

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle/internal/migration"
)

// Cluster is a PostgreSQL 15 server of one test's own, for what the shared server of DATABASE_URL
// cannot be put through: a crash (pg_ctl stop -m immediate), a standby promoted in its place. It
// listens on 127.0.0.1 only, on a free port, with trust auth for sessions and replication,
// wal_level=logical (the syncer's slot) and room for WAL senders (a streaming standby). It is
// stopped and its directory removed when the test ends.
type Cluster struct {
	t    testing.TB
	bin  string // the server's programs: PG_BINDIR or /usr/lib/postgresql/15/bin
	dir  string // the cluster's own directory: data/ and server.log
	port int
}

// clusterPrefix names the directories of clusters, followed by the creating process id: a run
// killed before its cleanup leaves a server running, which the next NewCluster stops and removes.
const clusterPrefix = "nslifecycle-cluster-"

// NewCluster initdbs and starts a cluster. It skips the test when the server is not installed
// (scripts/db.sh install installs it).
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	c := &Cluster{t: t, bin: pgBindir()}
	if _, err := os.Stat(filepath.Join(c.bin, "initdb")); err != nil {
		t.Skipf("PostgreSQL's programs are not in %s (set PG_BINDIR, or run scripts/db.sh install): %v", c.bin, err)
	}
	sweepClusters()
	c.dir = clusterDir(t)
	t.Cleanup(c.remove)
	// --no-sync: the directory lives as long as the test; a machine crash loses nothing of value.
	c.runPG("initdb", "-D", c.data(), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync")
	c.appendConf(`# a test's own cluster (internal/testtools/cluster.go)
listen_addresses = '127.0.0.1'
# TCP only: a socket path under this directory could pass the 107-byte limit, and pg_ctl -w
# watches postmaster.pid, not a socket.
unix_socket_directories = ''
wal_level = logical
max_replication_slots = 20
max_wal_senders = 20
max_connections = 100
shared_buffers = 32MB
hot_standby = on
# A standby started from a base backup catches up from the primary's WAL, not an archive.
wal_keep_size = '256MB'
# What the tests crash is the server's process, not the machine: the kernel keeps what was written.
fsync = off
log_min_messages = warning
log_line_prefix = '%m [%p] %d '
`)
	c.writeFile("pg_hba.conf", `local   all          all                 trust
host    all          all   127.0.0.1/32  trust
local   replication  all                 trust
host    replication  all   127.0.0.1/32  trust
`)
	c.start()
	return c
}

// URL is a postgres:// URL of database dbname on this cluster, as the superuser postgres.
func (c *Cluster) URL(dbname string) string { return c.URLAs("postgres", dbname) }

// URLAs is URL with another role as its user (trust auth: no password).
func (c *Cluster) URLAs(role, dbname string) string {
	u := url.URL{Scheme: "postgres", User: url.User(role), Host: fmt.Sprintf("127.0.0.1:%d", c.port), Path: "/" + dbname,
		RawQuery: "sslmode=disable"}
	return u.String()
}

// CreateDatabase creates database name and migrates it (internal/migration: the migrations create
// the roles lifecycle_app and lifecycle_worker and the extensions they need), and returns its URL.
func (c *Cluster) CreateDatabase(t testing.TB, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	admin := c.connect(t, ctx, "postgres")
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "create database "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	conn := c.connect(t, ctx, name)
	defer conn.Close(context.Background())
	if _, err := migration.To(ctx, conn, migration.Latest, migration.Options{}); err != nil {
		t.Fatalf("migrate %s: %v", name, err)
	}
	return c.URL(name)
}

// Standby makes a hot standby of this cluster (pg_basebackup -R -X stream: a copy that streams the
// primary's WAL from where the copy ends), starts it and waits until it streams. It is stopped and
// removed when the test ends.
func (c *Cluster) Standby(t testing.TB) *Cluster {
	t.Helper()
	s := &Cluster{t: t, bin: c.bin, dir: clusterDir(t)}
	t.Cleanup(s.remove)
	// -c fast: a checkpoint now, not one spread over checkpoint_timeout.
	s.runPG("pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(c.port), "-U", "postgres", "-D", s.data(),
		"-R", "-X", "stream", "-c", "fast", "--no-sync")
	s.start()
	s.eventually(t, "the standby streams from the primary", func(ctx context.Context, conn *pgx.Conn) (bool, error) {
		var streaming bool
		err := conn.QueryRow(ctx, `select exists (select from pg_stat_wal_receiver where status = 'streaming')`).Scan(&streaming)
		return streaming, err
	})
	return s
}

// StopImmediate stops the server as a crash would: no shutdown checkpoint, every session cut off,
// nothing more sent to a standby.
func (c *Cluster) StopImmediate() {
	c.t.Helper()
	c.runPG("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "-t", "60", "stop")
}

// Promote ends a standby's recovery: it becomes a primary, open for writes (pg_ctl waits for it).
func (c *Cluster) Promote() {
	c.t.Helper()
	c.runPG("pg_ctl", "-D", c.data(), "-w", "-t", "60", "promote")
}

// WaitReplayed waits until this standby has replayed all the WAL primary has written so far
// (pg_current_wal_lsn): everything committed there before the call is visible here.
func (c *Cluster) WaitReplayed(t testing.TB, primary *Cluster) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := primary.connect(t, ctx, "postgres")
	var lsn string
	err := p.QueryRow(ctx, `select pg_current_wal_lsn()::text`).Scan(&lsn)
	p.Close(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c.eventually(t, "the standby replays the primary's WAL up to "+lsn, func(ctx context.Context, conn *pgx.Conn) (bool, error) {
		var done bool
		err := conn.QueryRow(ctx, `select coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false)`, lsn).Scan(&done)
		return done, err
	})
}

// Log is the tail of the server's log (for a failed test's report).
func (c *Cluster) Log() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
	return tail(string(b), 30)
}

// ServerLog is the server's whole log so far (for a test that reads what the server logged, e.g.
// with log_connections on: who connected).
func (c *Cluster) ServerLog() string {
	b, err := os.ReadFile(filepath.Join(c.dir, "server.log"))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(b)
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

// start starts the server on a free port, waiting until it accepts sessions (pg_ctl -w). The port
// is free when chosen, not reserved: another process may take it first, so up to three are tried.
func (c *Cluster) start() {
	c.t.Helper()
	var err error
	for range 3 {
		c.port = freePort(c.t)
		// The last setting of a name wins: an earlier port line (the primary's, in a base backup's
		// copy of postgresql.conf) is overridden.
		c.appendConf(fmt.Sprintf("port = %d\n", c.port))
		if err = c.pg("pg_ctl", "-D", c.data(), "-l", filepath.Join(c.dir, "server.log"), "-w", "-t", "60", "start"); err == nil {
			return
		}
	}
	c.t.Fatalf("start the cluster in %s: %v\n%s", c.dir, err, c.Log())
}

// remove stops the server, if it runs, and removes its directory.
func (c *Cluster) remove() {
	if c.t.Failed() {
		c.t.Logf("server log of %s (last lines):\n%s", c.dir, c.Log())
	}
	if _, err := os.Stat(filepath.Join(c.data(), "postmaster.pid")); err == nil {
		_ = c.pg("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "-t", "60", "stop")
	}
	_ = os.RemoveAll(c.dir)
}

// eventually polls cond on a fresh session (a standby may refuse sessions a moment) for up to a
// minute.
func (c *Cluster) eventually(t testing.TB, what string, cond func(context.Context, *pgx.Conn) (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	var last error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		if err == nil {
			var ok bool
			ok, err = cond(ctx, conn)
			conn.Close(context.Background())
			if err == nil && ok {
				cancel()
				return
			}
		}
		cancel()
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out waiting until %s (last error: %v)\n%s", what, last, c.Log())
}

func (c *Cluster) connect(t testing.TB, ctx context.Context, dbname string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, c.URL(dbname))
	if err != nil {
		t.Fatalf("connect to %s: %v", dbname, err)
	}
	return conn
}

// runPG runs one of the server's programs, failing the test with its output when it fails.
func (c *Cluster) runPG(program string, args ...string) {
	c.t.Helper()
	if err := c.pg(program, args...); err != nil {
		c.t.Fatal(err)
	}
}

// pg runs one of the server's programs as the server's OS user: as root, that is postgres, since
// the server refuses to run as root (and the files it writes must be its own).
func (c *Cluster) pg(program string, args ...string) error {
	cmd := pgCommand(filepath.Join(c.bin, program), args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", program, strings.Join(args, " "), err, out)
	}
	return nil
}

func pgCommand(path string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = "/" // a working directory postgres cannot enter (under /root) draws a warning
	return cmd
}

// appendConf appends to postgresql.conf. The file is opened, not created, so it stays the server
// user's.
func (c *Cluster) appendConf(text string) {
	c.t.Helper()
	f, err := os.OpenFile(filepath.Join(c.data(), "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		c.t.Fatal(err)
	}
}

// writeFile replaces the content of a file initdb made (keeping its owner).
func (c *Cluster) writeFile(name, text string) {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.data(), name), []byte(text), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

func pgBindir() string {
	if d := os.Getenv("PG_BINDIR"); d != "" {
		return d
	}
	return "/usr/lib/postgresql/15/bin"
}

// clusterBase is where clusters live: as root, /var/tmp, which the postgres user can reach (a test's
// t.TempDir may be under a home directory it cannot enter); otherwise the usual temporary directory.
func clusterBase() string {
	if os.Geteuid() == 0 {
		return "/var/tmp"
	}
	return os.TempDir()
}

// clusterDir makes a fresh directory for one cluster, owned by the server's OS user.
func clusterDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp(clusterBase(), fmt.Sprintf("%s%d-", clusterPrefix, os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root, the server runs as postgres: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sweepClusters stops and removes the clusters of test processes that are gone (killed before their
// cleanup ran), so their servers do not run on forever.
func sweepClusters() {
	dirs, _ := filepath.Glob(filepath.Join(clusterBase(), clusterPrefix+"*"))
	for _, dir := range dirs {
		pidText, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(dir), clusterPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || processAlive(pid) {
			continue
		}
		_ = pgCommand(filepath.Join(pgBindir(), "pg_ctl"), "-D", filepath.Join(dir, "data"), "-m", "immediate", "-w", "stop").Run()
		_ = os.RemoveAll(dir)
	}
}

func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
