# Shared by the scripts in this directory: where the database is, and scratch databases on it.
# shellcheck shell=bash

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# use_database sets url to DATABASE_URL when the user set it, else to the private cluster's
# (started when needed), and started_cluster=1 when this call started the cluster, so callers can
# stop what they started. Call it directly, not in $(…): a subshell would lose both variables.
started_cluster=0
url=
use_database() {
	if [ -n "${DATABASE_URL:-}" ]; then
		url=$DATABASE_URL
		return
	fi
	"$root/scripts/db.sh" status || started_cluster=1
	url=$("$root/scripts/db.sh" start)
}

stop_started_cluster() {
	if [ "$started_cluster" = 1 ]; then "$root/scripts/db.sh" stop; fi
}

# url_with_db URL NAME: the same server, another database (URL form: postgres://…/db?params).
url_with_db() {
	case "$1" in
	postgres://* | postgresql://*) ;;
	*) echo "DATABASE_URL must be a URL (postgres://user@host:port/db)" >&2; return 1 ;;
	esac
	printf '%s\n' "$1" | sed -E "s#^(postgres(ql)?://[^/?]*)(/[^?]*)?#\\1/$2#"
}

# scratch_db URL NAME: drop and create database NAME on URL's server, print its URL.
scratch_db() {
	local admin
	admin=$(url_with_db "$1" postgres)
	PGOPTIONS="-c client_min_messages=warning" psql "$admin" -qAtX -v ON_ERROR_STOP=1 -c "drop database if exists \"$2\" with (force)" -c "create database \"$2\"" >/dev/null
	url_with_db "$1" "$2"
}

drop_db() {
	PGOPTIONS="-c client_min_messages=warning" psql "$(url_with_db "$1" postgres)" -qAtX -c "drop database if exists \"$2\" with (force)" >/dev/null
}

migrate() {
	(cd "$root" && DATABASE_URL="$1" go run ./cmd/migrate)
}
