package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// peakRSS is a process's peak resident set (VmHWM), in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/<pid>/status")
	return 0
}

// A burst of logical messages with the fact prefix, emitted by a login with no grants in one
// transaction, costs the syncer nothing but their bytes: written after
// lifecycle.fact_message_horizon, each is skipped unread (counted as ignored), none is held until
// the commit (its peak memory grows by a few megabytes, where it grew by half a gigabyte for
// 300,000), and the change after them is audited as soon as any other.
func TestABurstOfMessagesWithTheFactPrefixCostsTheSyncerNothing(t *testing.T) {
	e := newEnv(t)
	stranger := e.login("")
	org := e.insert(nil, "organization", "burst")
	e.member(org, 21, 50)
	e.start()
	e.caughtUp()
	const ignored = "lifecycle_syncer_messages_ignored_total"
	before, _ := e.series(ignored)
	rssBefore := peakRSS(t, e.cmd.Process.Pid)

	const burst = 200_000
	// A well-formed fact with the schema's MAC would be adopted before the horizon; after it, not
	// even read. The stranger cannot sign one, so it sends what it can: the right shape.
	payload := fmt.Sprintf(`{"action": "archived", "namespace_id": %d, "traversal_ids": [%d], "actor_id": 21, "details": {"pad": "%s"}, "mac": "00"}`,
		org, org, strings.Repeat("x", 1000))
	if _, err := stranger.Exec(e.ctx, `select count(pg_logical_emit_message(true, 'nslifecycle.fact', $1::text)) from generate_series(1, $2::int)`,
		payload, burst); err != nil {
		t.Fatal(err)
	}
	e.caughtUp()
	if v, _ := e.series(ignored); v-before != burst {
		t.Errorf("%s grew by %v, want %d", ignored, v-before, burst)
	}
	var archived int
	if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.audit_events where action = 'archived' and namespace_id = $1`, org).
		Scan(&archived); err != nil || archived != 0 {
		t.Fatalf("%d archived audit rows (%v): the messages are no facts", archived, err)
	}
	grown := peakRSS(t, e.cmd.Process.Pid) - rssBefore
	t.Logf("the syncer's peak memory grew by %.1f MB over %d messages", float64(grown)/(1<<20), burst)
	if grown > 64<<20 {
		t.Errorf("the syncer's peak memory grew by %d MB over %d messages of 1 kB: they were held", grown>>20, burst)
	}
}
