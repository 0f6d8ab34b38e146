#!/usr/bin/env bash
# The checked-in generated files, from one freshly migrated scratch database:
#   sql/schema.sql  the flattened schema (pg_dump); sqlc's catalog, and the one file where a reader
#                   sees the whole schema (sqlc cannot follow tern's template includes)
#   internal/db     sqlc's Go code; sqlc also analyses the queries against the scratch database,
#                   which is how it learns the result columns of RETURNS TABLE functions
#
#   scripts/generate.sh write   regenerate both (make generate)
#   scripts/generate.sh check   fail when either is stale (make verify-generated, part of make test)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

mode=${1:-write}
use_database
name="nslt_$$_generate"
scratch=$(scratch_db "$url" "$name")
dump=$(mktemp)
trap 'rm -f "$dump"; drop_db "$url" "$name"; stop_started_cluster' EXIT
migrate "$scratch" 2>/dev/null

# Version lines, and the random \restrict keys of newer pg_dump releases, would make the file differ
# between machines; they carry nothing a reader or sqlc needs.
pg_dump "$scratch" --schema-only --no-owner --schema=lifecycle --exclude-table=lifecycle.schema_version |
	grep -vE '^(-- Dumped (from|by)|\\(un)?restrict )' |
	cat -s >"$dump"

sqlc() { SQLC_DATABASE_URL=$scratch go tool -modfile=tools/go.mod sqlc "$@"; }

case "$mode" in
write)
	cp "$dump" sql/schema.sql
	sqlc generate
	;;
check)
	status=0
	if ! diff -u sql/schema.sql "$dump"; then
		echo "sql/schema.sql is stale: run make generate" >&2
		status=1
	fi
	if ! sqlc diff; then
		echo "internal/db is stale: run make generate" >&2
		status=1
	fi
	exit $status
	;;
*)
	echo "usage: $0 write|check" >&2
	exit 2
	;;
esac
