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

# drop_slot URL SLOT: drop a logical replication slot, ending its consumer first if it lingers.
drop_slot() {
	PGOPTIONS="-c client_min_messages=warning" psql "$(url_with_db "$1" postgres)" -qAtX -v ON_ERROR_STOP=0 >/dev/null 2>&1 <<-SQL || true
		select pg_terminate_backend(active_pid) from pg_replication_slots where slot_name = '$2' and active;
		select pg_sleep(0.2);
		select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '$2';
	SQL
}

# scratch_db URL NAME: drop and create database NAME on URL's server, print its URL. Slots left on
# it (a demo killed before its cleanup) are dropped first: they would keep it from being dropped.
scratch_db() {
	local admin
	admin=$(url_with_db "$1" postgres)
	PGOPTIONS="-c client_min_messages=warning" psql "$admin" -qAtX -c "select pg_drop_replication_slot(slot_name) from pg_replication_slots where database = '$2' and not active" >/dev/null
	PGOPTIONS="-c client_min_messages=warning" psql "$admin" -qAtX -v ON_ERROR_STOP=1 -c "drop database if exists \"$2\" with (force)" -c "create database \"$2\"" >/dev/null
	url_with_db "$1" "$2"
}

drop_db() {
	PGOPTIONS="-c client_min_messages=warning" psql "$(url_with_db "$1" postgres)" -qAtX -c "drop database if exists \"$2\" with (force)" >/dev/null
}

migrate() {
	(cd "$root" && DATABASE_URL="$1" go run ./cmd/migrate)
}

# demo_with_syncer NAME [SYNCER FLAGS...]: what make demo and make demo-adopt share. Builds
# cmd/NAME and the syncer; makes a fresh database nslifecycle_NAME (with - as _) on the private
# cluster or DATABASE_URL's server, migrated; starts the syncer on a slot of the same name in the
# background; runs cmd/NAME with DATABASE_URL and LIFECYCLE_SLOT set (and the caller's
# environment), showing the syncer's last lines when it fails. On exit the syncer stops, the slot
# goes, and the cluster stops when this script started it. Exits with cmd/NAME's status.
demo_with_syncer() {
	local name=$1
	shift
	demo_slot=nslifecycle_${name//-/_}
	demo_bin=$(mktemp -d)
	demo_syncer=
	trap demo_cleanup EXIT
	use_database
	go build -o "$demo_bin/" "./cmd/$name" ./cmd/syncer
	local db
	db=$(scratch_db "$url" "$demo_slot")
	migrate "$db" 2>/dev/null
	DATABASE_URL=$db "$demo_bin/syncer" -slot "$demo_slot" -listen "" -log-format json "$@" >"$demo_bin/syncer.log" 2>&1 &
	demo_syncer=$!
	local status=0
	DATABASE_URL=$db LIFECYCLE_SLOT=$demo_slot "$demo_bin/$name" || status=$?
	if [ "$status" != 0 ]; then
		echo "--- syncer log:" >&2
		tail -n 20 "$demo_bin/syncer.log" >&2
	fi
	return "$status"
}

demo_cleanup() {
	if [ -n "${demo_syncer:-}" ] && kill -0 "$demo_syncer" 2>/dev/null; then
		kill -TERM "$demo_syncer" && wait "$demo_syncer" 2>/dev/null || true
	fi
	[ -n "${url:-}" ] && drop_slot "$url" "$demo_slot"
	rm -rf "$demo_bin"
	stop_started_cluster
}
