package migration

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// A migration a release has shipped is never edited: its rendered text (the files it includes
// filled in) is the one recorded in sql/releases.txt. A replaced file that a shipped migration
// includes is copied to sql/released/<release>/ first and the shipped include pointed at the copy
// (sql/README.md). A release lists every migration since the one before it; this test prints the
// lines to add when it lists none.
func TestShippedMigrationsAreFrozen(t *testing.T) {
	set, err := Load(Migrations())
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Releases) == 0 {
		t.Fatal("sql/releases.txt lists no release")
	}
	from := set.Baseline()
	for _, r := range set.Releases {
		if r.Version < from || r.Version > set.Latest() {
			t.Fatalf("release %s at schema %d: want %d to %d", r.Name, r.Version, from, set.Latest())
		}
		var missing []string
		for v := from; v <= r.Version; v++ {
			st := set.Step(v)
			switch digest, ok := r.Shipped[st.Name]; {
			case !ok:
				missing = append(missing, fmt.Sprintf("shipped %s %s", st.Name, st.Digest()))
			case digest != st.Digest():
				t.Errorf("%s shipped in release %s, and its text has changed since (sha256 %s, shipped %s): "+
					"leave it as it was and make the change in a new migration; a file it includes that you replace is "+
					"copied to sql/released/%s/ first, and its include pointed at the copy (sql/README.md)",
					st.Name, r.Name, st.Digest(), digest, r.Name)
			}
		}
		if len(missing) > 0 {
			t.Errorf("release %s does not list the migrations it ships; add under its line in sql/releases.txt:\n%s",
				r.Name, strings.Join(missing, "\n"))
		}
		if len(r.Shipped) != int(r.Version-from+1) {
			t.Errorf("release %s lists %d migrations, want the %d from %d to %d", r.Name, len(r.Shipped), r.Version-from+1, from, r.Version)
		}
		from = r.Version + 1
	}
}

func TestLoadRefusesMigrationsThatDoNotFollowTheBaseline(t *testing.T) {
	part := func(up string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(up + "\n---- create above / drop below ----\nselect 1;")}
	}
	for name, files := range map[string]fstest.MapFS{
		"no baseline first": {"001_first.sql": part("select 1;")},
		"a gap":             {"010_baseline.sql": part("select 1;"), "012_next.sql": part("select 1;")},
		"no down part":      {"010_baseline.sql": &fstest.MapFile{Data: []byte("select 1;")}},
		"nothing":           {"README.md": &fstest.MapFile{}},
	} {
		if _, err := Load(files); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	set, err := Load(fstest.MapFS{
		"010_baseline.sql": part(`{{ template "functions/f.sql" . }}`),
		"011_next.sql":     part("select 2;"),
		"functions/f.sql":  &fstest.MapFile{Data: []byte("select 'f';")},
		"roles.sql":        &fstest.MapFile{Data: []byte("select 'r';")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if set.Baseline() != 10 || set.Latest() != 11 || set.Step(10).Up != "select 'f';" || set.Step(11).Down != "select 1;" {
		t.Fatalf("loaded %+v", set.Steps)
	}
	if err := set.Refusal(5); err == nil || !strings.Contains(err.Error(), RequiredStop) {
		t.Fatalf("the refusal of a database at 5: %v", err)
	}
}
