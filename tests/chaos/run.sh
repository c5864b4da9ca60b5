#!/usr/bin/env bash
# kill -9 campaigns of `turnstile serve` on each backend (docs/server.md, "Chaos"): for SQLite
# and PostgreSQL in turn, `turnstile chaos cycles` kills the server under load CHAOS_CYCLES
# times (default 100) and restarts it, then checks that every acknowledged command is in its
# match's log exactly once at its sequence, the logs are gapless and every replay verifies;
# the replays are verified once more by `turnstile replay verify`. Prints one JSON report per
# backend; exits non-zero on any failure.
#
#   bash tests/chaos/run.sh                                  # 100 cycles on both backends
#   CHAOS_CYCLES=10 CHAOS_BACKENDS=sqlite bash tests/chaos/run.sh
#   TURNSTILE_BIN=target/release/turnstile bash tests/chaos/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

CYCLES=${CHAOS_CYCLES:-100}
CYCLE_MS=${CHAOS_CYCLE_MS:-1000}
MATCHES=${CHAOS_MATCHES:-16}
BACKENDS=${CHAOS_BACKENDS:-sqlite postgres}
DIR=${CHAOS_DIR:-/tmp/turnstile-chaos}
PG=${CHAOS_POSTGRES:-postgres://postgres@127.0.0.1:5432/test}

if [ -z "${TURNSTILE_BIN:-}" ]; then
  cargo build -q -p turnstile-cli
  TURNSTILE_BIN=target/debug/turnstile
fi
BIN=$TURNSTILE_BIN

failed=0
for backend in $BACKENDS; do
  out="$DIR/$backend"
  rm -rf "$out"
  mkdir -p "$out"
  schema=""
  case $backend in
    sqlite) db="$out/turnstile.db" ;;
    postgres)
      # A schema of its own (created by the server), dropped afterwards.
      schema="chaos_$(date +%s)_$$"
      db="$PG?schema=$schema" ;;
    *) echo "chaos: unknown backend $backend" >&2; exit 2 ;;
  esac
  echo "chaos: $backend, $CYCLES kill -9 cycles of ${CYCLE_MS} ms, $MATCHES matches ($(uptime | sed 's/.*load/load/'))"
  if ! "$BIN" chaos cycles --database "$db" --cycles "$CYCLES" --cycle-ms "$CYCLE_MS" \
      --matches "$MATCHES" --out "$out" | tee "$out/report.json"; then
    failed=1
  fi
  verified=0
  for replay in "$out"/replays/*.replay.json; do
    [ -e "$replay" ] || continue
    if "$BIN" replay verify "$replay" > /dev/null; then
      verified=$((verified + 1))
    else
      echo "chaos: replay does not verify: $replay" >&2
      failed=1
    fi
  done
  echo "chaos: $backend: $verified replays verified by turnstile replay verify"
  if [ -n "$schema" ]; then
    psql "$PG" -qc "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
  fi
done
if [ $failed -ne 0 ]; then
  echo "chaos: FAILED" >&2
  exit 1
fi
echo "chaos: passed"
