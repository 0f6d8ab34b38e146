#!/usr/bin/env bash
# make demo-adopt: docs/adoption.md end to end. The private cluster (or the server DATABASE_URL
# names), a fresh database nslifecycle_demo_adopt on it (dropped and created anew each run; the
# database DATABASE_URL names is never touched), the migrations, the syncer in the background,
# then cmd/demo-adopt with ADOPT_NAMESPACES namespaces (default 20000). Stops the syncer, drops
# its slot, and stops the cluster when this script started it. Exits with the driver's status.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

export ADOPT_NAMESPACES=${ADOPT_NAMESPACES:-20000}
demo_with_syncer demo-adopt -delivery-poll 100ms -heartbeat-interval 1s -standby-interval 1s
