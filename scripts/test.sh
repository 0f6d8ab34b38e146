#!/usr/bin/env bash
# make test: every check (gofmt, vet, generated files, pgTAP, promtool, squawk on the rendered
# migrations, go test -race), against DATABASE_URL or the private cluster (started here and stopped
# again when this script started it). Runs every step even after a failure, ends with a summary
# (go test's counts, and every skipped Go and pgTAP test with its reason), then exits non-zero if
# any step failed.
#
# The inner loop runs one part alone, on the same database setup:
#   scripts/test.sh sql [FILE|DIR …]   pgTAP, the given files or folders (make test-sql T=tests/x/)
#   scripts/test.sh go [PATTERN]       go test -race, tests matching PATTERN (make test-go RUN=X)
set -uo pipefail
part=${1:-all}
[ $# -gt 0 ] && shift
. "$(dirname "$0")/lib.sh"
cd "$root"

failed=()
step() {
	local name=$1
	shift
	printf '\n== %s\n' "$name"
	if "$@"; then
		printf -- '-- %s: ok\n' "$name"
	else
		printf -- '-- %s: FAILED\n' "$name"
		failed+=("$name")
	fi
}

user_url=${DATABASE_URL:-}
use_database || exit 2
export DATABASE_URL=$url
# The cleanup is set before anything is started, so that a step failing early (the standby's)
# still stops what this script started.
started_standby=0
pgtap_db="nslt_$$_pgtap"
# What was skipped, and why: one line each, listed at the end. counts: go test's pass/fail/skip.
report=$(mktemp -d)
skipped="$report/skipped"
counts="$report/counts"
: >"$skipped"
cleanup() {
	drop_db "$url" "$pgtap_db" 2>/dev/null
	[ "$started_standby" = 1 ] && scripts/db.sh standby-stop
	stop_started_cluster
	rm -rf "$report"
}
trap cleanup EXIT
# Reads must work on a hot standby (docs/scaling.md): on the private cluster, a streaming standby
# is started for the tests that call them there. A server of the user's gets none (STANDBY_URL may
# name one).
if [ "$part" != sql ] && [ -z "$user_url" ] && [ -z "${STANDBY_URL:-}" ]; then
	scripts/db.sh standby-running 2>/dev/null || started_standby=1
	STANDBY_URL=$(scripts/db.sh standby) || { echo "could not start the standby" >&2; exit 2; }
	export STANDBY_URL
fi
start=$SECONDS

gofmt_check() {
	local bad
	bad=$(git ls-files -co --exclude-standard '*.go' | xargs -r gofmt -l)
	[ -z "$bad" ] || { echo "gofmt would change:"; echo "$bad"; return 1; }
}

drop_leftovers() {
	# Test databases are named nslt_<pid>_…: drop those whose process is gone (a killed run), and
	# leave the ones of runs still going.
	local admin name pid
	admin=$(url_with_db "$url" postgres)
	psql "$admin" -qAtX -c "select datname from pg_database where datname ~ '^nslt_[0-9]+_'" |
		while read -r name; do
			pid=${name#nslt_}
			pid=${pid%%_*}
			if ! kill -0 "$pid" 2>/dev/null; then
				# Its replication slots would keep it from being dropped; a consumer still attached
				# is ended first.
				PGOPTIONS="-c client_min_messages=warning" psql "$admin" -qAtX >/dev/null <<-SQL
					select pg_terminate_backend(active_pid) from pg_replication_slots where database = '$name' and active;
					select pg_sleep(0.5);
					select pg_drop_replication_slot(slot_name) from pg_replication_slots where database = '$name';
				SQL
				drop_db "$url" "$name"
			fi
		done
}

pgtap() {
	local db
	db=$(scratch_db "$url" "$pgtap_db") || return 1
	migrate "$db" 2>/dev/null || { echo "migrate failed"; return 1; }
	PGOPTIONS="-c client_min_messages=warning" psql "$db" -qX -v ON_ERROR_STOP=1 \
		-c "create schema tap" -c "create extension pgtap schema tap" \
		-c "create extension plpgsql_check schema tap" \
		-v gitlab_structure="$(cat internal/adopt/gitlab/structure.sql)" -f tests/helpers.sql || return 1
	# pg_prove splits its options on '=', so the URL goes without its query; the query's settings
	# (sslmode=… and the like) go in the matching libpq PG* variables instead.
	local query kv key env=()
	[[ $db == *\?* ]] && query=${db#*\?} || query=
	for kv in ${query//&/ }; do
		key=${kv%%=*}
		env+=("PG${key^^}=${kv#*=}")
	done
	# search_path holds only pgTAP: every product name in a test must be schema-qualified.
	# --directives also shows each test with a SKIP (or TODO) directive, under its file: the
	# skipped ones go to the list at the end.
	env "${env[@]}" PGOPTIONS="-c search_path=tap -c client_min_messages=warning" \
		pg_prove --dbname "${db%%\?*}" --ext .sql --jobs 2 --failures --directives $(find "${sql_targets[@]}" -name '*.test.sql' | sort) |
		tee "$report/pg_prove"
	local status=$?
	awk '
		/^tests\/.*\.sql \.\./ { file = $1 }
		/# [Ss][Kk][Ii][Pp]/ { sub(/^.*# [Ss][Kk][Ii][Pp] */, ""); printf "pgTAP %s: %s\n", file, ($0 == "" ? "(no reason given)" : $0) }
		/^tests\/.*\.sql \.\. skipped:/ { sub(/^.*skipped: */, ""); printf "pgTAP %s: the whole file: %s\n", file, $0 }
	' "$report/pg_prove" >>"$skipped"
	return $status
}

# go test with -json, shown as plain go test shows it (a line per package, the output of failed
# tests), while every skipped test and its reason (the t.Skip message) goes to the list at the end.
read -r -d '' gotest_filter <<'PY'
import json, sys

skipped, counts = open(sys.argv[1], "a"), {"passed": 0, "failed": 0, "skipped": 0}
buf = {}  # (package, test) -> output lines until the test ends

def show(lines):
    for line in lines:
        if not line.startswith(("=== RUN", "=== PAUSE", "=== CONT", "=== NAME")):
            sys.stdout.write(line)
    sys.stdout.flush()

for raw in sys.stdin:
    try:
        e = json.loads(raw)
    except ValueError:
        sys.stdout.write(raw)
        continue
    action, pkg, test, out = e.get("Action"), e.get("Package", e.get("ImportPath", "")), e.get("Test"), e.get("Output", "")
    if action == "build-output":
        sys.stdout.write(out)
    elif test:
        key = (pkg, test)
        if action == "output":
            buf.setdefault(key, []).append(out)
        elif action == "pass":
            counts["passed"] += 1
            buf.pop(key, None)
        elif action == "fail":
            counts["failed"] += 1
            show(buf.pop(key, []))
        elif action == "skip":
            counts["skipped"] += 1
            reason = " ".join(l.strip() for l in buf.pop(key, []) if not l.lstrip().startswith(("=== ", "--- SKIP")))
            skipped.write("%s %s: %s\n" % (pkg, test, reason or "(no reason given)"))
            skipped.flush()
    elif action == "output" and out.strip() != "PASS":
        sys.stdout.write(out)
        sys.stdout.flush()
    elif action == "fail":
        # Tests that never ended (a panic, a timeout): their output explains the failure.
        for key in [k for k in buf if k[0] == pkg]:
            show(buf.pop(key))
open(sys.argv[2], "w").write("%(passed)d passed, %(failed)d failed, %(skipped)d skipped\n" % counts)
PY

# -timeout: the tests package takes about 8 minutes under -race on a busy 2-core machine, too
# near go's default of 10 minutes a package.
go_test() {
	go test -race -count=1 -timeout 25m -json ${go_run:+-run "$go_run"} ./... | python3 -u -c "$gotest_filter" "$skipped" "$counts"
}

# deploy/prometheus: the rules load, and their tests (series in, alerts out) pass. promtool comes
# with Debian's prometheus package, which scripts/db.sh install adds when it is missing.
prometheus_rules() {
	command -v promtool >/dev/null 2>&1 || scripts/db.sh install || return 1
	(cd deploy/prometheus && promtool check rules lifecycle.rules.yml && promtool test rules lifecycle.rules.test.yml)
}

sql_targets=(tests)
go_run=
case "$part" in
all)
	step "gofmt" gofmt_check
	step "go vet" go vet ./...
	step "generated files are up to date" scripts/generate.sh check
	step "drop leftover test databases" drop_leftovers
	step "pgTAP" pgtap
	step "prometheus rules (promtool)" prometheus_rules
	step "migrations lint (squawk)" scripts/lint-migrations.sh
	step "go test -race" go_test
	;;
sql)
	[ $# -gt 0 ] && sql_targets=("$@")
	step "pgTAP" pgtap
	;;
go)
	go_run=${1:-}
	step "go test -race" go_test
	;;
*)
	echo "usage: scripts/test.sh [sql [FILE|DIR …] | go [PATTERN]]" >&2
	exit 2
	;;
esac

printf '\n== summary (%ss)\n' $((SECONDS - start))
[ -s "$counts" ] && printf 'go test: %s\n' "$(cat "$counts")"
if [ -s "$skipped" ]; then
	printf 'skipped, with the reason:\n'
	sed 's/^/  /' "$skipped"
else
	printf 'skipped: nothing\n'
fi

if [ ${#failed[@]} -gt 0 ]; then
	printf '\nmake test: FAILED: %s\n' "$(IFS=,; echo "${failed[*]}")"
	exit 1
fi
printf '\nmake test: all steps passed\n'
