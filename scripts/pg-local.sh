#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL cluster on loopback for tests and benchmarks:
#   eval "$(bash scripts/pg-local.sh start)"   # prints export DATABASE_URL=… and PG_LOCAL_DIR=…
#   bash scripts/pg-local.sh stop "$PG_LOCAL_DIR"
# Uses Debian's postgresql binaries. initdb refuses to run as root, so as root the cluster belongs to
# the `postgres` system user (created by the Debian package).
set -euo pipefail
cmd="${1:-start}"
bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -n "$bindir" ] || { echo "PostgreSQL binaries not found: apt-get install postgresql" >&2; exit 1; }
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

if [ "$cmd" = stop ]; then
  dir="${2:?usage: pg-local.sh stop DIR}"
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  exit 0
fi

port="${PG_LOCAL_PORT:-$(( 20000 + RANDOM % 20000 ))}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/commonplace-pg.XXXXXX")"
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
as_owner "$bindir/initdb" -D "$dir/data" -U commonplace --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
# Tests open many short-lived databases at once; fsync off because the cluster is thrown away.
as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
  "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
echo "export PG_LOCAL_DIR=$dir"
echo "export DATABASE_URL=postgres://commonplace@127.0.0.1:$port/postgres"
