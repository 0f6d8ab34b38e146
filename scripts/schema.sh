#!/usr/bin/env bash
# Writes the flattened schema of a freshly migrated database to stdout: the input sqlc reads (it does
# not understand tern's template includes) and the one file where a reader sees the whole schema.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

use_database
name="nslifecycle_schema_$$"
scratch=$(scratch_db "$url" "$name")
trap 'drop_db "$url" "$name"; stop_started_cluster' EXIT
migrate "$scratch" 2>/dev/null
# Version lines, and the random \restrict keys of newer pg_dump releases, would make the file differ
# between machines; they carry nothing a reader or sqlc needs.
pg_dump "$scratch" --schema-only --no-owner --schema=lifecycle --exclude-table=lifecycle.schema_version |
	grep -vE '^(-- Dumped (from|by)|\\(un)?restrict )' |
	cat -s
