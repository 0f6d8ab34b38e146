package scenario

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/migration"
)

// UpgradeResult is the upgrade scenario (issue 25): the newest migrations (those up to the
// database's version) applied down and up again while clients transition and read, one reader holding a transaction open across it. The
// calls that overlapped the migration are set against the same clients' calls before it.
type UpgradeResult struct {
	From       int32  `json:"from"` // down to this version and back up …
	To         int32  `json:"to"`   // … to this one, the database's (the newest, as make bench migrates)
	Migrations string `json:"migrations"`
	// Why the scenario measured nothing: no migration after the baseline to move down and up.
	Skipped       string  `json:"skipped,omitempty"`
	Writers       int     `json:"writers"` // clients toggling archive/unarchive through the API
	Readers       int     `json:"readers"` // clients reading namespace_effective_state
	HoldSeconds   float64 `json:"hold_seconds"`
	LockTimeoutMS float64 `json:"lock_timeout_ms"`
	// The lock_timeout of the steps' statements; absent from runs made before it was below
	// LockTimeoutMS (b102de8).
	StepLockTimeoutMS float64 `json:"step_lock_timeout_ms,omitempty"`

	Rounds []UpgradeRound `json:"rounds"`
	// Every call that overlapped a migration, all rounds; and the calls of the steady load before
	// each round's long reader opened, for comparison.
	ReadDuring  Latency `json:"read_during"`
	WriteDuring Latency `json:"write_during"`
	ReadBefore  Latency `json:"read_before"`
	WriteBefore Latency `json:"write_before"`
	// Calls the database refused (by SQLSTATE) while a migration ran, and at other times.
	ErrorsDuring map[string]int `json:"errors_during,omitempty"`
	ErrorsOther  map[string]int `json:"errors_other,omitempty"`
	// The first refusal of each SQLSTATE, its message and where it was raised, to say what refused.
	Refusals map[string]string `json:"refusals,omitempty"`
}

// UpgradeRound is one down-and-up under the load.
type UpgradeRound struct {
	DownSeconds float64 `json:"down_seconds"`
	UpSeconds   float64 `json:"up_seconds"`
	Retries     int     `json:"retries"`
}

// upgradeClients is the load: 8 clients, half of them writers, each pausing upgradePause
// after every call.
const (
	upgradeClients = 8
	upgradePause   = time.Millisecond
)

