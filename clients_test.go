package nslifecycle_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
	"github.com/nslifecycle/nslifecycle/internal/testtools"
)

const (
	clientsDoc = "docs/clients.md"
	nodePG     = "pg@8.23.1" // node-postgres, installed by npm into a cache directory
)

// fence is one fenced block of a Markdown file.
type fence struct {
	lang, body string
	line       int // of the opening fence
}

func fences(t *testing.T, path string) []fence {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []fence
	var cur *fence
	var body strings.Builder
	for i, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &fence{lang: strings.TrimPrefix(trimmed, "```"), line: i + 1}
			body.Reset()
		case cur != nil && trimmed == "```":
			cur.body = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: a fenced block is not closed", path, cur.line)
	}
	return out
}

// example is a client example of docs/clients.md and the output the page says it prints.
type example struct {
	fence
	want string
}

// clientExamples returns the page's setup (its ```sql blocks) and its runnable examples: every
// ```sh, ```python and ```js block, each of which must be followed by a ```text block with its
// output.
func clientExamples(t *testing.T) (setup string, examples []example) {
	t.Helper()
	fs := fences(t, clientsDoc)
	for i, f := range fs {
		switch f.lang {
		case "sql":
			setup += f.body
		case "sh", "python", "js":
			if i+1 >= len(fs) || fs[i+1].lang != "text" {
				t.Fatalf("%s:%d: a ```%s example without a ```text block of its output right after it", clientsDoc, f.line, f.lang)
			}
			examples = append(examples, example{fence: f, want: fs[i+1].body})
		}
	}
	if setup == "" || len(examples) == 0 {
		t.Fatalf("%s: no setup or no examples found", clientsDoc)
	}
	return setup, examples
}

// runners says how an example of each language runs: psql scripts with sh, Python with a python3
// that has psycopg, JavaScript with node and pg. Each needs its programs installed; a missing one
// is installed or the test skipped (testtools).
type runners struct {
	python, node, nodeDir string
}

func newRunners(t *testing.T, langs map[string]bool) runners {
	t.Helper()
	var r runners
	if langs["sh"] {
		testtools.Command(t, "psql", "postgresql-client")
	}
	if langs["python"] {
		r.python = testtools.PythonWithPsycopg(t)
	}
	if langs["js"] {
		r.nodeDir, r.node = testtools.NodeModules(t, nodePG)
	}
	return r
}

