package sql

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The live SQL (functions/ and triggers/, what the current migrations install) names no state by
// its code and no namespace type by its name: states and types are rows (lifecycle.states,
// lifecycle.namespace_types, written in their rows in tables/), and a statement asks their
// named predicates (lifecycle.state_path_live(state), state_is_own, namespace_type_known(type),
// …), which the tables' triggers write from the rows (sql/README.md, Where a change goes).
//
// A state-code literal is an integer compared with, assigned to, listed for or matched against a
// state: a name ending in "state" (state, n.state, from_state, preserved_state, …) or "code" (a
// states row's), with =, <>, !=, <, >, <=, >=, :=, [not] in (…), = any/all ('{…}'), or
// case <state> when <integer>; or an integer cast to smallint (the type of a code). A type literal
// is a quoted string that is exactly a type's name. Comments are skipped, and the quoted strings
// for every pattern but the last two. A file left for a branch that changes it at the moment goes
// in pendingLiterals with its reason, to be converted once that is merged (each must still hold a
// literal, so the list only shrinks); none is left.
var pendingLiterals = map[string]string{}

// The namespace types of lifecycle.namespace_types' rows (tables/namespace_types.sql).
var typeNames = []string{"organization", "group", "project", "user"}

var (
	stateName = `(?:\b(?:[a-z_][a-z0-9_]*\.)?(?:[a-z0-9_]*state|code)\b)`
	integer   = `-?\d+\b`
	compare   = `(?:<>|!=|<=|>=|:=|=|<|>)`
	// Patterns on the code with its strings blanked out.
	codePatterns = []*regexp.Regexp{
		regexp.MustCompile(`(?i)` + stateName + `\s*` + compare + `\s*\(?\s*` + integer),
		regexp.MustCompile(`(?i)(?:^|[^a-z0-9_.'])` + integer + `\s*` + compare + `\s*` + stateName),
		regexp.MustCompile(`(?i)` + stateName + `\s+(?:not\s+)?in\s*\(\s*` + integer),
		regexp.MustCompile(`(?i)\bcase\s+` + stateName + `\s+when\s+` + integer),
		regexp.MustCompile(`(?i)` + stateName + `\s*` + compare + `\s*(?:any|all)\s*\(\s*array\s*\[\s*` + integer),
		regexp.MustCompile(`(?i)\barray\s*\[\s*` + integer + `[^\]]*\]\s*::\s*smallint\[\]`),
		regexp.MustCompile(`(?i)(?:^|[^a-z0-9_.'])\d+\s*::\s*smallint\b`),
	}
	// Patterns on the code with its strings kept.
	stringPatterns = []*regexp.Regexp{
		regexp.MustCompile(`(?i)` + stateName + `\s*` + compare + `\s*(?:any|all)\s*\(\s*'\{\s*\d`),
		regexp.MustCompile(`'(?:` + strings.Join(typeNames, "|") + `)'`),
	}
)

