#!/usr/bin/env bash
# make demo-adopt: docs/adoption.md end to end. The private cluster (or the server DATABASE_URL
# names), a fresh database nslifecycle_demo_adopt on it (dropped and created anew each run; the
# database DATABASE_URL names is never touched), the migrations, the syncer in the background,
# then cmd/demo-adopt with ADOPT_NAMESPACES namespaces (default 20000). Stops the syncer, drops
# its slot, and stops the cluster when this script started it. Exits with the driver's status.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

slot=nslifecycle_demo_adopt
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
go build -o "$bin/" ./cmd/demo-adopt ./cmd/syncer
demo=$(scratch_db "$url" nslifecycle_demo_adopt)
migrate "$demo" 2>/dev/null
DATABASE_URL=$demo "$bin/syncer" -slot "$slot" -listen "" -log-format json -delivery-poll 100ms \
	-refresh-debounce 1s -heartbeat-interval 1s -standby-interval 1s >"$bin/syncer.log" 2>&1 &
syncer_pid=$!
status=0
DATABASE_URL=$demo LIFECYCLE_SLOT=$slot ADOPT_NAMESPACES=${ADOPT_NAMESPACES:-20000} "$bin/demo-adopt" || status=$?
if [ "$status" != 0 ]; then
	echo "--- syncer log:" >&2
	tail -n 20 "$bin/syncer.log" >&2
fi
exit "$status"
