package syncer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// decodeMaxBytes is -fact-max-bytes in these tests: small enough for a seed just over it.
const decodeMaxBytes = 64 << 10

// The payloads of issue 14 that stalled the syncer, and what each must become.
var issuePayloads = []struct {
	name    string
	payload string
	reason  string // "" accepted
}{
	{"a \\u0000 escape", `{"action": "archived", "namespace_id": 1, "details": {"note": "a\u0000b"}}`, reasonUnreadable},
	{"a \\u0000 escape in a key", `{"action": "archived", "details": {"\u0000": 1}}`, reasonUnreadable},
	{"a lone high surrogate", `{"action": "archived", "details": {"note": "\ud800"}}`, reasonUnreadable},
	{"a lone low surrogate", `{"action": "\udc00"}`, reasonUnreadable},
	{"a high surrogate before another escape", `{"action": "\ud800\u0041"}`, reasonUnreadable},
	{"a number numeric cannot hold", `{"action": "archived", "details": {"n": 1e1000000}}`, reasonUnreadable},
	{"a number with too many digits after the point", `{"action": "archived", "details": {"n": 1e-16384}}`, reasonUnreadable},
	{"traversal_ids null", `{"action": "archived", "namespace_id": 1, "traversal_ids": null}`, reasonInvalidFact},
	{"invalid UTF-8", "{\"action\": \"archived\xff\"}", reasonUnreadable},
	{"a NUL byte, not JSON", "unreadable\x00payload", reasonUnreadable},
	{"not JSON", `archived namespace 1`, reasonUnreadable},
	{"a fact as fact_emit writes it", `{"mac": "00", "action": "archived", "details": {"event": "archive", "source": "api", "metadata": {}, "to_state": "archived", "from_state": "active", "state_update_id": 7}, "actor_id": 11, "full_path": "acme/eng", "occurred_at": "2026-11-24T10:00:00+00:00", "namespace_id": 3, "traversal_ids": [1, 3]}`, ""},
}

func TestIssuePayloadsDecodeToTheirVerdict(t *testing.T) {
	for _, c := range issuePayloads {
		f := decodeFact([]byte(c.payload), decodeMaxBytes)
		switch {
		case c.reason == "" && f.refused != nil:
			t.Errorf("%s: a refusal (%s: %v), want a fact", c.name, f.refused.reason, f.refused.err)
		case c.reason != "" && f.refused == nil:
			t.Errorf("%s: decoded as a fact %+v, want a refusal (%s)", c.name, f, c.reason)
		case c.reason != "" && f.refused.reason != c.reason:
			t.Errorf("%s: a refusal for %s (%v), want %s", c.name, f.refused.reason, f.refused.err, c.reason)
		}
	}
	f := decodeFact([]byte(issuePayloads[len(issuePayloads)-1].payload), decodeMaxBytes)
	if f.Action != "archived" || f.NamespaceID == nil || *f.NamespaceID != 3 || f.ActorID == nil || *f.ActorID != 11 ||
		!slices.Equal(f.Traversal, []int64{1, 3}) {
		t.Errorf("the fact's fields: %+v", f)
	}
}

// A message over the bound is a refusal without being read: it keeps its first 8192 bytes,
// in a copy of its own, and its whole size.
func TestAMessageOverTheBoundIsRefusedUnread(t *testing.T) {
	payload := []byte(`{"action": "archived", "details": {"blob": "` + strings.Repeat("x", 20000) + `"}}`)
	f := decodeFact(payload, 1024)
	if f.refused == nil || f.refused.reason != reasonTooLarge || f.raw != nil {
		t.Fatalf("decoded %+v, want a too_large refusal and no fact", f)
	}
	if len(f.refused.payload) != refusalPayloadMax || f.refused.size != len(payload) ||
		!bytes.Equal(f.refused.payload, payload[:refusalPayloadMax]) {
		t.Fatalf("kept %d bytes of %d (size %d), want the first %d", len(f.refused.payload), len(payload), f.refused.size, refusalPayloadMax)
	}
	payload[0] = '!'
	if f.refused.payload[0] != '{' {
		t.Fatal("the refusal's payload shares the receive buffer")
	}
	if f := decodeFact(payload[:1024], 1024); f.refused != nil && f.refused.reason == reasonTooLarge {
		t.Fatal("a message of exactly -fact-max-bytes is refused as too large")
	}
}

