package scenario

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// pgbench runs PostgreSQL's pgbench with a custom script against the bench database and reads back
// its throughput and every transaction's latency (from its per-transaction log).
type pgbench struct {
	bin string // the pgbench binary
	url string
	dir string // scratch directory for scripts and logs
}

type pgbenchRun struct {
	name     string // scratch file names
	script   string
	clients  int
	duration time.Duration
	rate     int // transactions per second in all (pgbench --rate); 0: as fast as possible
	vars     map[string]string
}

type pgbenchResult struct {
	tps       float64
	latencies []time.Duration // one per transaction, from the log
	// Per-transaction completion times (Unix), for scenarios that match them to other events.
	ends []time.Time
}

var tpsLine = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)

func (p pgbench) run(ctx context.Context, r pgbenchRun) (*pgbenchResult, error) {
	dir, err := os.MkdirTemp(p.dir, r.name+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "script.sql")
	if err := os.WriteFile(script, []byte(r.script), 0o644); err != nil {
		return nil, err
	}
	args := []string{"-n", "-M", "prepared", "-c", strconv.Itoa(r.clients), "-j", strconv.Itoa(min(r.clients, 2)),
		"-T", strconv.Itoa(max(1, int(r.duration.Seconds()))), "-f", script, "-l", "--log-prefix", filepath.Join(dir, "log")}
	if r.rate > 0 {
		args = append(args, "-R", strconv.Itoa(r.rate))
	}
	for k, v := range r.vars {
		args = append(args, "-D", k+"="+v)
	}
	args = append(args, p.url)
	cmd := exec.CommandContext(ctx, p.bin, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("pgbench %s: %w\n%s", r.name, err, tail(out.String(), 20))
	}
	m := tpsLine.FindStringSubmatch(out.String())
	if m == nil {
		return nil, fmt.Errorf("pgbench %s: no tps line in:\n%s", r.name, tail(out.String(), 20))
	}
	res := &pgbenchResult{}
	res.tps, _ = strconv.ParseFloat(m[1], 64)
	logs, _ := filepath.Glob(filepath.Join(dir, "log.*"))
	for _, l := range logs {
		if err := readPgbenchLog(l, res); err != nil {
			return nil, err
		}
	}
	if len(res.latencies) == 0 {
		return nil, fmt.Errorf("pgbench %s: no transactions logged:\n%s", r.name, tail(out.String(), 20))
	}
	return res, nil
}

// readPgbenchLog reads lines "client_id transaction_no time script_no time_epoch time_us [...]",
// time being the transaction's latency in microseconds.
func readPgbenchLog(path string, res *pgbenchResult) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 {
			continue
		}
		us, err1 := strconv.ParseInt(fields[2], 10, 64)
		sec, err2 := strconv.ParseInt(fields[4], 10, 64)
		usec, err3 := strconv.ParseInt(fields[5], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return fmt.Errorf("pgbench log %s: bad line %q", path, sc.Text())
		}
		res.latencies = append(res.latencies, time.Duration(us)*time.Microsecond)
		res.ends = append(res.ends, time.Unix(sec, usec*1000))
	}
	return sc.Err()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
