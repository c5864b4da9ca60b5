#!/usr/bin/env bash
# Runs `turnstile sokoban solve` over the shared Sokoban collections and prints one Markdown
# table row per collection (solved/total, time limit, threads, median and max time of the
# solved levels), the table docs/sokoban-solver.md shows. Outside `cargo test`: it builds the
# release binary and may take long (XSokoban at 10 s per level is up to 15 minutes).
#
# usage: bench/solver/run.sh [COLLECTION[:SECONDS] ...]
#   COLLECTION is a file name in the data folder without .xsb (default: every collection
#   below, with its own time limit). Environment: THREADS (default 1), DATA (the data folder,
#   default ../shared/data/sokoban next to the repository), OUT (where the per-level JSON lines
#   go, default bench/solver/results), MEMORY (GiB per level, default 1), NOBUILD=1 to skip the
#   build.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
DATA=${DATA:-$root/../shared/data/sokoban}
[ -d "$DATA" ] || DATA=/work/shared/data/sokoban
THREADS=${THREADS:-1}
MEMORY=${MEMORY:-1}
OUT=${OUT:-$root/bench/solver/results}
mkdir -p "$OUT"
if [ "${NOBUILD:-0}" != 1 ]; then
  cargo build --release -p turnstile-cli >&2
fi
bin=$root/target/release/turnstile

if [ $# -eq 0 ]; then
  set -- microban:10 microban-ii:10 microban-iii:10 microban-iv:10 xsokoban-90:10 \
    sasquatch:10 boxoban-hard-000:1
fi

echo "| collection | solved | time limit | threads | median time (solved) | max time (solved) |"
echo "|---|---|---|---|---|---|"
for spec in "$@"; do
  name=${spec%%:*}
  limit=10
  [ "$spec" != "$name" ] && limit=${spec#*:}
  out=$OUT/$name-t$limit-j$THREADS.jsonl
  "$bin" sokoban solve "$DATA/$name.xsb" --time-limit "$limit" --threads "$THREADS" \
    --memory-limit "$MEMORY" --json > "$out" || true
  jq -rs --arg name "$name" --arg limit "$limit" --arg threads "$THREADS" '
    def ms: if . < 1000 then "\(.) ms" else "\(. / 100 | floor / 10) s" end;
    (map(select(.solved)) | map(.timeMs) | sort) as $t
    | "| \($name) | \($t | length)/\(length) | \($limit) s | \($threads) | "
      + (if ($t | length) > 0 then ($t[(($t | length) - 1) / 2 | floor] | ms) else "-" end)
      + " | "
      + (if ($t | length) > 0 then ($t[-1] | ms) else "-" end) + " |"' "$out"
done
