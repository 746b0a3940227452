#!/usr/bin/env bash
# Soak test: one release server on SQLite, with its default limits, for a
# given time under a mix of
#   - players: games played move after move by clients of their own
#     (load_moves, paced as people who play fast would be);
#   - stream churn: pages opening event streams and leaving after a moment;
#   - abusive clients: a flood of game creations, of malformed and huge
#     bodies, and of streams (eight at a time), all from one address.
# It prints the server's memory (RSS), open files and streams at the start
# and the end, the answers the abusers got, and checks that nothing was
# lost (every move answered 201 is stored) and that no answer was a 5xx.
#
# Usage: tests/load/soak.sh [SECONDS] (default 600). Needs curl and sqlite3.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-600}
players=${PLAYERS:-16}
cargo build --release -q -p leapfrog --bin leapfrog --example load_moves
bin=target/release/leapfrog
load=target/release/examples/load_moves
work=$(mktemp -d)
port=18311
base="http://127.0.0.1:$port"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# This machine is the players' "proxy": each player game is its own client.
RUST_LOG=warn "$bin" serve --bind "127.0.0.1:$port" --database-url "sqlite://$work/soak.db" \
  --trust-proxy 127.0.0.1 2>"$work/server.log" &
server=$!
for _ in $(seq 100); do curl -sf "$base/readyz" >/dev/null && break; sleep 0.1; done

state() { # label
  local rss fds streams
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$server/status")
  fds=$(ls "/proc/$server/fd" | wc -l)
  streams=$(curl -s "$base/readyz" | sed -n 's/.*"streams_open":\([0-9]*\).*/\1/p')
  printf '%-22s RSS %6d KiB   open files %5d   streams %5s\n' "$1" "$rss" "$fds" "$streams"
}
state "start"

# Players.
LOAD_FORWARDED=1 LOAD_PACE_MS=${PACE_MS:-20} "$load" "$base" "$players" "$secs" >"$work/players.out" 2>"$work/players.err" &
pids+=($!)

# A game to follow, and stream churn: 40 pages (clients of their own)
# opening a stream each second and leaving after 0.5 to 3 s.
game=$(curl -s "$base/v1/games" -H 'Content-Type: application/json' -H 'X-Forwarded-For: 10.99.0.1' \
  -d '{"rules": {"preset": "murray"}, "players": [{"name": "A"}, {"name": "B"}]}' | sed -n 's/^{"id":"\([^"]*\)".*/\1/p')
end=$((SECONDS + secs))
churn() { # page number
  while [ $SECONDS -lt $end ]; do
    curl -s -o /dev/null -H "X-Forwarded-For: 10.88.0.$1" --max-time "$((RANDOM % 3 + 1)).$((RANDOM % 10))" \
      "$base/v1/games/$game/events" || true
  done
}
for i in $(seq 40); do churn "$i" & pids+=($!); done

# Abusers, all from 203.0.113.66; each answer's status is counted.
abuse() { # name, curl arguments…
  local name=$1; shift
  while [ $SECONDS -lt $end ]; do
    curl -s -o /dev/null -w '%{http_code}\n' --max-time 2 -H 'X-Forwarded-For: 203.0.113.66' "$@" || true
  done >"$work/abuse-$name"
}
head -c 200000 /dev/zero | tr '\0' '[' >"$work/huge.json"
abuse create "$base/v1/games" -H 'Content-Type: application/json' \
  -d '{"rules": {"preset": "murray"}, "players": [{"name": "A"}, {"name": "B"}]}' & pids+=($!)
abuse malformed "$base/v1/games" -H 'Content-Type: application/json' -d '{"rules": {"preset": ' & pids+=($!)
abuse huge "$base/v1/legal-moves" -H 'Content-Type: application/json' --data-binary "@$work/huge.json" & pids+=($!)
for i in $(seq 8); do abuse "streams-$i" "$base/v1/games/$game/events" & pids+=($!); done

half=$((secs / 2))
sleep "$half"; state "halfway"
sleep $((secs - half))
wait "${pids[@]}" 2>/dev/null || true
pids=()
state "end of load"
sleep 3
state "3 s later"

echo "players:   $(cat "$work/players.out")"
for kind in create malformed huge streams; do
  printf 'abuser %-10s %s\n' "$kind" "$(cat "$work/abuse-$kind"* | sort | uniq -c | awk '{printf "%s×%s ", $1, $2}')"
done
answered=$(awk '{print $1}' "$work/players.out")
stored=$(sqlite3 "$work/soak.db" "SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id WHERE g.client LIKE '10.77.%'")
errors=$(cat "$work"/abuse-* | grep -c '^5' || true)
echo "moves answered 201: $answered; stored: $stored; 5xx answers to abusers: $errors"
if grep -q 'move refused\|connection failed' "$work/players.err"; then
  echo "a player was refused:"; grep -m5 'refused\|failed' "$work/players.err"; exit 1
fi
[ "$answered" -le "$stored" ] && [ "$errors" -eq 0 ] && echo "OK: nothing lost, no server error"
