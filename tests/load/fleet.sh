#!/usr/bin/env bash
# A fleet behind nginx, measured: moves per second and latency of
# POST /v1/games/{id}/moves from many games in parallel, first straight to
# one release server, then through nginx (deploy/nginx/ as shipped) to
# three, all on one PostgreSQL (a throwaway cluster in a temporary folder).
# With ROLLING=1 the three are restarted in turn (SIGTERM, then started
# again) during the second run, which then also counts failed moves.
#
# Usage: tests/load/fleet.sh [GAMES] [SECONDS]     (needs nginx and PostgreSQL)
# BIN=path runs that server binary instead of this checkout's (A/B: keep
# the commit before's binary and alternate).
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-64}
secs=${2:-10}
cargo build --release -q -p leapfrog --bin leapfrog --example load_moves
bin=${BIN:-$PWD/target/release/leapfrog}
load=$PWD/target/release/examples/load_moves
work=$(mktemp -d)
chmod 755 "$work"
pids=()
db=postgres://postgres@127.0.0.1:18399/postgres
cleanup() {
  pkill -f -- "--database-url $db" 2>/dev/null || true
  while pgrep -f -- "--database-url $db" >/dev/null; do sleep 0.1; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  if [ -f "$work/pg/PG_VERSION" ]; then $as_pg "$pgbin/pg_ctl" -D "$work/pg" stop -m fast >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

. tests/load/pg.sh

start() { # port
  RUST_LOG=warn "$bin" serve --no-rate-limits --trust-proxy 127.0.0.1 --bind "127.0.0.1:$1" --database-url "$db" &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$1/readyz" >/dev/null && return; sleep 0.1; done
  echo "the server on $1 did not start" >&2; exit 1
}
pid_on() { # port
  pgrep -f -- "--bind 127.0.0.1:$1 " | head -1
}

start 18311
printf '%-28s ' "one process, straight"
"$load" http://127.0.0.1:18311 "$games" "$secs" 2>/dev/null
start 18312
start 18313

sed -e "s|listen 80;|listen 127.0.0.1:18310;|" \
    -e "s|127.0.0.1:8081|127.0.0.1:18311|; s|127.0.0.1:8082|127.0.0.1:18312|; s|127.0.0.1:8083|127.0.0.1:18313|" \
    -e "s|/etc/nginx/conf.d/leapfrog-proxy.conf|$PWD/deploy/nginx/leapfrog-proxy.conf|" \
    deploy/nginx/leapfrog.conf > "$work/leapfrog.conf"
user=""; [ "$(id -u)" = 0 ] && user="user root;"
cat > "$work/nginx.conf" <<CONF
$user
worker_processes 2;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/body; proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/fastcgi; uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
  include $work/leapfrog.conf;
}
CONF
nginx -c "$work/nginx.conf" -p "$work" -e "$work/nginx-error.log"
for _ in $(seq 50); do curl -sf http://127.0.0.1:18310/healthz >/dev/null && break; sleep 0.1; done

if [ "${ROLLING:-0}" = 1 ]; then
  (
    sleep 2
    for port in 18311 18312 18313; do
      pid=$(pid_on $port); t0=$(date +%s.%N); kill -TERM "$pid"
      while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
      awk -v a="$t0" -v b="$(date +%s.%N)" -v p="$port" 'BEGIN { printf "  the process on %s drained in %.2f s\n", p, b - a }' >> "$work/drains"
      RUST_LOG=warn "$bin" serve --no-rate-limits --trust-proxy 127.0.0.1 --bind "127.0.0.1:$port" --database-url "$db" &
      for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
      sleep 1
    done
  ) &
  restarts=$!
fi
printf '%-28s ' "three processes, via nginx"
"$load" http://127.0.0.1:18310 "$games" "$secs" 2>"$work/load.err"
if [ -n "${restarts:-}" ]; then wait "$restarts"; cat "$work/drains"; fi
# What failed, if anything: each kind once, with its count.
sort "$work/load.err" | uniq -c | sort -rn | head -5
if [ -s "$work/load.err" ]; then
  sed -E 's/^[0-9\/: ]+\[[a-z]+\] [0-9#]+: \*[0-9]+ //; s/, client:.*//' "$work/nginx-error.log" | sort | uniq -c | sort -rn | head -5
fi