func runUpgrade(ctx context.Context, e *env) error {
	conn, err := connect(ctx, e.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	set := e.cfg.Migrations
	if set == nil {
		if set, err = migration.Load(migration.Migrations()); err != nil {
			return err
		}
	}
	// The database's version is the newest when make bench migrated it; a database moved to an
	// older version beforehand (-reuse) measures the migration that made that version instead.
	var latest int32
	if err := conn.QueryRow(ctx, `select version from `+migration.VersionTable).Scan(&latest); err != nil {
		return err
	}
	if latest == set.Baseline() && e.cfg.UpgradeFrom == 0 {
		// Only the baseline: going down from it removes everything, which no upgrade does.
		e.res.Upgrade = &UpgradeResult{From: latest, To: latest,
			Skipped: fmt.Sprintf("no migration after the baseline (schema %d): nothing to upgrade", latest)}
		e.log.Info("upgrade: " + e.res.Upgrade.Skipped)
		return nil
	}
	from := latest - 1
	if e.cfg.UpgradeFrom > 0 {
		from = int32(e.cfg.UpgradeFrom)
	}
	if from < set.Baseline() || from >= latest {
		return fmt.Errorf("-upgrade-from %d: want %d (the baseline) to %d", from, set.Baseline(), latest-1)
	}
	var names []string
	for v := from + 1; v <= latest; v++ {
		names = append(names, set.Step(v).Name)
	}
	hold := e.cfg.UpgradeHold
	if hold <= 0 {
		hold = 20 * time.Second
	}
	opts := migration.Options{Log: e.log}
	res := &UpgradeResult{From: from, To: latest, Migrations: strings.Join(names, " "), Writers: upgradeClients / 2,
		Readers: upgradeClients / 2, HoldSeconds: hold.Seconds(), LockTimeoutMS: float64(migration.DefaultLockTimeout.Milliseconds()),
		StepLockTimeoutMS: float64(migration.StepLockTimeout(migration.DefaultLockTimeout).Milliseconds()),
		ErrorsDuring:      map[string]int{}, ErrorsOther: map[string]int{}, Refusals: map[string]string{}}
	e.res.Upgrade = res

	// The raw floor's copies (baseline.sql: LIKE lifecycle.namespaces INCLUDING ALL) carry its
	// check constraints, partial indexes and defaults, which call the product's functions (the
	// predicates): a down part that drops one (045's) would be refused (2BP01) for a table that is
	// not the product's. The copies lose them; the scenarios that measure on them have run.
	if _, err := e.pool.Exec(ctx, `
		do $$
		declare
		  stmt text;
		begin
		  for stmt in
		    select distinct case d.classid
		             when 'pg_constraint'::regclass then
		               (select format('alter table %s drop constraint %I', c.conrelid::regclass, c.conname) from pg_constraint c where c.oid = d.objid)
		             when 'pg_attrdef'::regclass then
		               (select format('alter table %s alter column %I drop default', a.adrelid::regclass, t.attname)
		                  from pg_attrdef a join pg_attribute t on t.attrelid = a.adrelid and t.attnum = a.adnum where a.oid = d.objid)
		             else format('drop index %s', d.objid::regclass) end
		      from pg_depend d join pg_proc p on d.refclassid = 'pg_proc'::regclass and d.refobjid = p.oid
		     where p.pronamespace = 'lifecycle'::regnamespace
		       and (   (d.classid = 'pg_constraint'::regclass and exists (select from pg_constraint c where c.oid = d.objid and c.connamespace = 'lifecycle_bench'::regnamespace))
		            or (d.classid = 'pg_attrdef'::regclass and exists (select from pg_attrdef a join pg_class r on r.oid = a.adrelid where a.oid = d.objid and r.relnamespace = 'lifecycle_bench'::regnamespace))
		            or (d.classid = 'pg_class'::regclass and exists (select from pg_class c where c.oid = d.objid and c.relkind = 'i' and c.relnamespace = 'lifecycle_bench'::regnamespace)))
		  loop
		    execute stmt;
		  end loop;
		end
		$$`); err != nil {
		return fmt.Errorf("the copies' ties to the product's functions: %w", err)
	}
	if _, err := e.chooseTargets(ctx, res.Writers*perClient); err != nil {
		return err
	}
	var ids []int64
	rows, err := e.pool.Query(ctx, `select id from lifecycle.namespaces order by random() limit 5000`)
	if err != nil {
		return err
	}
	if ids, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
		return err
	}
	if err := e.settle(ctx); err != nil {
		return err
	}

	var readDuring, writeDuring, readBefore, writeBefore []time.Duration
	for round := range e.cfg.Rounds {
		l, err := startUpgradeLoad(ctx, e.cfg.DatabaseURL, res.Writers, res.Readers, ids)
		if err != nil {
			return err
		}
		loadStart := time.Now()
		r, window, err := upgradeRound(ctx, e, conn, set, from, latest, hold, opts)
		calls := l.stop()
		if err != nil {
			return fmt.Errorf("round %d: %w", round+1, err)
		}
		res.Rounds = append(res.Rounds, r)
		for _, c := range calls {
			if c.err != nil && c.err != context.Canceled {
				return fmt.Errorf("round %d: a client failed: %w", round+1, c.err)
			}
			before := c.start.Before(loadStart.Add(e.cfg.Duration))
			during := c.start.Before(window.end) && c.start.Add(c.took).After(window.start)
			if _, seen := res.Refusals[c.code]; c.code != "" && !seen {
				res.Refusals[c.code] = c.msg
			}
			switch {
			case during && c.code != "":
				res.ErrorsDuring[c.code]++
			case c.code != "":
				res.ErrorsOther[c.code]++
			case during && c.write:
				writeDuring = append(writeDuring, c.took)
			case during:
				readDuring = append(readDuring, c.took)
			case before && c.write:
				writeBefore = append(writeBefore, c.took)
			case before:
				readBefore = append(readBefore, c.took)
			}
		}
		e.log.Info("upgrade", "round", round+1, "from", from, "to", latest, "down_s", r.DownSeconds, "up_s", r.UpSeconds, "retries", r.Retries)
	}
	res.ReadDuring, res.WriteDuring = summarize(readDuring), summarize(writeDuring)
	res.ReadBefore, res.WriteBefore = summarize(readBefore), summarize(writeBefore)
	return e.resetTargets(ctx)
}

type window struct{ start, end time.Time }

