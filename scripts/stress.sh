#!/usr/bin/env bash
# make stress: a database of its own (nslt_<pid>_stress), the syncer killed and restarted while
# clients fire random operations, and on the private cluster one immediate restart of PostgreSQL.
# STRESS_ARGS passes flags to cmd/stress (e.g. STRESS_ARGS="-clients 16 -duration 2m").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

bin=$(mktemp -d)
name="nslt_$$_stress"
cleanup() {
	[ -n "${url:-}" ] && { drop_slot "$url" "$name"; drop_db "$url" "$name"; }
	rm -rf "$bin"
	stop_started_cluster
}
trap cleanup EXIT

use_database
go build -o "$bin/" ./cmd/syncer ./cmd/stress
db=$(scratch_db "$url" "$name")
migrate "$db" 2>/dev/null
restart=()
if [ -z "${DATABASE_URL:-}" ]; then
	# Only the private cluster is ours to restart.
	restart=(-restart-command "$root/scripts/db.sh restart-immediate")
fi
# shellcheck disable=SC2086
DATABASE_URL=$db "$bin/stress" -syncer "$bin/syncer" -slot "$name" "${restart[@]}" ${STRESS_ARGS:-}
