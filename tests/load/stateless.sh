#!/usr/bin/env bash
# Load test of the stateless API (the target: legal-moves at no less than
# half of healthz's throughput, at 64 connections). One release server, one run:
# throughput and p99 latency of POST /v1/legal-moves on a seeded 15×15 Murray
# middle-game position (seed 1, then 40 random moves; pinned), and of GET /healthz.
#
# The two endpoints take turns, ROUNDS times (default 3), SECONDS each turn
# (default 5): on a shared machine whose speed drifts, alternating keeps the
# drift from landing on one side of the ratio.
#
# Needs wrk (apt-get install wrk). Usage: [ROUNDS=N] [LEAPFROG_BIN=path]
# tests/load/stateless.sh [SECONDS] (LEAPFROG_BIN: a server binary to measure
# instead of building this checkout's).
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-5}
rounds=${ROUNDS:-3}
port=${PORT:-18181}
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 2; }

bin=${LEAPFROG_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release -q -p leapfrog
  bin=target/release/leapfrog
fi
RUST_LOG=warn "$bin" serve --no-rate-limits --bind "127.0.0.1:$port" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$body"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

# The 15×15 Murray middle game of tests/fixtures/murray-middle-game.txt.
pos=$(cat tests/fixtures/murray-middle-game.txt)
read -r board ply scores <<<"$pos"
body=$(mktemp)
printf '{"rules":{"preset":"murray"},"position":{"board":"%s","ply":%s,"scores":[%s]}}' \
  "$board" "$ply" "$scores" >"$body"
count=$(curl -sf -X POST -H 'Content-Type: application/json' --data @"$body" \
  "http://127.0.0.1:$port/v1/legal-moves" | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])')
echo "position: $pos ($count legal moves; a page is the first 100)"

results=$(mktemp)
trap 'kill $server 2>/dev/null; rm -f "$body" "$results"' EXIT
run() { # name, wrk args...
  local name=$1; shift
  local out; out=$(wrk -t2 -c64 -d"${secs}s" --latency "$@")
  local rps p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  printf '%-24s %12s req/s   p99 %s\n' "$name" "$rps" "$p99"
  echo "$name $rps $p99" >>"$results"
}
for round in $(seq "$rounds"); do
  echo "round $round"
  BODY_FILE=$body run legal-moves -s tests/load/post_json.lua "http://127.0.0.1:$port/v1/legal-moves"
  run healthz "http://127.0.0.1:$port/healthz"
done
python3 - "$results" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
mean = {n: sum(float(r[1]) for r in rows if r[0] == n) / sum(r[0] == n for r in rows) for n in ("legal-moves", "healthz")}
for n, v in mean.items():
    print(f"{n:<24} {v:12.0f} req/s (mean of {sum(r[0] == n for r in rows)} turns)")
print(f"legal-moves / healthz = {mean['legal-moves'] / mean['healthz']:.2f} (target: at least 0.50)")
PY