// upgradeRound lets the load run alone for the run's duration, opens the long reader, and a second
// later moves the schema down to from and up to latest. The reader ends its transaction when its
// time is up, whatever the migration is doing (a migration may have to wait for it); the round
// returns once both are over.
func upgradeRound(ctx context.Context, e *env, conn *pgx.Conn, set *migration.Set, from, latest int32, hold time.Duration,
	opts migration.Options) (UpgradeRound, window, error) {
	var r UpgradeRound
	var w window
	if err := sleep(ctx, e.cfg.Duration); err != nil {
		return r, w, err
	}
	holder, err := connect(ctx, e.cfg.DatabaseURL)
	if err != nil {
		return r, w, err
	}
	defer holder.Close(context.WithoutCancel(ctx))
	tx, err := holder.Begin(ctx)
	if err != nil {
		return r, w, err
	}
	if _, err := tx.Exec(ctx, `select count(*) from lifecycle.namespaces where id < 100`); err != nil {
		tx.Rollback(ctx)
		return r, w, err
	}
	held := make(chan error, 1)
	go func() {
		err := sleep(ctx, hold)
		if err == nil {
			err = tx.Commit(ctx)
		} else {
			tx.Rollback(context.WithoutCancel(ctx))
		}
		held <- err
	}()
	migrated := func() error {
		if err := sleep(ctx, time.Second); err != nil {
			return err
		}
		w.start = time.Now()
		retries, err := set.To(ctx, conn, from, opts)
		r.Retries += retries
		if err != nil {
			return fmt.Errorf("down to %d: %w", from, err)
		}
		r.DownSeconds = round3(time.Since(w.start).Seconds())
		up := time.Now()
		retries, err = set.To(ctx, conn, latest, opts)
		r.Retries += retries
		if err != nil {
			return fmt.Errorf("up to %d: %w", latest, err)
		}
		w.end = time.Now()
		r.UpSeconds = round3(w.end.Sub(up).Seconds())
		return nil
	}()
	return r, w, errors.Join(migrated, <-held)
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// call is one client call: when it started, how long it took, and the SQLSTATE it failed with.
type call struct {
	start time.Time
	took  time.Duration
	write bool
	code  string
	msg   string // the refusal's message and context
	err   error  // a failure that is not the database's answer: the scenario fails
}

type upgradeLoad struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	calls  [][]call
	conns  []*pgx.Conn
}

// startUpgradeLoad starts writers toggling archive/unarchive on their targets through the API and
// readers asking namespace_effective_state of random namespaces, each on a connection of its own,
// a call after another with a millisecond between. A call the database refuses is recorded with its SQLSTATE and the client goes
// on.
func startUpgradeLoad(ctx context.Context, url string, writers, readers int, ids []int64) (*upgradeLoad, error) {
	l := &upgradeLoad{calls: make([][]call, writers+readers)}
	for range writers + readers {
		c, err := connect(ctx, url)
		if err != nil {
			l.close()
			return nil, err
		}
		l.conns = append(l.conns, c)
	}
	ctx, l.cancel = context.WithCancel(ctx)
	writeSQL := `select e.changed from lifecycle_bench.targets t join lifecycle.namespaces n on n.id = t.id
		cross join lateral lifecycle.namespace_event(t.id, case when n.state = 0 then 'archive' else 'unarchive' end, t.actor) e
		where t.slot = $1`
	readSQL := `select effective_state from lifecycle.namespace_effective_state($1)`
	for i, conn := range l.conns {
		write := i < writers
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			for ctx.Err() == nil {
				c := call{start: time.Now(), write: write}
				var err error
				if write {
					var changed bool
					err = conn.QueryRow(ctx, writeSQL, i*perClient+r.IntN(perClient)).Scan(&changed)
				} else {
					var state string
					err = conn.QueryRow(ctx, readSQL, ids[r.IntN(len(ids))]).Scan(&state)
				}
				c.took = time.Since(c.start)
				var pgErr *pgconn.PgError
				switch {
				case ctx.Err() != nil:
					return // cut off by stop: not a call that ended
				case errors.As(err, &pgErr):
					c.code = pgErr.Code
					c.msg = strings.TrimSpace(pgErr.Message + "; " + pgErr.Where)
				case err != nil:
					c.err = err
					l.calls[i] = append(l.calls[i], c)
					return
				}
				l.calls[i] = append(l.calls[i], c)
				// A pause between calls leaves the machine room (2 cores here): a slow call is then a
				// wait for a lock, not a queue for the CPU.
				time.Sleep(upgradePause)
			}
		}()
	}
	return l, nil
}

// stop ends the load and returns every call that ended.
func (l *upgradeLoad) stop() []call {
	l.cancel()
	l.wg.Wait()
	l.close()
	var all []call
	for _, c := range l.calls {
		all = append(all, c...)
	}
	return all
}

func (l *upgradeLoad) close() {
	for _, c := range l.conns {
		c.Close(context.Background())
	}
}
