#!/usr/bin/env bash
# Restart with 1,000 active matches: create them, kill -9 the server, start it again and
# measure time-to-listen and time-until-all-loaded (see docs/server.md, "Restart").
#
#   bench/restart/run.sh                 # target/release/turnstile if built, else debug
#   bench/restart/run.sh --matches 200
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${TURNSTILE_BIN:-}"
if [[ -z "$bin" ]]; then
  for b in "$root/target/release/turnstile" "$root/target/debug/turnstile"; do
    [[ -x "$b" ]] && { bin="$b"; break; }
  done
fi
[[ -x "$bin" ]] || { echo "build it first: cargo build -p turnstile-cli --bin turnstile --release (or set TURNSTILE_BIN)" >&2; exit 2; }
echo "binary: $bin" >&2
uptime >&2
python3 "$here/restart.py" "$bin" "$@"