// run runs one example's code with DATABASE_URL set and returns what it printed (stdout and
// stderr together) and its error.
func (r runners) run(t *testing.T, lang, code, databaseURL string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var cmd *exec.Cmd
	switch lang {
	case "sh":
		cmd = exec.CommandContext(ctx, "sh", "-c", code)
	case "python":
		cmd = exec.CommandContext(ctx, r.python, "-c", code)
	case "js":
		f, err := os.CreateTemp(r.nodeDir, "example-*.mjs") // beside node_modules: ES modules resolve from there
		if err != nil {
			t.Fatal(err)
		}
		defer os.Remove(f.Name())
		if _, err := f.WriteString(code); err != nil {
			t.Fatal(err)
		}
		f.Close()
		cmd = exec.CommandContext(ctx, r.node, f.Name())
	default:
		t.Fatalf("no runner for ```%s", lang)
	}
	// Only the URL: no PG* variable of the caller's may change where the example connects.
	env := []string{"DATABASE_URL=" + databaseURL}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// seededDatabase is a fresh migrated database holding the page's setup.
func seededDatabase(t *testing.T, setup string) string {
	t.Helper()
	u := dbtest.NewDatabase(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, setup); err != nil {
		t.Fatalf("the setup of %s: %v", clientsDoc, err)
	}
	return u
}

func databaseName(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(p.Path, "/")
}

// normalize drops trailing blanks of lines (psql pads its table header; editors strip them from
// the page) and blank lines at the end.
func normalize(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func checkOutput(t *testing.T, e example, got string, err error, how string) {
	t.Helper()
	if err != nil || normalize(got) != normalize(e.want) {
		t.Errorf("%s:%d (```%s) %s: err %v\nprinted:\n%s\nthe page says:\n%s", clientsDoc, e.line, e.lang, how, err, got, e.want)
	}
}

func langs(examples []example) map[string]bool {
	m := map[string]bool{}
	for _, e := range examples {
		m[e.lang] = true
	}
	return m
}

// Every client example in docs/clients.md (psql, Python with psycopg, Node with pg) runs against a
// fresh database holding the page's tree and prints exactly the output the page shows; then again
// through a real PgBouncer in transaction mode, with one server connection, so that every
// transaction of every client shares it (what goes wrong there, goes wrong every time).
func TestClientExamplesInTheDocsRun(t *testing.T) {
	setup, examples := clientExamples(t)
	r := newRunners(t, langs(examples))
	for _, e := range examples {
		t.Run(fmt.Sprintf("line %d %s direct", e.line, e.lang), func(t *testing.T) {
			got, err := r.run(t, e.lang, e.body, seededDatabase(t, setup))
			checkOutput(t, e, got, err, "run directly")
		})
	}
	bouncer := startTransactionPooler(t, "")
	for _, e := range examples {
		t.Run(fmt.Sprintf("line %d %s through PgBouncer %s transaction mode", e.line, e.lang, bouncer.Version), func(t *testing.T) {
			db := databaseName(t, seededDatabase(t, setup))
			got, err := r.run(t, e.lang, e.body, bouncer.URL(db, ""))
			checkOutput(t, e, got, err, "through PgBouncer")
			if t.Failed() {
				t.Logf("PgBouncer's log:\n%s", bouncer.Log())
			}
		})
	}
}

// What docs/clients.md says about PgBouncer in transaction mode, shown on a real PgBouncer with
// one server connection: each client's default breaks where the page says it does, and the
// setting the page gives fixes it. PgBouncer before 1.21 (Debian 12 ships 1.18) keeps no track of
// protocol-level prepared statements, so a statement one client prepared stays on the server
// connection, and the next client that prepares the same name there is refused (42P05).
func TestPgBouncerTransactionModeNeedsTheClientSettings(t *testing.T) {
	setup, examples := clientExamples(t)
	bouncer := startTransactionPooler(t, "0")
	t.Logf("PgBouncer %s, transaction mode, one server connection", bouncer.Version)

	t.Run("psycopg prepare_threshold", func(t *testing.T) {
		var e *example
		for i := range examples {
			if examples[i].lang == "python" && strings.Contains(examples[i].body, "prepare_threshold=None") {
				e = &examples[i]
			}
		}
		if e == nil {
			t.Fatalf("%s has no Python example with prepare_threshold=None", clientsDoc)
		}
		r := newRunners(t, map[string]bool{"python": true})
		without := strings.ReplaceAll(e.body, ", prepare_threshold=None", "")
		if without == e.body {
			t.Fatal("could not take prepare_threshold=None out of the example")
		}
		got, err := r.run(t, "python", without, bouncer.URL(databaseName(t, seededDatabase(t, setup)), ""))
		t.Logf("without prepare_threshold=None: err %v\n%s", err, got)
		if err == nil || !strings.Contains(got, "DuplicatePreparedStatement") || !strings.Contains(got, `prepared statement "_pg3_0" already exists`) {
			t.Errorf("without prepare_threshold=None the example should fail with DuplicatePreparedStatement; err %v:\n%s", err, got)
		}
		got, err = r.run(t, "python", e.body, bouncer.URL(databaseName(t, seededDatabase(t, setup)), ""))
		t.Logf("with prepare_threshold=None: err %v\n%s", err, got)
		checkOutput(t, *e, got, err, "with prepare_threshold=None through PgBouncer")
	})

	t.Run("pgx default_query_exec_mode", func(t *testing.T) {
		db := databaseName(t, seededDatabase(t, setup))
		// Two connections, as two instances of an application: the second prepares the statement
		// the first left on the one server connection.
		twoClients := func(query string) error {
			ctx := context.Background()
			for i := range 2 {
				conn, err := pgx.Connect(ctx, bouncer.URL(db, query))
				if err != nil {
					return err
				}
				var state string
				err = conn.QueryRow(ctx, "select effective_state from lifecycle.namespace_effective_state($1)", int64(3)).Scan(&state)
				conn.Close(ctx)
				if err != nil {
					return fmt.Errorf("client %d: %w", i+1, err)
				}
				if state != "active" {
					return fmt.Errorf("client %d: effective state %q, want active", i+1, state)
				}
			}
			return nil
		}
		err := twoClients("")
		t.Logf("pgx default (cache_statement): %v", err)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "42P05" || !strings.Contains(pgErr.Message, "stmtcache_") {
			t.Errorf("pgx's default mode through transaction pooling: %v, want 42P05 on a stmtcache_ statement", err)
		}
		for _, mode := range []string{"simple_protocol", "exec"} {
			err := twoClients("default_query_exec_mode=" + mode)
			t.Logf("pgx default_query_exec_mode=%s: %v", mode, err)
			if err != nil {
				t.Errorf("default_query_exec_mode=%s: %v", mode, err)
			}
		}
	})

	t.Run("node-postgres named query", func(t *testing.T) {
		r := newRunners(t, map[string]bool{"js": true})
		db := databaseName(t, seededDatabase(t, setup))
		script := func(name string) string {
			return `import pg from "pg";
for (const i of [1, 2]) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query({ ` + name + `text: "select effective_state from lifecycle.namespace_effective_state($1)", values: [3] });
    console.log(i, rows[0].effective_state);
  } catch (err) {
    console.log(i, err.code, err.message);
  } finally {
    await client.end();
  }
}
`
		}
		got, err := r.run(t, "js", script(""), bouncer.URL(db, ""))
		t.Logf("unnamed (the default):\n%s", got)
		if err != nil || strings.TrimSpace(got) != "1 active\n2 active" {
			t.Errorf("node-postgres's unnamed queries through transaction pooling: err %v\n%s", err, got)
		}
		got, err = r.run(t, "js", script(`name: "effective-state", `), bouncer.URL(db, ""))
		t.Logf("named:\n%s", got)
		if err != nil || !strings.Contains(got, `2 42P05 prepared statement "effective-state" already exists`) {
			t.Errorf("a named query through transaction pooling should fail for the second client with 42P05: err %v\n%s", err, got)
		}
	})
}

// versionAtLeast compares a "major.minor[.patch]" version.
func versionAtLeast(v string, major, minor int) bool {
	var ma, mi int
	if _, err := fmt.Sscanf(v, "%d.%d", &ma, &mi); err != nil {
		return false
	}
	return ma > major || (ma == major && mi >= minor)
}

// startTransactionPooler starts PgBouncer in transaction mode with one server connection, so that
// every transaction of every client shares it. maxPrepared sets max_prepared_statements on a
// PgBouncer that has it (1.21 and later; "" leaves its default; "0" is 1.18's behaviour).
func startTransactionPooler(t *testing.T, maxPrepared string) *testtools.PgBouncer {
	t.Helper()
	settings := map[string]string{"default_pool_size": "1"}
	b := testtools.StartPgBouncer(t, dbtest.ServerURL(t), "transaction", settings)
	if maxPrepared != "" && versionAtLeast(b.Version, 1, 21) {
		settings["max_prepared_statements"] = maxPrepared
		b = testtools.StartPgBouncer(t, dbtest.ServerURL(t), "transaction", settings)
	}
	return b
}
