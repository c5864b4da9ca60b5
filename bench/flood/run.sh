#!/usr/bin/env bash
# Connection flood against a local Turnstile node: 2,000 half-open connections and a burst of
# live streams, then how fast /healthz and commands answer meanwhile (see docs/server.md).
#
#   bench/flood/run.sh                 # starts target/debug/turnstile serve on a temp SQLite
#   bench/flood/run.sh http://127.0.0.1:8080 [flood.py options]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [[ $# -ge 1 && "$1" == http* ]]; then
  base="$1"; shift
  exec python3 "$here/flood.py" "$base" "$@"
fi
bin="${TURNSTILE_BIN:-$root/target/debug/turnstile}"
[[ -x "$bin" ]] || { echo "build it first: cargo build -p turnstile-cli (or set TURNSTILE_BIN)" >&2; exit 2; }
dir="$(mktemp -d)"
port="${PORT:-18437}"
"$bin" serve --addr "127.0.0.1:$port" --database "$dir/flood.db" --create-rate 0 --command-rate 0 \
  >"$dir/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
uptime
python3 "$here/flood.py" "http://127.0.0.1:$port" "$@"
