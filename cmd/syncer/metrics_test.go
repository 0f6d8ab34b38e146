package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
)

// workerURL is the test database's URL as a new LOGIN REPLICATION role that is a member of
// lifecycle_worker and nothing else (the syncer's least privilege), dropped when the test ends.
func (e *env) workerURL() string {
	e.t.Helper()
	role := "nslt_syncer_" + suffix()
	if _, err := e.pool.Exec(e.ctx, fmt.Sprintf(`create role %s login replication in role lifecycle_worker`, role)); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		if _, err := e.pool.Exec(context.Background(), "drop role if exists "+role); err != nil {
			e.t.Logf("drop role %s: %v", role, err)
		}
	})
	u, err := url.Parse(e.url)
	if err != nil {
		e.t.Fatal(err)
	}
	u.User = url.User(role)
	return u.String()
}

// The first scrape of /metrics, as soon as the syncer answers, has every counter the operations
// guide names, each series at 0, the audit counter with every action of the rules
// (lifecycle.state_transitions.audit_action): increase() and the counter alerts of
// deploy/prometheus/lifecycle.rules.yml see nothing of a series that appears at its first event.
// No counter is on /metrics that the guide does not name. The syncer runs with its least
// privilege.
func TestEveryCounterIsOnTheFirstScrapeAtZero(t *testing.T) {
	e := newEnv(t)
	var waiting int
	if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.facts`).Scan(&waiting); err != nil || waiting != 0 {
		t.Fatalf("facts waiting before the start: %d (%v), want none (they would be counted)", waiting, err)
	}
	superURL := e.url
	e.url = e.workerURL()
	e.launch()
	e.url = superURL
	var body string
	e.eventually("/metrics answers", 3*time.Minute, func() bool {
		resp, err := http.Get("http://" + e.addr + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		body = string(b)
		return err == nil && resp.StatusCode == http.StatusOK
	})

	types := map[string]string{}     // family: its type
	series := map[string][]string{}  // family: its series' labels
	values := map[string][]float64{} // family: its series' values
	for _, line := range strings.Split(body, "\n") {
		if f, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(f, " ")
			types[name] = typ
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.IndexAny(line, "{ ")
		j := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[j+1:], 64)
		if i < 0 || err != nil {
			t.Fatalf("unreadable line %q", line)
		}
		name := line[:i]
		series[name] = append(series[name], line[i:j])
		values[name] = append(values[name], v)
	}
	// Which build runs: the release and schema -version prints, as labels of a gauge of 1.
	if info := series["lifecycle_build_info"]; len(info) != 1 || values["lifecycle_build_info"][0] != 1 ||
		!strings.Contains(info[0], `binary="syncer"`) || !strings.Contains(info[0], `release="`+buildinfo.Release()+`"`) {
		t.Errorf("lifecycle_build_info on the first scrape: %v = %v", info, values["lifecycle_build_info"])
	}
	var exported []string
	for name, typ := range types {
		if typ == "counter" && strings.HasPrefix(name, "lifecycle_") {
			exported = append(exported, name)
		}
	}
	guide, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile(`\blifecycle_syncer_[a-z_]+_total\b`).FindAllString(string(guide), -1) {
		if !slices.Contains(documented, m) {
			documented = append(documented, m)
		}
	}
	slices.Sort(exported)
	slices.Sort(documented)
	if len(documented) < 8 || !slices.Equal(exported, documented) {
		t.Fatalf("counters on the first scrape %v, named in docs/operations.md %v", exported, documented)
	}
	for _, name := range exported {
		if len(series[name]) == 0 {
			t.Errorf("%s: a family without a series", name)
		}
		for k, v := range values[name] {
			if v != 0 {
				t.Errorf("%s%s = %v on the first scrape, want 0", name, series[name][k], v)
			}
		}
	}
	rows, err := e.pool.Query(e.ctx, `select distinct audit_action from lifecycle.state_transitions order by 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var action string
		if err := rows.Scan(&action); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(series["lifecycle_syncer_audit_events_total"], fmt.Sprintf(`{action=%q}`, action)) {
			t.Errorf("lifecycle_syncer_audit_events_total{action=%q} not on the first scrape: %v", action, series["lifecycle_syncer_audit_events_total"])
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	e.kill()
}
