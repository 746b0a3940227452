#!/usr/bin/env bash
# Builds the npm package in js/: the rules engine's stateless API compiled
# to WebAssembly (release), its wasm-bindgen glue in js/wasm/, and the
# TypeScript types of its requests and answers from openapi/openapi.json
# (js/api.d.ts). Installs what it needs and lacks: the wasm32 target and
# wasm-bindgen-cli of the version the crate uses.
# Usage: crates/leapfrog-js/build.sh [--page]; then `npm install crates/leapfrog-js/js`.
# --page also copies the engine to the page's committed copy
# (crates/leapfrog/web/engine/, served by the binary).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
version=0.2.130 # = the wasm-bindgen crate's version in Cargo.toml
rustup target add wasm32-unknown-unknown >/dev/null
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  cargo install wasm-bindgen-cli --version "$version"
fi
# Paths written into the module (panic locations) relative to the checkout
# and the cargo home, so that any clone builds the same bytes.
RUSTFLAGS="--remap-path-prefix=$root=. --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=cargo" \
  cargo build --release -p leapfrog-js --target wasm32-unknown-unknown
target=${CARGO_TARGET_DIR:-../../target}
wasm-bindgen --target web --out-dir js/wasm "$target/wasm32-unknown-unknown/release/leapfrog_js.wasm"
if [ "${1:-}" = --page ]; then
  page=../leapfrog/web/engine
  mkdir -p "$page/wasm"
  cp js/index.js "$page/index.js"
  cp js/wasm/leapfrog_js.js js/wasm/leapfrog_js_bg.wasm "$page/wasm/"
fi
cd js
npm ci --silent --no-audit --no-fund
npx openapi-typescript ../../../openapi/openapi.json -o api.d.ts
