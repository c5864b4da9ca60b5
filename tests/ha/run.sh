#!/usr/bin/env bash
# Turnstile on a PostgreSQL cluster that fails over (docs/deploy.md): starts the Patroni
# cluster of tests/ha/cluster.sh, two `turnstile serve` nodes on its multi-host URL
# (target_session_attrs=read-write), and `turnstile chaos drive` through both nodes; then kills
# the primary's Patroni and PostgreSQL processes with kill -9, HA_KILLS times (default 3), each
# time only once a synchronous standby streams again and every member is back. Afterwards
# `turnstile chaos check` asks the cluster whether every acknowledged command is in its log
# exactly once at its sequence, every log gapless, and writes resumed within 30 s of each kill;
# every match's replay is verified by `turnstile replay verify`. Prints its figures, exits
# non-zero on any failure, and stops everything it started (by pid).
#
#   bash tests/ha/run.sh                       # HA_KILLS=3 HA_MATCHES=16
#   TURNSTILE_BIN=target/release/turnstile HA_KILLS=5 bash tests/ha/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

HA_DIR=${HA_DIR:-/tmp/turnstile-ha}
export HA_DIR
OUT=${HA_OUT:-$HA_DIR/run}
KILLS=${HA_KILLS:-3}
MATCHES=${HA_MATCHES:-16}
MAX_RESUME=${HA_MAX_RESUME:-30}
CLUSTER=tests/ha/cluster.sh
PORT_A=${HA_PORT_A:-18181}
PORT_B=${HA_PORT_B:-18182}

if [ -z "${TURNSTILE_BIN:-}" ]; then
  cargo build -q -p turnstile-cli
  TURNSTILE_BIN=target/debug/turnstile
fi
BIN=$TURNSTILE_BIN

pids=()
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash "$CLUSTER" stop || true
  exit $rc
}
trap cleanup EXIT

ms() { date +%s%3N; }
say() { echo "ha: $*"; }

# A fresh cluster each run: nothing left from an earlier one decides the outcome.
bash "$CLUSTER" stop 2>/dev/null || true
rm -rf "$HA_DIR"
started=$(ms)
bash "$CLUSTER" start
say "cluster up in $(( ($(ms) - started) / 1000 )) s"
mkdir -p "$OUT"
URL=$(bash "$CLUSTER" url)
say "database $URL"

for node in a b; do
  port=$PORT_A
  [ $node = b ] && port=$PORT_B
  "$BIN" serve --addr "127.0.0.1:$port" --database "$URL" --node-id "ha-$node" \
    --command-rate 0 --create-rate 0 > "$OUT/node-$node.log" 2>&1 &
  pids+=($!)
done
for port in $PORT_A $PORT_B; do
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.5
  done
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { say "node on $port did not come up"; exit 1; }
done

rm -f "$OUT/stop" "$OUT/kills"
"$BIN" chaos drive --node "http://127.0.0.1:$PORT_A" --node "http://127.0.0.1:$PORT_B" \
  --matches "$MATCHES" --duration 1800 --stop-file "$OUT/stop" --out "$OUT" > "$OUT/drive.out" &
driver=$!
pids+=($driver)

failovers=()
for i in $(seq 1 "$KILLS"); do
  bash "$CLUSTER" wait-sync 180
  bash "$CLUSTER" wait-members 180
  sleep 3 # load on a healthy cluster
  primary=$(bash "$CLUSTER" primary)
  # Measured from the kill itself: a command acknowledged just before it is no resumption.
  killed_at=$(bash "$CLUSTER" kill "$primary")
  echo "$killed_at" >> "$OUT/kills"
  new=""
  for _ in $(seq 1 240); do
    new=$(bash "$CLUSTER" primary 2>/dev/null || true)
    [ -n "$new" ] && [ "$new" != "$primary" ] && break
    sleep 0.25
  done
  if [ -z "$new" ] || [ "$new" = "$primary" ]; then
    say "no new primary 60 s after killing $primary"
    bash "$CLUSTER" diagnose
    exit 1
  fi
  promoted_ms=$(( $(ms) - killed_at ))
  # The killed node comes back (as its supervisor would restart it) and rejoins as a replica.
  bash "$CLUSTER" revive "$primary"
  bash "$CLUSTER" wait-sync 180
  sync_ms=$(( $(ms) - killed_at ))
  bash "$CLUSTER" wait-members 180
  back_ms=$(( $(ms) - killed_at ))
  failovers+=("kill $i: $primary -> $new promoted after ${promoted_ms} ms, sync standby ${sync_ms} ms, $primary back ${back_ms} ms")
  say "${failovers[-1]}"
done
sleep 3
touch "$OUT/stop"
if ! wait "$driver"; then
  say "the load driver reported a failure:"
  cat "$OUT/drive.out"
  exit 1
fi

failed=0
"$BIN" chaos check --node "http://127.0.0.1:$PORT_B" --out "$OUT" --kills "$OUT/kills" \
  --max-resume "$MAX_RESUME" > "$OUT/check.out" || failed=1
verified=0
for replay in "$OUT"/replays/*.replay.json; do
  if "$BIN" replay verify "$replay" > /dev/null; then
    verified=$((verified + 1))
  else
    say "replay does not verify: $replay"
    failed=1
  fi
done

say "figures ($(uptime | sed 's/.*load/load/'))"
for f in "${failovers[@]}"; do say "  $f"; done
say "  drive: $(cat "$OUT/drive.out")"
say "  check: $(cat "$OUT/check.out")"
say "  replays verified by turnstile replay verify: $verified"
if [ $failed -ne 0 ]; then
  say "FAILED"
  exit 1
fi
say "passed: $KILLS primary kills, nothing acknowledged lost or applied twice"
