#!/usr/bin/env bash
# Lint the migrations as the database receives them (templates filled in, up and down parts apart:
# go run ./cmd/migrate -render) with squawk, for what stalls clients during an upgrade: an index
# built or dropped without CONCURRENTLY on a table that already exists, a constraint added without
# NOT VALID, a column type changed, a column set NOT NULL, … (docs/operations.md, Upgrades).
# The rules excluded, and why, are in sql/squawk.toml; a statement that breaks a rule on purpose has
# its reason and a `-- squawk-ignore` comment right above it in its migration.
#
# squawk comes from the npm registry: the platform package of squawk-cli, which ships the binary,
# fetched with `npm pack` (pinned, its integrity checked) into a cache directory shared by every
# checkout on the machine, on first use.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

version=2.66.0
# The SHA-512 of @squawk-cli/linux-x64@2.66.0's tarball, in hex: the registry's dist.integrity
# (sha512-p5Wq5BIcDGujJpmub3hiULkiEYnwI7FPdXaWMjCwoYQvN5RI79EniI95ws10lLXxcgbN/LdnYD+asaRiHuINsw==).
sha512=a795aae4121c0c6ba32699ae6f786250b9221189f023b14f7576963230b0a1842f379448efd127888f79c2cd7494b5f17206cdfcb767603f9ab1a4621ee20db3
tools=${NSLIFECYCLE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/nslifecycle-tools}
squawk=$tools/squawk-$version/squawk

install_squawk() {
	[ "$(uname -sm)" = "Linux x86_64" ] || { echo "squawk $version is installed for Linux x86_64 only, not $(uname -sm)" >&2; return 1; }
	command -v npm >/dev/null 2>&1 || { echo "npm is missing: it fetches squawk (apt-get install npm)" >&2; return 1; }
	local tmp
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	echo "lint-migrations: fetching @squawk-cli/linux-x64@$version with npm pack" >&2
	(cd "$tmp" && npm pack --silent "@squawk-cli/linux-x64@$version" >/dev/null)
	echo "$sha512  $tmp/squawk-cli-linux-x64-$version.tgz" | sha512sum -c --quiet - ||
		{ echo "squawk's package is not the one pinned here (SHA-512 differs)" >&2; return 1; }
	tar -xzf "$tmp/squawk-cli-linux-x64-$version.tgz" -C "$tmp" package/bin/squawk
	mkdir -p "$(dirname "$squawk")"
	mv "$tmp/package/bin/squawk" "$squawk.part" && mv "$squawk.part" "$squawk"
}

[ -x "$squawk" ] || install_squawk
"$squawk" --version >/dev/null

rendered=$(mktemp -d)
trap 'rm -rf "$rendered"' EXIT
go run ./cmd/migrate -render "$rendered"

# tern runs a migration in a transaction unless it says `---- tern: disable-tx ----` (then statement
# by statement, which CREATE INDEX CONCURRENTLY needs); squawk is told which. A down part drops what
# its up part made, so dropping a table or a column is flagged in up parts only.
# squawk's --exclude replaces the config's list, so the down parts get that list and two more.
excluded=$(sed -n 's/^ *"\([a-z-]*\)",\{0,1\}$/\1/p' sql/squawk.toml | paste -sd,)
status=0
lint() {
	local files=("${@:2}")
	[ ${#files[@]} -gt 0 ] || return 0
	# shellcheck disable=SC2086
	"$squawk" --config sql/squawk.toml --reporter gcc $1 "${files[@]}" || status=1
}
mapfile -t notx < <(grep -l -- '^---- tern: disable-tx ----$' "$rendered"/*.sql || true)
mapfile -t tx < <(grep -L -- '^---- tern: disable-tx ----$' "$rendered"/*.sql || true)
pick() { local f; for f in "${@:2}"; do [[ $f == *"$1" ]] && echo "$f"; done; return 0; }
mapfile -t tx_up < <(pick .up.sql "${tx[@]}")
mapfile -t tx_down < <(pick .down.sql "${tx[@]}")
mapfile -t notx_up < <(pick .up.sql "${notx[@]}")
mapfile -t notx_down < <(pick .down.sql "${notx[@]}")
lint "--assume-in-transaction" "${tx_up[@]}"
lint "--assume-in-transaction --exclude=$excluded,ban-drop-table,ban-drop-column" "${tx_down[@]}"
lint "--no-assume-in-transaction" "${notx_up[@]}"
lint "--no-assume-in-transaction --exclude=$excluded,ban-drop-table,ban-drop-column" "${notx_down[@]}"
if [ $status != 0 ]; then
	echo "lint-migrations: squawk $version found the problems above; fix them, or say why in the migration (sql/README.md, Migrations without stalls)" >&2
	exit 1
fi
echo "lint-migrations: $(ls "$rendered" | wc -l) rendered up and down parts pass squawk $version"
