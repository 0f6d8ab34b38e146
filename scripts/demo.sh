#!/usr/bin/env bash
# make demo: the private cluster (or the server DATABASE_URL names), a fresh database
# nslifecycle_demo on it (dropped and created anew each run; the database DATABASE_URL names is
# never touched), the migrations, the syncer in the background, then the guided tour. Stops the
# syncer, drops its slot, and stops the cluster when this script started it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

demo_with_syncer demo -delivery-poll 100ms -heartbeat-interval 2s
