// Package docs_test checks that the pages in docs/ (and the README) say what the schema is: a
// function's signature is written by hand where a reader needs it, and the migrated schema is its
// one owner, so every signature written down is compared with the catalog here.
package docs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// function is one overload of a lifecycle function or procedure, as the catalog has it.
type function struct {
	in       []string // input parameter names, in order
	inTypes  []string // their types, format_type's spelling
	defaults int      // how many trailing inputs have a default
	out      []string // the names of the result columns (OUT and TABLE parameters)
}

// catalog reads every function and procedure of schema lifecycle, by name.
func catalog(t *testing.T) map[string][]function {
	t.Helper()
	pool := dbtest.Pool(t)
	rows, err := pool.Query(context.Background(), `
		select p.proname::text,
		       coalesce(array_agg(a.name order by a.n) filter (where a.mode in ('i', 'b', 'v')), '{}'),
		       coalesce(array_agg(pg_catalog.format_type(a.type, null) order by a.n) filter (where a.mode in ('i', 'b', 'v')), '{}'),
		       p.pronargdefaults::int,
		       coalesce(array_agg(a.name order by a.n) filter (where a.mode in ('o', 'b', 't')), '{}')
		  from pg_catalog.pg_proc p
		  left join lateral unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]),
		                           coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs])),
		                           coalesce(p.proargnames, array_fill(''::text, array[coalesce(cardinality(p.proallargtypes), p.pronargs)])))
		         with ordinality as a (type, mode, name, n) on true
		 where p.pronamespace = 'lifecycle'::regnamespace
		 group by p.oid, p.proname, p.pronargdefaults`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	funcs := map[string][]function{}
	for rows.Next() {
		var name string
		var f function
		if err := rows.Scan(&name, &f.in, &f.inTypes, &f.defaults, &f.out); err != nil {
			t.Fatal(err)
		}
		funcs[name] = append(funcs[name], f)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(funcs) < 50 {
		t.Fatalf("read %d lifecycle functions from the catalog: expected the whole API", len(funcs))
	}
	return funcs
}

// docPages are the pages that write signatures down.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append(pages, filepath.Join("..", "README.md"), filepath.Join("..", "sql", "README.md"))
}

var (
	// lifecycle.name( … ) with its argument list, which holds no parentheses but a type's
	// (numeric(…)) or a default's call (now()): one level of nesting is enough for the pages.
	call = regexp.MustCompile(`lifecycle\.([a-z_][a-z0-9_]*)\(((?:[^()]|\([^()]*\))*)\)`)
	// A parameter as a signature writes it: a name, then optionally its type and default.
	param = regexp.MustCompile(`^(?:(?:in|out|inout|variadic)\s+)?([a-z_][a-z0-9_]*)(?:\s+([a-z][a-z0-9_ .]*?(?:\[\])?))?$`)
	// A parameter's default, cut before the parameter is read.
	paramDefault = regexp.MustCompile(`\s+default\s+.*$`)
	// The types a result column may have: "the columns above" is prose, not a column list.
	columnType = regexp.MustCompile(`^(bigint|integer|int|smallint|text|boolean|bool|jsonb|timestamptz|timestamp|date|name|regclass|numeric|lifecycle\.)`)
	// A fenced SQL block: its calls are expressions run by TestEverySQLExampleInTheDocsRuns.
	sqlFence = regexp.MustCompile("(?ms)^\\s*```sql\\s*$.*?^\\s*```\\s*$")
	// What a call's argument may be that is no parameter name: a literal, a number, a cast, a
	// name with a dot, a placeholder ($1), a keyword.
	notAName = regexp.MustCompile(`^(null|true|false|now\(\)|default|current_date|current_timestamp)$`)
	// returns table (a type, b type, …) right after a signature.
	returnsTable = regexp.MustCompile(`^\s*(?:→|->|returns)\s+table\s*\(((?:[^()]|\([^()]*\))*)\)`)
	namedArg     = regexp.MustCompile(`([a-z_][a-z0-9_]*)\s*=>`)
)

// splitTop splits s at the commas outside parentheses and brackets.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" || len(parts) > 0 {
		parts = append(parts, rest)
	}
	return parts
}

// typeNames maps the spellings the pages use to format_type's.
var typeNames = map[string]string{
	"int": "integer", "int4": "integer", "int8": "bigint", "int2": "smallint", "bool": "boolean",
	"timestamptz": "timestamp with time zone", "text[]": "text[]", "bigint[]": "bigint[]",
	"int[]": "integer[]", "regclass": "regclass",
}

