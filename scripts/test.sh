#!/usr/bin/env bash
# make test: every check, against DATABASE_URL or the private cluster (started here and stopped
# again when this script started it). Runs every step even after a failure, then exits non-zero if
# any failed.
set -uo pipefail
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

use_database || exit 2
export DATABASE_URL=$url
pgtap_db="nslt_$$_pgtap"
cleanup() {
	drop_db "$url" "$pgtap_db" 2>/dev/null
	stop_started_cluster
}
trap cleanup EXIT

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
		-c "create extension plpgsql_check schema tap" -f tests/helpers.sql || return 1
	# pg_prove splits its options on '=', so the URL goes without its query; the query's settings
	# (sslmode=… and the like) go in the matching libpq PG* variables instead.
	local query kv key env=()
	[[ $db == *\?* ]] && query=${db#*\?} || query=
	for kv in ${query//&/ }; do
		key=${kv%%=*}
		env+=("PG${key^^}=${kv#*=}")
	done
	# search_path holds only pgTAP: every product name in a test must be schema-qualified.
	env "${env[@]}" PGOPTIONS="-c search_path=tap -c client_min_messages=warning" \
		pg_prove --dbname "${db%%\?*}" --ext .sql --jobs 2 --failures $(find tests -name '*.test.sql' | sort)
}

step "gofmt" gofmt_check
step "go vet" go vet ./...
step "generated files are up to date" scripts/generate.sh check
step "drop leftover test databases" drop_leftovers
step "pgTAP" pgtap
step "go test -race" go test -race -count=1 ./...

if [ ${#failed[@]} -gt 0 ]; then
	printf '\nmake test: FAILED: %s\n' "$(IFS=,; echo "${failed[*]}")"
	exit 1
fi
printf '\nmake test: all steps passed\n'
