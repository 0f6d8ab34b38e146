#!/usr/bin/env bash
# The project's private PostgreSQL 15 cluster.
#
#   scripts/db.sh start    start it (initdb on first use), print DATABASE_URL on stdout
#   scripts/db.sh stop     stop it (no-op when not running)
#   scripts/db.sh status   exit 0 when running
#   scripts/db.sh url      print DATABASE_URL of the running cluster
#   scripts/db.sh install  install the server, pgTAP, plpgsql_check, pg_prove and promtool with apt-get when missing
#   scripts/db.sh dir      print the cluster's directory
#   scripts/db.sh restart-immediate   restart it as after a crash (make stress)
#   scripts/db.sh standby  start a hot standby streaming from it (made once with pg_basebackup, on a
#                          port of its own), print its DATABASE_URL; make test calls the read
#                          functions there
#   scripts/db.sh standby-stop   stop the standby (also done by stop)
#
# The cluster belongs to this checkout: its directory is .pgdata/ inside the checkout, or, when the
# postgres OS user cannot reach the checkout (a home directory with mode 700), a directory under
# /var/tmp named after the checkout's path. It listens on 127.0.0.1 and a socket only, with trust
# auth, wal_level=logical and room for replication slots. As root, the server runs as `postgres`.
# Everything but the URL goes to stderr, so `url=$(scripts/db.sh start)` works.
set -euo pipefail