func sameType(doc, cat string) bool {
	doc = strings.TrimSpace(doc)
	if n, ok := typeNames[doc]; ok {
		doc = n
	}
	return doc == cat || strings.TrimPrefix(cat, "lifecycle.") == strings.TrimPrefix(doc, "lifecycle.")
}

// signatureArgs says whether every argument of a call is written as a parameter (a name,
// maybe a type), which makes the call a signature; it returns the names and types.
func signatureArgs(args []string) (names, types []string, ok bool) {
	for _, a := range args {
		a = paramDefault.ReplaceAllString(strings.Join(strings.Fields(a), " "), "")
		m := param.FindStringSubmatch(a)
		if m == nil || notAName.MatchString(m[1]) {
			return nil, nil, false
		}
		names = append(names, m[1])
		types = append(types, m[2])
	}
	return names, types, true
}

// matches says whether an overload takes the documented parameters: the same names in the
// same order, the ones left out having defaults, and the same types where the page gives them.
func (f function) matches(names, types []string) bool {
	if len(names) > len(f.in) || len(f.in)-len(names) > f.defaults {
		return false
	}
	for i, n := range names {
		if f.in[i] != n || (types[i] != "" && !sameType(types[i], f.inTypes[i])) {
			return false
		}
	}
	return true
}

// Every lifecycle.f(…) written in README.md, sql/README.md and docs/*.md names a function the
// migrations make; a signature (parameters written by name) matches an overload's parameter
// names, order and types, leaving out only parameters with defaults; a call's named arguments
// (x => …) are parameters of it; and a `returns table (…)` after a signature names its result
// columns in order.
func TestEverySignatureInTheDocsIsTheCatalogs(t *testing.T) {
	funcs := catalog(t)
	var signatures, calls int
	for _, page := range docPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		// SQL blocks are blanked, their lines kept: what they call runs in another test.
		text := sqlFence.ReplaceAllStringFunc(string(b), func(block string) string {
			return strings.Repeat("\n", strings.Count(block, "\n"))
		})
		lineOf := func(i int) int { return strings.Count(text[:i], "\n") + 1 }
		for _, m := range call.FindAllStringSubmatchIndex(text, -1) {
			name, argText := text[m[2]:m[3]], text[m[4]:m[5]]
			where := fmt.Sprintf("%s:%d: lifecycle.%s(%s)", page, lineOf(m[0]), name, argText)
			overloads, ok := funcs[name]
			if !ok {
				// A table or a type written like a call (lifecycle.namespace_imports (id, …)) is
				// not a function: those are written with a space before the parenthesis.
				t.Errorf("%s: no function lifecycle.%s in the schema", where, name)
				continue
			}
			calls++
			for _, na := range namedArg.FindAllStringSubmatch(argText, -1) {
				if !slices.ContainsFunc(overloads, func(f function) bool { return slices.Contains(f.in, na[1]) }) {
					t.Errorf("%s: lifecycle.%s has no parameter %s", where, name, na[1])
				}
			}
			args := splitTop(argText)
			names, types, isSig := signatureArgs(args)
			if !isSig || len(names) == 0 {
				continue
			}
			signatures++
			var match *function
			for i := range overloads {
				if overloads[i].matches(names, types) {
					match = &overloads[i]
					break
				}
			}
			if match == nil {
				var have []string
				for _, f := range overloads {
					var ps []string
					for i := range f.in {
						ps = append(ps, f.in[i]+" "+f.inTypes[i])
					}
					have = append(have, "("+strings.Join(ps, ", ")+")")
				}
				t.Errorf("%s: no overload takes these parameters; the schema has %s", where, strings.Join(have, " or "))
				continue
			}
			if rt := returnsTable.FindStringSubmatch(strings.TrimLeft(text[m[1]:], " \t\n")); rt != nil {
				// "the columns above" and the like abbreviate: only a full list is compared.
				var cols []string
				full := true
				for _, c := range splitTop(rt[1]) {
					f := strings.Fields(c)
					if len(f) < 2 || !columnType.MatchString(f[1]) {
						full = false
						break
					}
					cols = append(cols, f[0])
				}
				if full && !slices.Equal(cols, match.out) {
					t.Errorf("%s: returns table (%s), the schema's returns (%s)", where, strings.Join(cols, ", "), strings.Join(match.out, ", "))
				}
			}
		}
	}
	t.Logf("%d mentions of lifecycle functions checked, %d of them signatures", calls, signatures)
	if signatures < 30 {
		t.Fatalf("found %d signatures in the pages: the pattern no longer finds them", signatures)
	}
}
