#!/usr/bin/env bash
# make demo: the private cluster (or the server DATABASE_URL names), a fresh database
# nslifecycle_demo on it (dropped and created anew each run; the database DATABASE_URL names is
# never touched), the migrations, then the guided tour. Stops the cluster again when this script
# started it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

use_database
trap stop_started_cluster EXIT
demo=$(scratch_db "$url" nslifecycle_demo)
migrate "$demo" 2>/dev/null
DATABASE_URL=$demo go run ./cmd/demo
