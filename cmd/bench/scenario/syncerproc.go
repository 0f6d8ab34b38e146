package scenario

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// syncerProc is cmd/syncer running beside a scenario, on a slot of the scenario's, with its
// defaults but for no HTTP listener; its log goes to the scratch directory (shown when it fails).
// Each scenario has a slot of its own, dropped at its end: a later scenario's syncer starts with
// no backlog of what happened in between (fixtures, sweeps).
type syncerProc struct {
	cmd  *exec.Cmd
	log  string
	done chan error
}

func (e *env) startSyncer(ctx context.Context, slot string, args ...string) (*syncerProc, error) {
	// Streaming once it says so: a slot is listed (active) while it is still being created, which
	// waits for the transactions running then; what commits before it is ready is never decoded.
	return e.launchSyncer(ctx, slot, `"msg":"streaming"`, args...)
}

// startStandby starts a syncer on a slot another holds, and waits until it says it is the standby.
func (e *env) startStandby(ctx context.Context, slot string, args ...string) (*syncerProc, error) {
	return e.launchSyncer(ctx, slot, `"msg":"standby:`, args...)
}

func (e *env) launchSyncer(ctx context.Context, slot, ready string, args ...string) (*syncerProc, error) {
	if e.cfg.Syncer == "" {
		return nil, fmt.Errorf("no syncer binary (-syncer)")
	}
	logPath := filepath.Join(e.cfg.ScratchDir, fmt.Sprintf("syncer-%d.log", time.Now().UnixNano()))
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmd := exec.Command(e.cfg.Syncer, append([]string{"-slot", slot, "-listen", "", "-log-format", "json"}, args...)...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+e.cfg.DatabaseURL)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &syncerProc{cmd: cmd, log: logPath, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	if err := p.waitFor(ready, 2*time.Minute); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// waitFor waits until the syncer's log has a line containing s.
func (p *syncerProc) waitFor(s string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		if b, err := os.ReadFile(p.log); err == nil && strings.Contains(string(b), s) {
			return nil
		}
		select {
		case err := <-p.done:
			p.done <- err
			return fmt.Errorf("the syncer exited (%v) before it logged %s:\n%s", err, s, p.tail())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the syncer did not log %s in %s:\n%s", s, limit, p.tail())
		}
	}
}

// stop ends the syncer as systemd would (SIGTERM), killing it if it does not exit in 30 s.
func (p *syncerProc) stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		p.done <- err
		if err != nil {
			return fmt.Errorf("the syncer exited with %v:\n%s", err, p.tail())
		}
		return nil
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		return fmt.Errorf("the syncer did not stop in 30 s after SIGTERM")
	}
}

// kill ends the syncer at once (SIGKILL), as a crash would.
func (p *syncerProc) kill() {
	_ = p.cmd.Process.Kill()
	err := <-p.done
	p.done <- err
}

func (p *syncerProc) tail() string {
	b, _ := os.ReadFile(p.log)
	return tail(string(b), 15)
}
