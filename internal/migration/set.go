package migration

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"text/template"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/tern/v2/migrate"
)

// Step is one migration as the database receives it: its templates filled in, the part above
// `---- create above / drop below ----` (Up) and the part below (Down).
type Step struct {
	Version  int32
	Name     string // the file's name, NNN_name.sql
	Up, Down string
}

// Release is one line of releases.txt: a release, the schema version it installs, and the
// migrations it shipped with the SHA-256 of their rendered text, which no later change may alter.
type Release struct {
	Name    string
	Version int32
	Shipped map[string]string // migration file name -> sha256 of Up, a newline and Down
}

// Set is the migrations of this build: the baseline (the first release's schema in one step) and
// the migrations after it, numbered on from the baseline's version without gaps.
type Set struct {
	Steps    []Step // Steps[0] is the baseline
	Releases []Release
}

// Baseline is the version the baseline installs: a fresh database goes there in one step, and a
// database below it (but not at 0) was migrated by a build before the first release.
func (s *Set) Baseline() int32 { return s.Steps[0].Version }

// Latest is the newest version of this build.
func (s *Set) Latest() int32 { return s.Steps[len(s.Steps)-1].Version }

// Step returns the migration that brings a database to version v (v from the baseline on).
func (s *Set) Step(v int32) Step { return s.Steps[v-s.Baseline()] }

// ReleaseOf names the release whose schema version is v, or "" for a version no release has.
func (s *Set) ReleaseOf(v int32) string {
	for _, r := range s.Releases {
		if r.Version == v {
			return r.Name
		}
	}
	return ""
}

// RequiredStop is what a database migrated by a build before the baseline is upgraded with first:
// the last commit whose migrations ran one by one from 001 to the baseline's version. Its
// cmd/migrate brings any such database to the baseline, which this build then recognises.
const RequiredStop = "30e8d26"

// ErrBeforeBaseline: the database was migrated by a build before the first release, to a version
// below the baseline. Nothing is changed; it is upgraded with RequiredStop's migrator first.
var ErrBeforeBaseline = errors.New("schema version before the baseline")

var migrationName = regexp.MustCompile(`^(\d+)_([a-z0-9_]+)\.sql$`)

// Load reads the migrations at fsys's root and the files they include (any .sql file below it, and
// the .sql files at its root that are not migrations, such as roles.sql and grants.sql), fills in
// their templates, and checks the numbering: the lowest number is NNN_baseline.sql, the others
// follow it without a gap. releases.txt, when present, lists the releases.
func Load(fsys fs.FS) (*Set, error) {
	tmpl := template.New("main")
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".sql" {
			return err
		}
		if path.Dir(p) == "." && migrationName.MatchString(p) {
			files = append(files, p)
			return nil
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		_, err = tmpl.New(p).Parse(string(body))
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("no migrations (NNN_name.sql) found")
	}
	set := &Set{}
	for i, name := range files { // WalkDir reads in lexical order: by number, the numbers being zero-padded
		m := migrationName.FindStringSubmatch(name)
		n, err := strconv.ParseInt(m[1], 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if i == 0 && m[2] != "baseline" {
			return nil, fmt.Errorf("the first migration is %s: it must be the baseline, NNN_baseline.sql", name)
		}
		if i > 0 && int32(n) != set.Steps[i-1].Version+1 {
			return nil, fmt.Errorf("migration %s follows %s: the numbers must run on without a gap", name, set.Steps[i-1].Name)
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		up, down, _ := strings.Cut(string(body), "---- create above / drop below ----")
		step := Step{Version: int32(n), Name: name}
		if step.Up, err = render(tmpl, name+" up", up); err != nil {
			return nil, err
		}
		if step.Down, err = render(tmpl, name+" down", down); err != nil {
			return nil, err
		}
		if step.Up == "" || step.Down == "" {
			return nil, fmt.Errorf("%s: both parts must hold SQL: the step up, and below the separator the step down", name)
		}
		set.Steps = append(set.Steps, step)
	}
	if set.Releases, err = loadReleases(fsys); err != nil {
		return nil, err
	}
	return set, nil
}

func render(tmpl *template.Template, name, text string) (string, error) {
	t, err := tmpl.New(name).Parse(strings.TrimSpace(text))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, nil); err != nil {
		return "", err
	}
	return strings.TrimSpace(b.String()), nil
}

// Digest is the SHA-256 a release records for a migration it shipped.
func (st Step) Digest() string {
	h := sha256.Sum256([]byte(st.Up + "\n" + st.Down))
	return hex.EncodeToString(h[:])
}

// loadReleases reads releases.txt: `release NAME VERSION` lines, each followed by the
// `shipped FILE SHA256` lines of the migrations it shipped; # starts a comment.
func loadReleases(fsys fs.FS) ([]Release, error) {
	f, err := fsys.Open("releases.txt")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Release
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		switch {
		case len(fields) == 0:
		case fields[0] == "release" && len(fields) == 3:
			v, err := strconv.ParseInt(fields[2], 10, 32)
			if err != nil {
				return nil, fmt.Errorf("releases.txt:%d: %w", line, err)
			}
			out = append(out, Release{Name: fields[1], Version: int32(v), Shipped: map[string]string{}})
		case fields[0] == "shipped" && len(fields) == 3 && len(out) > 0:
			out[len(out)-1].Shipped[fields[1]] = fields[2]
		default:
			return nil, fmt.Errorf("releases.txt:%d: want `release NAME VERSION` or `shipped FILE SHA256`, got %q", line, sc.Text())
		}
	}
	return out, sc.Err()
}

// tern is the list tern's Migrator walks: an entry for every version from 1, those below the
// baseline refusing to run (To never asks them to), then the baseline and the rest.
func (s *Set) tern() []*migrate.Migration {
	var list []*migrate.Migration
	for v := int32(1); v < s.Baseline(); v++ {
		list = append(list, &migrate.Migration{Sequence: v, Name: fmt.Sprintf("%03d (before the baseline)", v),
			UpFunc: func(context.Context, *pgx.Conn) error { return s.beforeBaseline(0) }})
	}
	for _, st := range s.Steps {
		list = append(list, &migrate.Migration{Sequence: st.Version, Name: st.Name, UpSQL: st.Up, DownSQL: st.Down})
	}
	return list
}

// Refusal is the error a database at version v, below the baseline, is refused with.
func (s *Set) Refusal(v int32) error { return s.beforeBaseline(v) }

// beforeBaseline is the refusal of a database at version v, below the baseline.
func (s *Set) beforeBaseline(v int32) error {
	release := s.ReleaseOf(s.Baseline())
	if release == "" {
		release = "this build"
	}
	return fmt.Errorf("%w: the database is at schema version %d, and %s installs into an empty database or upgrades one at version %d or later. "+
		"Bring it to version %d first with the migrator of commit %s, the last build that holds migrations 1 to %d "+
		"(git checkout %s && go run ./cmd/migrate), then run this one again. Nothing was changed (CHANGELOG.md, Upgrading)",
		ErrBeforeBaseline, v, release, s.Baseline(), s.Baseline(), RequiredStop, s.Baseline(), RequiredStop)
}
