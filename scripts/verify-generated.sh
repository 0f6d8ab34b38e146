#!/usr/bin/env bash
# Fails when a generated, checked-in file is stale: sql/schema.sql (make schema) or the sqlc code in
# internal/db (make sqlc). `make generate` refreshes both.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
if ! scripts/schema.sh | diff -u sql/schema.sql - ; then
	echo "sql/schema.sql is stale: run make generate" >&2
	status=1
fi
if ! go tool -modfile=tools/go.mod sqlc diff; then
	echo "internal/db is stale: run make generate" >&2
	status=1
fi
exit $status
