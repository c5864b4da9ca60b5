#!/usr/bin/env bash
# Browser tests of the web client: installs what they need, builds the server binary (with the
# current web/ embedded), and runs them in headless Chromium. Screenshots: target/screenshots/.
#
#   tests/browser/run.sh            from anywhere; exit code 0 when every test passes
#
# Environment: TURNSTILE_BIN (skip the build and test this binary), CHROMIUM (default
# /usr/bin/chromium), SKIP_APT=1 (never call apt-get), WEB_FROM_DISK=1 (development only).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

# 1. Chromium (Debian's package; the tests never download a browser)
chromium_bin="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium_bin" ]; then
  if [ "${SKIP_APT:-0}" = "1" ]; then echo "browser tests: no Chromium at $chromium_bin" >&2; exit 3; fi
  echo "browser tests: installing Debian's chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# 2. playwright-core, pinned by package-lock.json
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "browser tests: node and npm are needed (node 18 or later)" >&2; exit 3
fi
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

# 3. The binary. web/ is embedded with include_dir!, which cargo does not watch on stable Rust,
#    so touch the embedding module to make sure the binary carries the current web/ files.
if [ -z "${TURNSTILE_BIN:-}" ]; then
  touch crates/server/src/web.rs
  cargo build --bin turnstile
  export TURNSTILE_BIN="$repo/target/debug/turnstile"
fi

# 4. The tests (node's own runner; its closing summary is the last lines of the output)
mkdir -p "$repo/target/screenshots"
cd "$here"
exec node --test --test-concurrency=1 --test-reporter=spec api.test.mjs e2e.test.mjs sokoban.test.mjs
