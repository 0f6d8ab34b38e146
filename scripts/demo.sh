#!/usr/bin/env bash
# make demo: the private cluster (or the server DATABASE_URL names), a fresh database
# nslifecycle_demo on it (dropped and created anew each run; the database DATABASE_URL names is
# never touched), the migrations, the syncer in the background, then the guided tour. Stops the
# syncer, drops its slot, and stops the cluster when this script started it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

slot=nslifecycle_demo
bin=$(mktemp -d)
syncer_pid=
cleanup() {
	if [ -n "$syncer_pid" ] && kill -0 "$syncer_pid" 2>/dev/null; then
		kill -TERM "$syncer_pid" && wait "$syncer_pid" 2>/dev/null || true
	fi
	[ -n "${url:-}" ] && drop_slot "$url" "$slot"
	rm -rf "$bin"
	stop_started_cluster
}
trap cleanup EXIT

use_database
go build -o "$bin/" ./cmd/demo ./cmd/syncer
demo=$(scratch_db "$url" nslifecycle_demo)
migrate "$demo" 2>/dev/null
DATABASE_URL=$demo "$bin/syncer" -slot "$slot" -listen "" -log-format json -delivery-poll 100ms \
	-refresh-debounce 200ms -heartbeat-interval 2s >"$bin/syncer.log" 2>&1 &
syncer_pid=$!
if ! DATABASE_URL=$demo LIFECYCLE_SLOT=$slot "$bin/demo"; then
	echo "--- syncer log:" >&2
	tail -n 20 "$bin/syncer.log" >&2
	exit 1
fi
