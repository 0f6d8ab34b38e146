#!/usr/bin/env bash
# make bench / make bench-full / make bench-scale: a database of its own on the private cluster (or on the server
# DATABASE_URL names), the migrations, then cmd/bench: it generates the hierarchy and runs every
# scenario with its baseline in the same run, writing docs/benchmarks/<mode>.json; finally the
# figures of every results file are rendered into docs/benchmarks.md.
#
#   scripts/bench.sh quick   100k namespaces, about 10 minutes
#   scripts/bench.sh full    1M namespaces, about 30 minutes
#   scripts/bench.sh scale   10M namespaces loaded through the import (COPY through the row
#                            triggers would take an hour), one round of each measurement; about
#                            three and a half hours and 50 GB of disk: the hierarchy's database
#                            (about 25 minutes to load) and, beside it, each scenario's own
#                            (import, adopt_check and adoption: about 40 minutes each, the
#                            adoption's 40 GB)
#
# BENCH_ARGS passes more flags to cmd/bench (e.g. BENCH_ARGS="-scenarios transitions -rounds 5";
# -scenarios import alone generates no hierarchy: it imports into databases of its own);
# BENCH_OUT writes the results elsewhere (docs/benchmarks.md is then left alone); BENCH_KEEP=1
# keeps the database (nslifecycle_bench_<mode>) for a look afterwards.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

mode=${1:-quick}
case "$mode" in
quick) args=(-label quick -namespaces 100000 -duration 2s -rounds 3 -syncer-load 10s -transfer-sizes 1,100,10000) ;;
full) args=(-label full -namespaces 1000000 -duration 5s -rounds 3 -transfer-sizes 1,100,10000,100000 -hard-delete-sizes 100000,1000000) ;;
scale) args=(-label scale -namespaces 10000000 -load-by-import -duration 5s -rounds 1 -transfer-sizes 1,100,10000,100000) ;;
*) echo "usage: $0 quick|full|scale" >&2; exit 2 ;;
esac
name=nslifecycle_bench_$mode
slot=nslifecycle_bench_$mode
out=${BENCH_OUT:-docs/benchmarks/$mode.json}

bin=$(mktemp -d)
cleanup() {
	if [ -n "${url:-}" ]; then
		drop_slot "$url" "$slot"
		drop_slot "$url" "${slot}_floor"
		drop_slot "$url" "${slot}_transfer"
		drop_slot "$url" "${slot}_effective_states"
		drop_slot "$url" "${slot}_takeover"
		[ "${BENCH_KEEP:-}" = 1 ] || drop_db "$url" "$name"
		# The import scenario's database of the round in flight, when the run was cut short.
		drop_db "$url" "${name}_import"
	fi
	rm -rf "$bin"
	stop_started_cluster
}
trap cleanup EXIT

# pgbench comes with the server package, which the private cluster needs anyway.
"$root/scripts/db.sh" install
use_database
go build -o "$bin/" ./cmd/bench ./cmd/syncer ./cmd/sweeper
db=$(scratch_db "$url" "$name")
migrate "$db" 2>/dev/null
mkdir -p "$(dirname "$out")"
# The commit measured, "-dirty" when code differs from it; the results and this page, which every
# run rewrites, do not count.
measured_commit() {
	local c
	c=$(git describe --always 2>/dev/null) || { echo unknown; return; }
	if [ -n "$(git status --porcelain -- . ':!docs/benchmarks.md' ':!docs/benchmarks' 2>/dev/null)" ]; then
		c+=-dirty
	fi
	echo "$c"
}

# cmd/bench exits 3 when a target of the run is missed: the results are written and rendered all
# the same, and this script ends with that status, the missed targets printed last.
set +e
# shellcheck disable=SC2086
DATABASE_URL=$db "$bin/bench" "${args[@]}" -out "$out" -slot "$slot" -commit "$(measured_commit)" \
	-pgbench "${PG_BINDIR:-/usr/lib/postgresql/15/bin}/pgbench" -syncer "$bin/syncer" -sweeper "$bin/sweeper" ${BENCH_ARGS:-} 2>&1 |
	tee "$bin/stderr" >&2
status=${PIPESTATUS[0]}
set -e
[ "$status" = 0 ] || [ "$status" = 3 ] || exit "$status"
if [ -z "${BENCH_OUT:-}" ]; then
	"$bin/bench" -render docs/benchmarks.md docs/benchmarks/*.json
	echo "bench: $out written, docs/benchmarks.md updated" >&2
fi
if [ "$status" = 3 ]; then
	grep -E '^bench: [0-9]+ targets missed|^  MISSED ' "$bin/stderr" >&2
fi
exit "$status"