// Seeds of FuzzFactDecode beyond the issue's: each rule's edges, on both sides.
var fuzzSeeds = []string{
	`{"action": "table_truncated", "details": {"tables": ["lifecycle.namespace_redirects"], "cascade": false}}`,
	`{"action": "a"}`, `{"action": ""}`, `{"action": 1}`, `{"ACTION": "a"}`, `{"action": 1, "action": "a"}`, `{"action": "a", "action": 1}`,
	`{"action": "` + strings.Repeat("a", 128) + `"}`, `{"action": "` + strings.Repeat("a", 129) + `"}`,
	`{"action": "` + strings.Repeat("é", 64) + `"}`, `{"action": "` + strings.Repeat(`\u00e9`, 65) + `"}`,
	`{"action": "a", "namespace_id": 1e2}`, `{"action": "a", "namespace_id": 1.0}`, `{"action": "a", "namespace_id": 10e-1}`,
	`{"action": "a", "namespace_id": 1.5e1}`, `{"action": "a", "namespace_id": -0}`, `{"action": "a", "namespace_id": 0e99}`,
	`{"action": "a", "namespace_id": 9223372036854775807}`, `{"action": "a", "namespace_id": 9223372036854775808}`,
	`{"action": "a", "actor_id": -9223372036854775808}`, `{"action": "a", "actor_id": -9223372036854775809}`,
	`{"action": "a", "actor_id": 92233720368547758.07e2}`, `{"action": "a", "namespace_id": "1"}`, `{"action": "a", "namespace_id": true}`,
	`{"action": "a", "namespace_id": null, "actor_id": null}`, `{"action": "a", "traversal_ids": []}`,
	`{"action": "a", "traversal_ids": [1, "2"]}`, `{"action": "a", "traversal_ids": [1.0]}`, `{"action": "a", "traversal_ids": [[1]]}`,
	`{"action": "a", "traversal_ids": {"0": 1}}`, `{"action": "a", "details": null}`, `{"action": "a", "details": []}`,
	`{"action": "a", "full_path": 5}`, `{"action": "a", "full_path": null}`, `[]`, `"archived"`, `null`, `1`, ``, ` `,
	"\xef\xbb\xbf{\"action\": \"a\"}", `{"action": "a"}x`, `{"action": "a",}`, ` {"action" : "a"} `, "{\"action\":\t\"a\"\r\n}",
	`{"action": "a", "x": 0e-16383}`, `{"action": "a", "x": 0e-16384}`, `{"action": "a", "x": 0.0e-16383}`,
	`{"action": "a", "x": 1e131071}`, `{"action": "a", "x": 1e131072}`, `{"action": "a", "x": 9.99e131071}`,
	`{"action": "a", "x": 1.5e-16382}`, `{"action": "a", "x": 1.5e-16383}`, `{"action": "a", "x": 1e1073741822}`,
	`{"action": "a", "x": 0e1073741822}`, `{"action": "a", "x": 0e1073741823}`, `{"action": "a", "x": 0e-1073741822}`,
	`{"action": "a", "x": 1e-000000000000000000000001}`, `{"action": "a", "x": 01}`, `{"action": "a", "x": 1.}`,
	`{"action": "a", "x": -}`, `{"action": "a", "x": .5}`, `{"action": "a", "x": 1E+2}`,
	`{"action": "\ud800\udc00"}`, `{"action": "\ud800\ud800\udc00"}`, `{"action": "\ud800"}`, `{"action": "\uDBFF\uDFFF"}`,
	`{"action": "\uffff"}`, `{"action": "\u0001"}`, "{\"action\": \"a\x01\"}", `{"action": "a\/b\"\\\b\f\n\r\t"}`,
	`{"action": "\x"}`, `{"action": "\u12"}`, `{"action": "\u12G4"}`, `{"action": "a}`, `{"action": "a", "x": tru}`,
	`{"action": "a", "x": nulls}`, `{"action": "a", "x": [true, false, null]}`,
	`{"action": "a", "x": ` + strings.Repeat("[", factMaxDepth-1) + strings.Repeat("]", factMaxDepth-1) + `}`,
	`{"action": "a", "x": ` + strings.Repeat("[", factMaxDepth) + strings.Repeat("]", factMaxDepth) + `}`,
	strings.Repeat("[", 5000) + strings.Repeat("]", 5000),
	"{\"action\": \"a\", \"x\": \"\xed\xa0\x80\"}", "{\"action\": \"a\", \"x\": \"\xc0\xaf\"}", "{\"action\": \"a\", \"x\": \"\xf4\x90\x80\x80\"}",
}

