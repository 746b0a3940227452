#!/usr/bin/env bash
# Load test of persisted games: moves per second and p99 latency of
# POST /v1/games/{id}/moves across many games in parallel, on SQLite and on
# PostgreSQL (a throwaway cluster in a temporary directory), one release
# server each. Targets (2-core machine): 2,000 moves/s on SQLite, 1,000 on
# PostgreSQL.
#
# Usage: tests/load/moves.sh [GAMES] [SECONDS]
# DURABILITY=fast measures the weaker mode (default: full, every answered
# move synced to disk). Rate limits are off: this is a flood on purpose.
# BIN=path measures that server binary instead of building this checkout's
# (A/B: keep the commit before's binary and alternate); ONLY=sqlite or
# ONLY=postgres runs one database.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-64}
secs=${2:-10}
durability="--durability ${DURABILITY:-full}"
cargo build --release -q -p leapfrog --bin leapfrog --example load_moves
bin=${BIN:-target/release/leapfrog}
load=target/release/examples/load_moves
work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
  if [ -f "$work/pg/PG_VERSION" ]; then $as_pg "$pgbin/pg_ctl" -D "$work/pg" stop -m fast >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

run() { # name, database url, port
  RUST_LOG=warn "$bin" serve --no-rate-limits --bind "127.0.0.1:$3" --database-url "$2" $durability &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$3/readyz" >/dev/null && break; sleep 0.1; done
  printf '%-10s ' "$1"
  "$load" "http://127.0.0.1:$3" "$games" "$secs" 2>/dev/null
  kill "$server"; wait "$server" 2>/dev/null || true
  server=
}

if [ "${ONLY:-sqlite}" = sqlite ] || [ -z "${ONLY:-}" ]; then run sqlite "sqlite://$work/load.db" 18301; fi
[ "${ONLY:-}" = sqlite ] && exit 0

. tests/load/pg.sh
run postgres "postgres://postgres@127.0.0.1:18399/postgres" 18302
