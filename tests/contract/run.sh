#!/usr/bin/env bash
# The contract, checked by a peer tool: schemathesis fuzzes a live server
# against the committed openapi/openapi.json (every check; the event stream
# excluded, as it never ends). Requests to a seat's endpoints (move, resign,
# leave, rematch, join) get a fresh game in the state they need and a real
# seat's token (hooks.py); what a schema cannot express is listed in
# schemathesis.toml. Then a second pass against a server with its default
# settings (rate limits, a 15% password share): whatever a fuzzer sends,
# as fast as it can, no answer is a 5xx. Usage: tests/contract/run.sh
# [LEAPFROG_BINARY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=$(realpath "${1:-$root/target/debug/leapfrog}")
examples=${EXAMPLES:-30}
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port
"$binary" serve --no-rate-limits --password-share 100 --bind "127.0.0.1:$port" --database-url "sqlite://$work/contract.db" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -sf "$url/healthz" >/dev/null && break; sleep 0.1; done
cd "$work"
LEAPFROG_URL=$url SCHEMATHESIS_HOOKS=hooks PYTHONPATH=$here \
  schemathesis --config-file "$here/schemathesis.toml" run "$url/openapi.json" --url "$url" \
  --checks all --exclude-path-regex '/events$' --max-examples "$examples" --seed 1898 --no-color

echo "== the same fuzzing against a server with its default settings: no 5xx"
kill $server; wait $server 2>/dev/null || true
"$binary" serve --bind "127.0.0.1:$port" --database-url "sqlite://$work/defaults.db" >"$work/defaults.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "$url/healthz" >/dev/null && break; sleep 0.1; done
curl -sf "$url/healthz" >/dev/null || { echo "the server with default settings did not start:"; cat "$work/defaults.log"; exit 1; }
schemathesis run "$url/openapi.json" --url "$url" --checks not_a_server_error \
  --exclude-path-regex '/events$' --max-examples "$examples" --seed 1898 --no-color