// FuzzFactDecode: whatever the bytes, decodeFact gives a fact or a refusal with one of the
// fixed reasons and an explanation, never both; too_large exactly when the payload is over the
// bound, and keeping only its first bytes. With a database (DATABASE_URL), its verdict is
// PostgreSQL's: a fact is what jsonb takes and lifecycle.fact_message_adopt adopts, with the fields Go
// read; unreadable is what jsonb refuses (beside the nesting bound, this reader's own); invalid_fact
// is JSON that jsonb takes and lifecycle.fact_refusal refuses. Run: go test -fuzz FuzzFactDecode.
func FuzzFactDecode(f *testing.F) {
	for _, c := range issuePayloads {
		f.Add([]byte(c.payload))
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"action": "archived", "details": {"blob": "` + strings.Repeat("x", decodeMaxBytes) + `"}}`)) // over the bound
	var pool *pgxpool.Pool
	if os.Getenv("DATABASE_URL") != "" {
		pool = dbtest.Pool(f)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		got := decodeFact(payload, decodeMaxBytes)
		checkDecoded(t, payload, got)
		if pool != nil {
			checkWithPostgreSQL(t, pool, payload, got)
		}
	})
}

// checkDecoded: the properties that need no database.
func checkDecoded(t *testing.T, payload []byte, got fact) {
	t.Helper()
	if tooLarge := got.refused != nil && got.refused.reason == reasonTooLarge; tooLarge != (len(payload) > decodeMaxBytes) {
		t.Fatalf("%d bytes (bound %d): too_large %v", len(payload), decodeMaxBytes, tooLarge)
	}
	if got.refused == nil {
		if !bytes.Equal(got.raw, payload) || len(got.Action) < 1 || len(got.Action) > factActionMaxBytes {
			t.Fatalf("accepted %q as %+v: want its raw bytes and an action of 1 to %d bytes", payload, got, factActionMaxBytes)
		}
		return
	}
	d := got.refused
	if got.raw != nil || !slices.Contains([]string{reasonTooLarge, reasonUnreadable, reasonInvalidFact}, d.reason) || d.err == nil {
		t.Fatalf("refusal of %q: raw %q, reason %q, err %v: want no raw fact, a fixed reason and an explanation",
			payload, got.raw, d.reason, d.err)
	}
	if detail := d.detail(); detail == "" || !utf8.ValidString(detail) || strings.ContainsRune(detail, 0) ||
		len(detail) > refusalDetailMax+len("…") {
		t.Fatalf("refusal of %q: detail %q is not bounded NUL-free UTF-8", payload, detail)
	}
	if d.size != len(payload) || !bytes.Equal(d.payload, payload[:min(len(payload), refusalPayloadMax)]) {
		t.Fatalf("refusal of %q keeps %q of %d bytes", payload, d.payload, d.size)
	}
}

// checkWithPostgreSQL compares the verdict with PostgreSQL's: the payload reaches the server as
// bytes and is converted there, as the syncer's parameter is (text in the database's encoding).
func checkWithPostgreSQL(t *testing.T, pool *pgxpool.Pool, payload []byte, got fact) {
	t.Helper()
	if got.refused != nil && got.refused.reason == reasonTooLarge {
		return // not read: nothing for PostgreSQL to agree with
	}
	ctx := context.Background()
	var refusal *string
	err := pool.QueryRow(ctx, `select lifecycle.fact_refusal(pg_catalog.convert_from($1, 'UTF8')::jsonb)`, payload).Scan(&refusal)
	var pgErr *pgconn.PgError
	if err != nil && !errors.As(err, &pgErr) {
		t.Fatalf("%q: %v", payload, err)
	}
	castFails := err != nil
	switch {
	case got.refused != nil && got.refused.reason == reasonUnreadable:
		if !castFails && !errors.Is(got.refused.err, errTooDeep) {
			t.Fatalf("%q: Go finds it unreadable (%v), PostgreSQL's jsonb takes it", payload, got.refused.err)
		}
	case got.refused != nil && got.refused.reason == reasonInvalidFact:
		if castFails || refusal == nil {
			t.Fatalf("%q: Go finds it JSON but no fact (%v); PostgreSQL: cast error %v, fact_refusal %v", payload, got.refused.err, err, refusal)
		}
	case got.refused != nil:
		t.Fatalf("%q: a refusal for %s (%v) from the decoder", payload, got.refused.reason, got.refused.err)
	case castFails:
		t.Fatalf("%q: Go accepts it, PostgreSQL's jsonb refuses it: %v", payload, err)
	case refusal != nil:
		t.Fatalf("%q: Go accepts it, lifecycle.fact_refusal refuses it: %s", payload, *refusal)
	default:
		checkRecorded(t, pool, payload, got)
	}
}

// checkRecorded adopts an accepted fact with lifecycle.fact_message_adopt, rolled back: signed
// with the key (as fact_emit signed facts before migration 035), it must be adopted into the
// outbox with the action, namespace, actor and path of ids Go read; unsigned, it must not be.
func checkRecorded(t *testing.T, pool *pgxpool.Pool, payload []byte, got fact) {
	t.Helper()
	ctx := context.Background()
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var (
			signed, unsigned *int64
			action           string
			ns, actor        *int64
			path             []int64
		)
		err := tx.QueryRow(ctx, `
			with f as (select pg_catalog.convert_from($1, 'UTF8')::jsonb as fact)
			select lifecycle.fact_message_adopt(f.fact - 'mac' || pg_catalog.jsonb_build_object('mac', lifecycle.fact_mac(f.fact - 'mac')), pg_catalog.now()),
			       lifecycle.fact_message_adopt(f.fact - 'mac' || '{"mac": "0"}', pg_catalog.now())
			  from f`, payload).Scan(&signed, &unsigned)
		if err != nil {
			return err
		}
		if signed == nil || unsigned != nil {
			t.Fatalf("%q: adopted signed as %v, unsigned as %v; want a fact id and none", payload, deref(signed), deref(unsigned))
		}
		err = tx.QueryRow(ctx, `select f.action, f.namespace_id, f.actor_id, coalesce(f.traversal_ids, '{}') from lifecycle.facts f where f.id = $1`,
			*signed).Scan(&action, &ns, &actor, &path)
		if err != nil {
			return err
		}
		if action != got.Action || !equalPtr(ns, got.NamespaceID) || !equalPtr(actor, got.ActorID) ||
			!slices.Equal(path, got.Traversal) && !(len(path) == 0 && len(got.Traversal) == 0) {
			t.Fatalf("%q: adopted action %q namespace %v actor %v path %v; Go read %q %v %v %v",
				payload, action, deref(ns), deref(actor), path, got.Action, deref(got.NamespaceID), deref(got.ActorID), got.Traversal)
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("%q: Go accepts it, lifecycle.fact_message_adopt fails: %v", payload, err)
	}
}

var errRollback = errors.New("rolled back")

func equalPtr(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}
