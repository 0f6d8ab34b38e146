package testtools

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// PgBouncer is a PgBouncer process started for one test in front of a PostgreSQL server, every
// database passed through under its own name.
type PgBouncer struct {
	Version string // as the binary reports it, e.g. "1.18.0"
	port    int
	user    string
	log     *syncBuffer
}

// URL is a postgres:// URL of database db through this PgBouncer; query is added as it is
// ("prepare_threshold=…" is not libpq's, so callers add only what their client understands).
func (b *PgBouncer) URL(db, query string) string {
	u := url.URL{Scheme: "postgres", User: url.User(b.user), Host: fmt.Sprintf("127.0.0.1:%d", b.port), Path: "/" + db,
		RawQuery: "sslmode=disable"}
	if query != "" {
		u.RawQuery += "&" + query
	}
	return u.String()
}

// Log is what PgBouncer has logged so far.
func (b *PgBouncer) Log() string { return b.log.String() }

// StartPgBouncer starts pgbouncer (installing Debian's package when missing) on a free port of
// 127.0.0.1, in front of the server serverURL names, with pool_mode and any further [pgbouncer]
// settings. It is stopped when the test ends. As root it runs as the postgres user (PgBouncer
// refuses to run as root).
func StartPgBouncer(t testing.TB, serverURL, poolMode string, settings map[string]string) *PgBouncer {
	t.Helper()
	bin := Command(t, "pgbouncer", "pgbouncer")
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("pgbouncer --version: %v\n%s", err, out)
	}
	version := ""
	if m := regexp.MustCompile(`PgBouncer (\d+\.\d+(\.\d+)?)`).FindSubmatch(out); m != nil {
		version = string(m[1])
	}

	server, err := pgconn.ParseConfig(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "pgbouncer-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// Readable by the user PgBouncer switches to.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	target := fmt.Sprintf("host=%s port=%d user=%s", server.Host, server.Port, server.User)
	if server.Password != "" {
		target += " password=" + server.Password
	}
	if err := os.WriteFile(filepath.Join(dir, "users.txt"), []byte(fmt.Sprintf("%q \"\"\n", server.User)), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := map[string]string{
		"listen_addr":               "127.0.0.1",
		"unix_socket_dir":           "",
		"auth_type":                 "trust",
		"auth_file":                 filepath.Join(dir, "users.txt"),
		"pool_mode":                 poolMode,
		"max_client_conn":           "100",
		"ignore_startup_parameters": "extra_float_digits",
		"logfile":                   "",
		"pidfile":                   "",
	}
	for k, v := range settings {
		conf[k] = v
	}

	var runAs []string
	if os.Geteuid() == 0 {
		name := "nobody"
		if _, err := user.Lookup("postgres"); err == nil {
			name = "postgres"
		}
		runAs = []string{"-u", name}
	}

	for attempt := 0; ; attempt++ {
		port := freePort(t)
		conf["listen_port"] = strconv.Itoa(port)
		var ini strings.Builder
		fmt.Fprintf(&ini, "[databases]\n* = %s\n\n[pgbouncer]\n", target)
		keys := make([]string, 0, len(conf))
		for k := range conf {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&ini, "%s = %s\n", k, conf[k])
		}
		path := filepath.Join(dir, "pgbouncer.ini")
		if err := os.WriteFile(path, []byte(ini.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		b := &PgBouncer{Version: version, port: port, user: server.User, log: &syncBuffer{}}
		cmd := exec.Command(bin, append(runAs, path)...)
		cmd.Stdout, cmd.Stderr = b.log, b.log
		dieWithParent(cmd)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		if b.ready(exited) {
			t.Cleanup(func() {
				_ = cmd.Process.Signal(os.Interrupt) // SIGINT: a fast shutdown
				select {
				case <-exited:
				case <-time.After(10 * time.Second):
					_ = cmd.Process.Kill()
					<-exited
				}
			})
			return b
		}
		_ = cmd.Process.Kill()
		<-exited
		if attempt == 2 {
			t.Fatalf("pgbouncer did not start:\n%s\n%s", ini.String(), b.Log())
		}
	}
}

// ready waits until PgBouncer accepts a PostgreSQL session (or has exited).
func (b *PgBouncer) ready(exited <-chan struct{}) bool {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, b.URL("postgres", "default_query_exec_mode=simple_protocol"))
		if err == nil {
			_, err = conn.Exec(ctx, "select 1")
			conn.Close(ctx)
		}
		cancel()
		if err == nil {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// syncBuffer collects a process's output while tests read it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
