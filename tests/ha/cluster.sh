#!/usr/bin/env bash
# A PostgreSQL high-availability cluster on this machine for Turnstile's failover test: one etcd
# member and three PostgreSQL nodes managed by Patroni — one primary, one synchronous standby
# (synchronous_mode_strict: a commit is acknowledged only once it is flushed on the standby too)
# and one asynchronous replica that becomes the synchronous standby when the old one is
# promoted, so writes resume at promotion instead of waiting for the killed node to rejoin
# (docs/deploy.md says why) — all on 127.0.0.1, away from the machine's own PostgreSQL on 5432. Patroni and etcd run as the
# `postgres` user; their packages (Debian's `patroni` and `etcd-server`) are installed when
# missing.
#
#   tests/ha/cluster.sh start          # install if needed, bootstrap, wait for a sync standby
#   tests/ha/cluster.sh status         # the members as Patroni sees them
#   tests/ha/cluster.sh url            # the multi-host URL Turnstile nodes use
#   tests/ha/cluster.sh primary        # the primary's node name (pg1 or pg2)
#   tests/ha/cluster.sh wait-sync [S]  # wait until a primary has a streaming synchronous standby
#   tests/ha/cluster.sh wait-members [S]  # wait until every member runs (a killed one rejoined)
#   tests/ha/cluster.sh kill NODE      # kill -9 that node's Patroni and every PostgreSQL process
#                                      # (prints the moment of the kill in Unix milliseconds)
#   tests/ha/cluster.sh revive NODE    # start that node's Patroni again (it rejoins, pg_rewind)
#   tests/ha/cluster.sh diagnose       # the cluster view and each member's last Patroni log lines
#   tests/ha/cluster.sh stop           # stop everything this script started, by pid
#
# Everything lives under $HA_DIR (default /tmp/turnstile-ha). Ports: etcd 23790/23800,
# PostgreSQL 15432-15434 (pg1-pg3), Patroni's REST API 18008-18010.
set -euo pipefail

HA_DIR=${HA_DIR:-/tmp/turnstile-ha}
ETCD_CLIENT=23790
ETCD_PEER=23800
NODES=(pg1 pg2 pg3)
declare -A PG_PORT=([pg1]=15432 [pg2]=15433 [pg3]=15434)
declare -A API_PORT=([pg1]=18008 [pg2]=18009 [pg3]=18010)
# Failure detection: the leader key lives TTL seconds; Patroni loops every LOOP_WAIT seconds.
TTL=${HA_TTL:-12}
LOOP_WAIT=${HA_LOOP_WAIT:-2}
RETRY_TIMEOUT=${HA_RETRY_TIMEOUT:-5}

log() { echo "cluster: $*" >&2; }

bin_dir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -x "$dir/postgres" ] || { log "no PostgreSQL binaries under /usr/lib/postgresql/*/bin"; exit 3; }
  echo "$dir"
}

