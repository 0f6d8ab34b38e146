// Package buildinfo says which build a binary is, for every binary's -version and for migrate
// -status: the release (sql/releases.txt, with "+dev" while migrations after it are unreleased),
// the schema versions its migrations install, and the commit it was built from.
package buildinfo

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/nslifecycle/nslifecycle/internal/migration"
)

// Release names this build: the newest release in sql/releases.txt, with "+dev" when the build has
// migrations after that release's schema version (they may still change until a release ships
// them).
func Release() string {
	set, err := migration.Load(migration.Migrations())
	if err != nil || len(set.Releases) == 0 {
		return "unreleased"
	}
	last := set.Releases[len(set.Releases)-1]
	if set.Latest() > last.Version {
		return last.Name + "+dev"
	}
	return last.Name
}

// Schema says which schema versions the build's migrations cover: the baseline and the newest.
func Schema() string {
	set, err := migration.Load(migration.Migrations())
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	if set.Latest() == set.Baseline() {
		return fmt.Sprintf("schema %d", set.Latest())
	}
	return fmt.Sprintf("schema %d (baseline %d)", set.Latest(), set.Baseline())
}

// Commit is the VCS revision go build stamped into the binary, with "+modified" when the work tree
// had changes; for a binary go install fetched, the module version it names; "" when the build
// recorded neither (go run, go test, -buildvcs=false).
func Commit() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		return ""
	}
	return rev + modified
}

// Describe is a binary's -version line: "syncer nslifecycle 1.0.0, schema 63, commit 30e8d26b…,
// go1.26.8".
func Describe(binary string) string {
	s := fmt.Sprintf("%s nslifecycle %s, %s", binary, Release(), Schema())
	if c := Commit(); c != "" {
		s += ", commit " + c
	}
	return s + ", " + runtime.Version()
}

// Flag adds -version to a binary's flags, setting p.
func Flag(fs *flag.FlagSet, p *bool) {
	fs.BoolVar(p, "version", false, "print the release, the schema version and the commit this binary was built from, and exit")
}

// Gauge is lifecycle_build_info, 1, labelled with the binary, its release and the newest schema
// version it installs, for a dashboard to show which build runs where.
func Gauge(binary string) prometheus.Collector {
	set, err := migration.Load(migration.Migrations())
	schema := "unknown"
	if err == nil {
		schema = fmt.Sprint(set.Latest())
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "lifecycle_build_info",
		Help:        "1, labelled with the binary, its release and the newest schema version it installs.",
		ConstLabels: prometheus.Labels{"binary": binary, "release": Release(), "schema": schema},
	})
	g.Set(1)
	return g
}