PG_MAJOR=15
DB_NAME=${LIFECYCLE_DB_NAME:-nslifecycle}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { printf 'db: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

bindir() {
	if [ -n "${PG_BINDIR:-}" ]; then echo "$PG_BINDIR"; return; fi
	echo "/usr/lib/postgresql/$PG_MAJOR/bin"
}

as_root() { [ "$(id -u)" -eq 0 ]; }

# run_pg runs a command as the cluster's OS user: `postgres` when we are root, ourselves otherwise.
run_pg() {
	if as_root; then
		# From /, so a working directory postgres cannot enter (under /root) draws no warning.
		(cd / && runuser -u postgres -- "$@")
	else
		"$@"
	fi
}

install_packages() {
	local need=()
	[ -x "$(bindir)/initdb" ] || need+=("postgresql-$PG_MAJOR" "postgresql-contrib")
	[ -f "/usr/share/postgresql/$PG_MAJOR/extension/pgtap.control" ] || need+=("postgresql-$PG_MAJOR-pgtap")
	[ -f "/usr/share/postgresql/$PG_MAJOR/extension/plpgsql_check.control" ] || need+=("postgresql-$PG_MAJOR-plpgsql-check")
	command -v pg_prove >/dev/null 2>&1 || need+=("libtap-parser-sourcehandler-pgtap-perl")
	command -v psql >/dev/null 2>&1 || need+=("postgresql-client-$PG_MAJOR")
	# promtool, for make test's check of deploy/prometheus's rules; Debian ships it only in the
	# server's package (nothing here starts that server).
	command -v promtool >/dev/null 2>&1 || need+=("prometheus")
	[ ${#need[@]} -eq 0 ] && return 0
	say "installing ${need[*]} with apt-get"
	local sudo=()
	if ! as_root; then
		command -v sudo >/dev/null 2>&1 || die "missing ${need[*]}; install them or run as root"
		sudo=(sudo)
	fi
	# The Debian package creates and starts a 'main' cluster unless told not to; we want only ours.
	if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
		"${sudo[@]}" mkdir -p /etc/postgresql-common
		echo "create_main_cluster = false" | "${sudo[@]}" tee /etc/postgresql-common/createcluster.conf >/dev/null
	fi
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		-o Dpkg::Options::=--force-confold "${need[@]}" >&2
	[ -x "$(bindir)/initdb" ] || die "initdb still missing after install"
}

# can_reach tells whether the postgres OS user can traverse to and write in a directory's parent.
can_reach() {
	as_root || return 0
	runuser -u postgres -- test -x "$1" 2>/dev/null
}

pgdir() {
	if [ -n "${LIFECYCLE_PGDIR:-}" ]; then echo "$LIFECYCLE_PGDIR"; return; fi
	if can_reach "$root"; then
		echo "$root/.pgdata"
	else
		echo "/var/tmp/nslifecycle-pg-$(printf '%s' "$root" | sha1sum | cut -c1-12)"
	fi
}

dir=$(pgdir)
data="$dir/data"
sock="$dir/sock"
log="$dir/server.log"

port_of() { sed -n 4p "$data/postmaster.pid" 2>/dev/null; }

running() {
	[ -f "$data/postmaster.pid" ] && run_pg "$(bindir)/pg_ctl" -D "$data" status >/dev/null 2>&1
}

port_free() {
	# Connecting succeeds only when something listens there.
	! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

pick_port() {
	local base=$((54000 + $(printf '%s' "$root" | cksum | cut -d' ' -f1) % 1000))
	local p
	for p in $(seq "$base" $((base + 200))); do
		if port_free "$p"; then echo "$p"; return 0; fi
	done
	die "no free port in $base-$((base + 200))"
}

url() {
	echo "postgres://postgres@127.0.0.1:$(port_of)/$DB_NAME?sslmode=disable"
}

init_cluster() {
	say "initdb into $data"
	mkdir -p "$dir"
	as_root && chown postgres: "$dir"
	run_pg "$(bindir)/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
		{ cat "$dir/initdb.log" >&2; die "initdb failed"; }
	run_pg mkdir -p "$sock"
	run_pg tee -a "$data/postgresql.conf" >/dev/null <<-EOF
		# nslifecycle private cluster
		listen_addresses = '127.0.0.1'
		unix_socket_directories = '$sock'
		wal_level = logical
		max_replication_slots = 20
		max_wal_senders = 20
		max_connections = 200
		shared_buffers = 256MB
		fsync = on
		log_min_messages = warning
		log_line_prefix = '%m [%p] %d '
	EOF
	run_pg tee "$data/pg_hba.conf" >/dev/null <<-EOF
		local   all          all                 trust
		host    all          all   127.0.0.1/32  trust
		local   replication  all                 trust
		host    replication  all   127.0.0.1/32  trust
	EOF
}

start() {
	install_packages
	if running; then
		say "reusing the running cluster in $dir"
		url
		return 0
	fi
	[ -f "$data/PG_VERSION" ] || init_cluster
	local port tries=0
	while :; do
		port=$(pick_port)
		if run_pg "$(bindir)/pg_ctl" -D "$data" -l "$log" -o "-p $port" -w -t 60 start >/dev/null; then
			break
		fi
		tries=$((tries + 1))
		[ $tries -lt 3 ] || { tail -n 20 "$log" >&2; die "the server did not start"; }
	done
	run_pg "$(bindir)/psql" -h "$sock" -p "$port" -U postgres -d postgres -qAtX -v ON_ERROR_STOP=1 \
		-c "select 1 from pg_database where datname = '$DB_NAME'" | grep -q 1 ||
		run_pg "$(bindir)/createdb" -h "$sock" -p "$port" -U postgres "$DB_NAME"
	say "started PostgreSQL $PG_MAJOR in $dir on port $port"
	url
}

# restart_immediate: what a crash does to clients (no shutdown checkpoint, every session cut off),
# for make stress. The server comes back on the same port with crash recovery.
restart_immediate() {
	running || die "the private cluster is not running"
	run_pg "$(bindir)/pg_ctl" -D "$data" -m immediate -w -t 60 restart >/dev/null
	say "restarted the cluster in $dir (immediate)"
}

# The standby: a physical copy of the cluster, streaming its WAL, read-only (hot_standby).
sdir="$dir/standby"
sdata="$sdir/data"
ssock="$sdir/sock"
slog="$sdir/server.log"

standby_running() {
	[ -f "$sdata/postmaster.pid" ] && run_pg "$(bindir)/pg_ctl" -D "$sdata" status >/dev/null 2>&1
}

standby_url() {
	echo "postgres://postgres@127.0.0.1:$(sed -n 4p "$sdata/postmaster.pid")/$DB_NAME?sslmode=disable"
}

standby() {
	running || die "the private cluster is not running (make db)"
	if standby_running; then
		standby_url
		return 0
	fi
	local port
	port=$(port_of)
	if [ -f "$sdata/PG_VERSION" ]; then
		# A standby stopped while the cluster wrote gigabytes (a bench, a 1M-namespace demo) would
		# replay them all, or find them recycled and never catch up: past 256 MB behind, it is made
		# afresh instead.
		local redo behind
		redo=$(run_pg "$(bindir)/pg_controldata" "$sdata" | sed -n 's/^Latest checkpoint.s REDO location: *//p')
		behind=$(run_pg "$(bindir)/psql" -h "$sock" -p "$port" -U postgres -d postgres -qAtX \
			-c "select pg_wal_lsn_diff(pg_current_wal_lsn(), '${redo:-0/0}')::bigint")
		if [ -z "$redo" ] || [ "${behind:-0}" -gt $((256 << 20)) ]; then
			say "the standby is $(( ${behind:-0} >> 20 )) MB behind: making it afresh"
			run_pg rm -rf "$sdata"
		fi
	fi
	if [ ! -f "$sdata/PG_VERSION" ]; then
		# The primary keeps enough WAL for a standby that was stopped a while (no slot to pin it).
		run_pg "$(bindir)/psql" -h "$sock" -p "$port" -U postgres -d postgres -qAtX \
			-c "alter system set wal_keep_size = '1GB'" -c "select pg_reload_conf()" >/dev/null
		say "pg_basebackup into $sdata"
		run_pg mkdir -p "$sdir" "$ssock"
		run_pg "$(bindir)/pg_basebackup" -h 127.0.0.1 -p "$port" -U postgres -D "$sdata" -R -X stream >"$sdir/basebackup.log" 2>&1 ||
			{ cat "$sdir/basebackup.log" >&2; die "pg_basebackup failed"; }
		run_pg tee -a "$sdata/postgresql.conf" >/dev/null <<-EOF
			# nslifecycle standby
			unix_socket_directories = '$ssock'
			hot_standby = on
		EOF
	fi
	local sport tries=0
	while :; do
		sport=$(pick_port)
		if run_pg "$(bindir)/pg_ctl" -D "$sdata" -l "$slog" -o "-p $sport" -w -t 60 start >/dev/null; then
			break
		fi
		tries=$((tries + 1))
		[ $tries -lt 3 ] || { tail -n 20 "$slog" >&2; die "the standby did not start"; }
	done
	say "started a hot standby in $sdir on port $sport"
	standby_url
}

standby_stop() {
	if standby_running; then
		run_pg "$(bindir)/pg_ctl" -D "$sdata" -m fast -w stop >/dev/null
		say "stopped the standby in $sdir"
	fi
}

stop() {
	standby_stop
	if running; then
		run_pg "$(bindir)/pg_ctl" -D "$data" -m fast -w stop >/dev/null
		say "stopped the cluster in $dir"
	fi
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) running ;;
url) running || die "the private cluster is not running (make db)"; url ;;
install) install_packages ;;
dir) echo "$dir" ;;
restart-immediate) restart_immediate ;;
standby) standby ;;
standby-stop) standby_stop ;;
standby-running) standby_running ;;
*) die "usage: $0 start|stop|status|url|install|dir|restart-immediate|standby|standby-stop" ;;
esac