install_packages() {
  local missing=()
  command -v patroni >/dev/null 2>&1 || missing+=(patroni)
  command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
  ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
  command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  command -v jq >/dev/null 2>&1 || missing+=(jq)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # Another apt-get may be running on a shared machine: wait for its lock, not fail.
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Runs a command as postgres, writing its pid to FILE (the pid of the command itself: `exec`).
as_postgres_bg() {
  local pidfile=$1 logfile=$2
  shift 2
  touch "$logfile"
  chown postgres:postgres "$logfile"
  # (runuser's own stderr, where it reports a child killed by a signal, goes to the log too.)
  runuser -u postgres -- sh -c 'echo $$ > "$0"; log=$1; shift; exec "$@" >> "$log" 2>&1' "$pidfile" "$logfile" "$@" 2>> "$logfile" &
  for _ in $(seq 1 50); do
    [ -s "$pidfile" ] && return 0
    sleep 0.1
  done
  log "could not start $*"
  exit 3
}

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

write_config() {
  local node=$1 bin
  bin=$(bin_dir)
  mkdir -p "$HA_DIR/$node"
  cat > "$HA_DIR/$node/patroni.yml" <<EOF
scope: turnstile-ha
namespace: /turnstile/
name: $node
log:
  level: INFO
restapi:
  listen: 127.0.0.1:${API_PORT[$node]}
  connect_address: 127.0.0.1:${API_PORT[$node]}
etcd3:
  hosts: 127.0.0.1:$ETCD_CLIENT
watchdog:
  mode: off
bootstrap:
  dcs:
    ttl: $TTL
    loop_wait: $LOOP_WAIT
    retry_timeout: $RETRY_TIMEOUT
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: true
    synchronous_node_count: 1
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        synchronous_commit: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        max_connections: 100
        shared_buffers: 64MB
        # A recent checkpoint keeps pg_rewind of a killed primary short.
        checkpoint_timeout: 60s
  initdb:
    - encoding: UTF8
    - data-checksums
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${PG_PORT[$node]}
  connect_address: 127.0.0.1:${PG_PORT[$node]}
  data_dir: $HA_DIR/$node/data
  bin_dir: $bin
  pgpass: $HA_DIR/$node/pgpass
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: replicator
      password: replicator
  parameters:
    unix_socket_directories: $HA_DIR/$node
  # Written by Patroni at every start, not only by initdb (the bootstrap list above): a node
  # whose data directory was rewound during a failover once came back with an empty
  # pg_hba.conf, could not start as the sync standby, and the next failover stalled past 60 s.
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
  remove_data_directory_on_rewind_failure: true
  remove_data_directory_on_diverged_timelines: true
EOF
  chown -R postgres:postgres "$HA_DIR/$node"
}

start_etcd() {
  alive "$HA_DIR/etcd.pid" && return 0
  mkdir -p "$HA_DIR/etcd"
  chown -R postgres:postgres "$HA_DIR/etcd"
  as_postgres_bg "$HA_DIR/etcd.pid" "$HA_DIR/etcd.log" etcd --name ha0 \
    --data-dir "$HA_DIR/etcd/data" \
    --listen-client-urls "http://127.0.0.1:$ETCD_CLIENT" \
    --advertise-client-urls "http://127.0.0.1:$ETCD_CLIENT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER" \
    --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER" \
    --initial-cluster "ha0=http://127.0.0.1:$ETCD_PEER" \
    --initial-cluster-state new
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$ETCD_CLIENT/health" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  log "etcd did not come up (see $HA_DIR/etcd.log)"
  exit 3
}

revive() {
  local node=$1
  alive "$HA_DIR/$node/patroni.pid" && return 0
  as_postgres_bg "$HA_DIR/$node/patroni.pid" "$HA_DIR/$node/patroni.log" patroni "$HA_DIR/$node/patroni.yml"
}

# The cluster as one member's REST API sees it (the first that answers).
cluster_json() {
  local node
  for node in "${NODES[@]}"; do
    curl -sf --max-time 2 "http://127.0.0.1:${API_PORT[$node]}/cluster" 2>/dev/null && return 0
  done
  return 1
}

primary() {
  cluster_json | jq -r '.members[] | select(.role == "leader" and .state == "running") | .name' | head -n 1
}

# The primary really has a synchronous standby that is streaming, and Patroni agrees which one
# it is. PostgreSQL is asked which standby is `sync` and streaming; Patroni's cluster view must
# name that same member `sync_standby`. With synchronous_mode_strict only the member in
# Patroni's /sync key may be promoted, so a kill in the window where PostgreSQL already streams
# synchronously to a rejoined node but the key still names another (or none) would leave no
# member allowed to take over until Patroni's next loops settle it (one CI run waited past 60 s
# for a promotion; asking only PostgreSQL could not see that window).
has_sync_standby() {
  local p json named streaming
  p=$(primary)
  [ -n "$p" ] || return 1
  [ "$(psql -h 127.0.0.1 -p "${PG_PORT[$p]}" -U postgres -d postgres -tAc \
      "select pg_is_in_recovery()" 2>/dev/null)" = "f" ] || return 1
  streaming=$(psql -h 127.0.0.1 -p "${PG_PORT[$p]}" -U postgres -d postgres -tAc \
      "select string_agg(application_name, ',') from pg_stat_replication where sync_state = 'sync' and state = 'streaming'" \
      2>/dev/null) || return 1
  json=$(cluster_json) || return 1
  named=$(echo "$json" | jq -r '[.members[] | select(.role == "sync_standby" and (.state == "streaming" or .state == "running")) | .name] | join(",")')
  [ -n "$streaming" ] && [ "$streaming" = "$named" ]
}

# What a stalled failover leaves to read: the cluster as Patroni sees it and the last lines of
# every member's Patroni log (printed to stderr by `tests/ha/cluster.sh diagnose`).
diagnose() {
  local node
  log "cluster view:"
  cluster_json >&2 || log "(no member's REST API answers)"
  for node in "${NODES[@]}"; do
    log "last lines of $node's Patroni log:"
    tail -n 40 "$HA_DIR/$node/patroni.log" >&2 2>/dev/null || true
  done
}

wait_sync() {
  local limit=${1:-120} start=$SECONDS
  while ! has_sync_standby; do
    if [ $((SECONDS - start)) -ge "$limit" ]; then
      log "no synchronous standby (that PostgreSQL and Patroni agree on) after ${limit}s"
      diagnose
      return 1
    fi
    sleep 0.5
  done
}

# Every member is up and following (a killed node has rejoined).
all_members_up() {
  local json
  json=$(cluster_json) || return 1
  [ "$(echo "$json" | jq '[.members[] | select(.state == "running" or .state == "streaming")] | length')" = "${#NODES[@]}" ]
}

wait_members() {
  local limit=${1:-120} start=$SECONDS
  while ! all_members_up; do
    if [ $((SECONDS - start)) -ge "$limit" ]; then
      log "not every member is up after ${limit}s"
      diagnose
      return 1
    fi
    sleep 0.5
  done
}

# kill -9 a node's Patroni and every process of its PostgreSQL (postmaster and children), by pid.
kill_node() {
  local node=$1 pids=() pm
  alive "$HA_DIR/$node/patroni.pid" && pids+=("$(cat "$HA_DIR/$node/patroni.pid")")
  if [ -s "$HA_DIR/$node/data/postmaster.pid" ]; then
    pm=$(head -n 1 "$HA_DIR/$node/data/postmaster.pid")
    if kill -0 "$pm" 2>/dev/null; then
      pids+=("$pm")
      while read -r child; do pids+=("$child"); done < <(pgrep -P "$pm" || true)
    fi
  fi
  [ ${#pids[@]} -gt 0 ] || { log "nothing of $node is running"; return 1; }
  kill -9 "${pids[@]}" 2>/dev/null || true
  # The moment of the failure, in Unix milliseconds, for the caller's measurements.
  date +%s%3N
  for pid in "${pids[@]}"; do
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  done
  rm -f "$HA_DIR/$node/patroni.pid"
}

start() {
  install_packages
  mkdir -p "$HA_DIR"
  chown postgres:postgres "$HA_DIR"
  start_etcd
  for node in "${NODES[@]}"; do
    [ -f "$HA_DIR/$node/patroni.yml" ] || write_config "$node"
  done
  revive pg1
  # Let pg1 bootstrap the cluster before pg2 joins as its replica.
  for _ in $(seq 1 120); do
    [ -n "$(primary 2>/dev/null)" ] && break
    sleep 0.5
  done
  [ -n "$(primary 2>/dev/null)" ] || { log "no primary (see $HA_DIR/pg1/patroni.log)"; exit 3; }
  revive pg2
  revive pg3
  wait_sync 180
  wait_members 180
  local p
  p=$(primary)
  if ! psql -h 127.0.0.1 -p "${PG_PORT[$p]}" -U postgres -d postgres -tAc \
      "select 1 from pg_database where datname = 'turnstile'" | grep -q 1; then
    psql -h 127.0.0.1 -p "${PG_PORT[$p]}" -U postgres -d postgres -qc "create database turnstile"
  fi
  log "up: primary $p, synchronous standby streaming"
}

stop() {
  local node
  for node in "${NODES[@]}"; do
    if alive "$HA_DIR/$node/patroni.pid"; then
      kill -TERM "$(cat "$HA_DIR/$node/patroni.pid")" 2>/dev/null || true
    fi
  done
  for node in "${NODES[@]}"; do
    for _ in $(seq 1 100); do alive "$HA_DIR/$node/patroni.pid" || break; sleep 0.2; done
    # Whatever did not stop in time (or was left by a killed Patroni) goes by pid.
    if alive "$HA_DIR/$node/patroni.pid" || [ -s "$HA_DIR/$node/data/postmaster.pid" ]; then
      kill_node "$node" >/dev/null 2>&1 || true
    fi
  done
  if alive "$HA_DIR/etcd.pid"; then
    kill -TERM "$(cat "$HA_DIR/etcd.pid")" 2>/dev/null || true
    for _ in $(seq 1 50); do alive "$HA_DIR/etcd.pid" || break; sleep 0.2; done
  fi
  rm -f "$HA_DIR/etcd.pid"
}

url() {
  echo "postgres://postgres@127.0.0.1:${PG_PORT[pg1]},127.0.0.1:${PG_PORT[pg2]},127.0.0.1:${PG_PORT[pg3]}/turnstile?target_session_attrs=read-write"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) cluster_json | jq . ;;
  url) url ;;
  primary) primary ;;
  port) echo "${PG_PORT[$2]}" ;;
  wait-sync) wait_sync "${2:-120}" ;;
  wait-members) wait_members "${2:-120}" ;;
  diagnose) diagnose ;;
  kill) kill_node "$2" ;;
  revive) revive "$2" ;;
  *) echo "usage: $0 start|stop|status|url|primary|port NODE|wait-sync [S]|wait-members [S]|diagnose|kill NODE|revive NODE" >&2; exit 2 ;;
esac
