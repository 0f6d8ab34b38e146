package scenario

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Results is one bench run: what it ran on, the data, every scenario's figures with their
// baselines, and the targets judged against them. Written as JSON; docs/benchmarks.md is rendered
// from it.
type Results struct {
	Label    string         `json:"label"`
	Started  time.Time      `json:"started"`
	Finished time.Time      `json:"finished"`
	Config   map[string]any `json:"config"`
	Machine  Machine        `json:"machine"`
	Data     Data           `json:"data"`

	EffectiveStates      *EffectiveStatesResult `json:"effective_states,omitempty"`
	EffectiveStatesBurst *BurstResult           `json:"effective_states_burst,omitempty"`
	EffectiveState       []EffectiveRun         `json:"effective_state,omitempty"`
	Transitions          *TransitionsInfo       `json:"transitions,omitempty"`
	Scheduling           []SchedulingRun        `json:"scheduling,omitempty"`
	Transfers            []TransferRun          `json:"transfers,omitempty"`
	Sweeper              *SweeperResult         `json:"sweeper,omitempty"`
	HardDeletes          []HardDeleteRun        `json:"hard_deletes,omitempty"`
	Syncer               *SyncerResult          `json:"syncer,omitempty"`
	Takeover             *TakeoverResult        `json:"takeover,omitempty"`
	Import               *ImportResult          `json:"import,omitempty"`
	AdoptCheck           *AdoptCheckResult      `json:"adopt_check,omitempty"`
	Adoption             *AdoptionResult        `json:"adoption,omitempty"`
	Upgrade              *UpgradeResult         `json:"upgrade,omitempty"`
	Vacuum               *VacuumResult          `json:"vacuum,omitempty"`

	Targets []TargetCheck `json:"targets,omitempty"`

	source string // a kept result's path from docs/benchmarks.md (keptResults)
}

// Machine is where the run happened.
type Machine struct {
	CPU             string            `json:"cpu"`
	Cores           int               `json:"cores"`
	MemoryGiB       float64           `json:"memory_gib"`
	Kernel          string            `json:"kernel"`
	Go              string            `json:"go"`
	Commit          string            `json:"commit"`
	PostgreSQL      string            `json:"postgresql"`
	PostgreSQLConfs map[string]string `json:"postgresql_settings"`
}

// Data is the generated hierarchy.
type Data struct {
	Namespaces        int     `json:"namespaces"`
	Groups            int     `json:"groups"`
	Projects          int     `json:"projects"`
	Organizations     int     `json:"organizations"`
	Archived          int     `json:"archived"`
	Scheduled         int     `json:"scheduled"`
	Members           int     `json:"members"`
	MaxDepth          int     `json:"max_depth"`
	HeavyDescendants  []int   `json:"heavy_group_descendants"`
	LoadSeconds       float64 `json:"load_seconds"`
	LoadRowsPerSecond float64 `json:"load_rows_per_second"`
	LoadedBy          string  `json:"loaded_by,omitempty"` // "copy" (through the row triggers) or "import"
	StatesSeconds     float64 `json:"states_and_members_seconds"`
}

func dataResult(l *Loaded) Data {
	return Data{Namespaces: l.Namespaces, Groups: l.Groups, Projects: l.Projects, Organizations: len(l.Roots),
		Archived: l.Archived, Scheduled: l.Scheduled, Members: l.Members, MaxDepth: l.Depth, HeavyDescendants: l.HeavyDescendants,
		LoadSeconds: round3(l.LoadTime.Seconds()), LoadRowsPerSecond: round3(float64(l.Namespaces) / max(l.LoadTime.Seconds(), 1e-9)),
		LoadedBy: l.LoadedBy, StatesSeconds: round3(l.StateTime.Seconds())}
}

func (c Config) describe() map[string]any {
	return map[string]any{
		"namespaces": c.Namespaces, "duration_seconds": c.Duration.Seconds(), "rounds": c.Rounds, "clients": c.Clients,
		"transfer_sizes": c.TransferSizes, "burst_sizes": c.BurstSizes, "sweep_groups": c.SweepGroups, "sweep_descendants": c.SweepSize, "hard_delete_sizes": c.HardDeleteSizes,
		"syncer_rate": c.SyncerRate, "syncer_steps": c.SyncerSteps, "syncer_load_seconds": c.SyncerLoad.Seconds(),
		"import_batch": c.ImportBatch, "takeover_kills": c.TakeoverKills, "upgrade_from": c.UpgradeFrom,
		"upgrade_hold_seconds": c.UpgradeHold.Seconds(), "vacuum_seconds": c.VacuumDuration.Seconds(), "vacuum_settings": c.VacuumSettings,
	}
}

func describeMachine(ctx context.Context, pool *pgxpool.Pool, commit string) (Machine, error) {
	m := Machine{Cores: runtime.NumCPU(), Go: runtime.Version(), PostgreSQLConfs: map[string]string{}, Commit: commit}
	m.CPU = procField("/proc/cpuinfo", "model name")
	if kb := procField("/proc/meminfo", "MemTotal"); kb != "" {
		var n float64
		for _, c := range strings.Fields(kb)[0] {
			n = n*10 + float64(c-'0')
		}
		m.MemoryGiB = round3(n / (1 << 20))
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if err := pool.QueryRow(ctx, `select version()`).Scan(&m.PostgreSQL); err != nil {
		return m, err
	}
	rows, err := pool.Query(ctx, `select name, current_setting(name) from pg_settings
		where name in ('shared_buffers', 'synchronous_commit', 'fsync', 'wal_level', 'max_wal_size', 'work_mem', 'max_connections')`)
	if err != nil {
		return m, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return m, err
		}
		m.PostgreSQLConfs[k] = v
	}
	return m, rows.Err()
}

// procField is the value of the first "key: value" line of a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
