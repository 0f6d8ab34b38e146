#!/usr/bin/env bash
# make demo: the private cluster (or DATABASE_URL), a fresh demo database on it, the migrations,
# then the demo program. Stops the cluster again when this script started it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

use_database
trap stop_started_cluster EXIT
if [ -z "${DATABASE_URL:-}" ]; then
	# Our own cluster: a fresh database each run, so the demo always starts from nothing.
	url=$(scratch_db "$url" nslifecycle_demo)
fi
migrate "$url" 2>/dev/null
DATABASE_URL=$url go run ./cmd/demo