// sqlText returns the text without its comments (as spaces, lines kept), and the same with every
// single-quoted string emptied (its quotes kept). Dollar-quoted text is code here: function bodies.
func sqlText(src string) (withStrings, code string) {
	var ws, c strings.Builder
	for i := 0; i < len(src); i++ {
		switch {
		case strings.HasPrefix(src[i:], "--"):
			for i < len(src) && src[i] != '\n' {
				ws.WriteByte(' ')
				c.WriteByte(' ')
				i++
			}
			if i < len(src) {
				ws.WriteByte('\n')
				c.WriteByte('\n')
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			for _, r := range src[i : i+2+end+2] {
				if r == '\n' {
					ws.WriteRune(r)
					c.WriteRune(r)
				} else {
					ws.WriteByte(' ')
					c.WriteByte(' ')
				}
			}
			i += 2 + end + 1
		case src[i] == '\'':
			j := i + 1
			for j < len(src) {
				if src[j] == '\'' {
					if j+1 < len(src) && src[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			if j >= len(src) {
				j = len(src) - 1
			}
			lit := src[i : j+1]
			ws.WriteString(lit)
			c.WriteString("''" + strings.Repeat("\n", strings.Count(lit, "\n")))
			i = j
		default:
			ws.WriteByte(src[i])
			c.WriteByte(src[i])
		}
	}
	return ws.String(), c.String()
}

// literals returns "line: text" for every literal found in src.
func literals(src string) []string {
	withStrings, code := sqlText(src)
	found := map[int]bool{}
	mark := func(text string, patterns []*regexp.Regexp) {
		for _, p := range patterns {
			for _, m := range p.FindAllStringIndex(text, -1) {
				found[strings.Count(text[:m[0]], "\n")+1] = true
			}
		}
	}
	mark(code, codePatterns)
	mark(withStrings, stringPatterns)
	lines := strings.Split(src, "\n")
	var out []string
	for n := range found {
		out = append(out, fmt.Sprintf("%d: %s", n, strings.TrimSpace(lines[n-1])))
	}
	sort.Slice(out, func(i, j int) bool {
		var a, b int
		fmt.Sscanf(out[i], "%d", &a)
		fmt.Sscanf(out[j], "%d", &b)
		return a < b
	})
	return out
}

func TestNoStateCodeOrTypeLiteralInLiveSQL(t *testing.T) {
	scanned := 0
	for _, dir := range []string{"functions", "triggers"} {
		entries, err := fs.ReadDir(Files(), dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".sql") {
				continue
			}
			name := path.Join(dir, e.Name())
			src, err := fs.ReadFile(Files(), name)
			if err != nil {
				t.Fatal(err)
			}
			scanned++
			found := literals(string(src))
			reason, pending := pendingLiterals[name]
			switch {
			case pending && len(found) == 0:
				t.Errorf("%s holds no literal any more: take it off pendingLiterals (%s)", name, reason)
			case !pending && len(found) > 0:
				t.Errorf("%s names states by code or types by name; ask the named predicates of lifecycle.states and "+
					"lifecycle.namespace_types instead (sql/README.md, Where a change goes):\n\t%s", name, strings.Join(found, "\n\t"))
			case pending:
				t.Logf("%s, left for now (%s):\n\t%s", name, reason, strings.Join(found, "\n\t"))
			}
		}
	}
	if scanned < 100 {
		t.Fatalf("only %d files scanned", scanned)
	}
	for name := range pendingLiterals {
		if _, err := fs.Stat(Files(), name); err != nil {
			t.Errorf("pendingLiterals names %s: %v", name, err)
		}
	}
}

// Every form the live SQL used before 042 is found, and what is not a literal of a state or a
// type is not.
func TestTheLiteralPatternsFindEveryFormAndNothingElse(t *testing.T) {
	found := []string{
		"where n.state <> 2 and n.state <> 4",
		"if seen_state = 5 then",
		"where a.state > 0",
		"and a.state in (2, 4, 5)",
		"when r.state not in (0, 3)",
		"case n.state when 5 then 'transfer' end",
		"if from_state = 2 and to_state = 4 then",
		"new.state := 0;",
		"where 2 = n.state",
		"where s.code = 4",
		"x.state = any (array[2, 4])",
		"x.state = any ('{2,4}')",
		"select array[0, 1]::smallint[]",
		"case when legacy then 0::smallint else bridged end",
		"new.type not in ('organization', 'group')",
		"if target.type = 'project' then",
	}
	for _, s := range found {
		if got := literals(s); len(got) != 1 {
			t.Errorf("%q: found %v, want one line", s, got)
		}
	}
	not := []string{
		"where lifecycle.state_path_live(n.state)",
		"if lifecycle.state_operation(seen_state) = 'transfer' then",
		"-- a comment: state <> 2 and state <> 4, 'project'",
		"/* state = 5 */ select 1",
		"raise exception using errcode = 'NS010', message = 'state = 2 is not a code here'",
		"where status_code between 200 and 299 and status_code not in (408, 429)",
		"coalesce(max(m.access_level), 0)::smallint",
		"new.state_changes := old.state_changes + 1",
		"hint = 'Choose a group, an organization or a project.'",
		"if cardinality(traversal_ids) > 1 then",
		"select x.state = any (rule.descendant_forbidden)",
	}
	for _, s := range not {
		if got := literals(s); len(got) != 0 {
			t.Errorf("%q: found %v, want none", s, got)
		}
	}
	if !slices.Equal(literals("a\nb\nwhere n.state = 2\n"), []string{"3: where n.state = 2"}) {
		t.Errorf("line numbers: %v", literals("a\nb\nwhere n.state = 2\n"))
	}
}
