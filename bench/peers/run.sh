#!/usr/bin/env bash
# Turnstile side by side with its peers on the same workload, for Connect Four and for
# Tic-Tac-Toe: complete games of uniformly random legal moves, until a line or a full board.
#
#   bench/peers/run.sh                       # defaults below
#   BGIO_GAMES=2000 OPENSPIEL_GAMES=200000 TURNSTILE_COMMANDS=1000000 bench/peers/run.sh
#
# Installs, into the scratch folder target/peers/ (ignored by git; PEERS_DIR to move it):
#   - boardgame.io from the npm registry (BGIO_VERSION), played headless through its Client and
#     through its game reducer (boardgameio.cjs);
#   - OpenSpiel (`open-spiel` from PyPI, OPENSPIEL_VERSION) in a virtualenv, played with
#     `pyspiel.load_game("connect_four")` from a Python loop (openspiel.py), and from a C++ loop
#     (openspiel_loop.cc) compiled against the headers in the wheel and linked to its pyspiel.so;
# then builds and runs `turnstile bench connect4` and `turnstile bench tictactoe` (release) and
# prints, game by game, each one's games/s and moves/s and Turnstile's ratio to each (every
# JSON line in target/peers/ names its `game`). Tic-Tac-Toe games are ~7.6 moves against
# Connect Four's ~21, so each peer plays TTT_FACTOR times as many of them (default 3). A peer that cannot be installed or run is reported
# with the reason, and the others still run. Needs node + npm, python3 (3.11+, for the wheel)
# with venv, g++ and cargo. Turnstile is built and run where cargo puts it (CARGO_TARGET_DIR
# when set, target/ otherwise).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
peers="${PEERS_DIR:-$root/target/peers}"
bgio_version="${BGIO_VERSION:-0.50.2}"
openspiel_version="${OPENSPIEL_VERSION:-2.0.2}"
bgio_games="${BGIO_GAMES:-2000}"
openspiel_py_games="${OPENSPIEL_PY_GAMES:-50000}"
openspiel_games="${OPENSPIEL_GAMES:-200000}"
turnstile_commands="${TURNSTILE_COMMANDS:-1000000}"
ttt_factor="${TTT_FACTOR:-3}"
# Turnstile's id, OpenSpiel's name and the number of games of each game.
games_of() { # id, games of Connect Four
  if [ "$1" = tictactoe ]; then echo $(($2 * ttt_factor)); else echo "$2"; fi
}
openspiel_name() { if [ "$1" = tictactoe ]; then echo tic_tac_toe; else echo connect_four; fi; }
python="${PYTHON:-python3}"

mkdir -p "$peers"
results="$peers/results.jsonl"
: >"$results"
log="$peers/run.log"
: >"$log"

say() { printf '%s\n' "$*" >&2; }
failed() { # peer, path, why[, game]
  say "!! $1 ($2${4:+, $4}) skipped: $3 (details in $log)"
  if [ -n "${4:-}" ]; then
    printf '{"peer": "%s", "path": "%s", "game": "%s", "error": "%s"}\n' "$1" "$2" "$4" "$3" >>"$results"
  else
    printf '{"peer": "%s", "path": "%s", "error": "%s"}\n' "$1" "$2" "$3" >>"$results"
  fi
}

# ---- boardgame.io ----------------------------------------------------------------------------
say "== boardgame.io $bgio_version (npm) into $peers/node"
bgio_ok=1
mkdir -p "$peers/node"
if [ ! -f "$peers/node/node_modules/boardgame.io/package.json" ] ||
  ! grep -q "\"version\": \"$bgio_version\"" "$peers/node/node_modules/boardgame.io/package.json"; then
  (cd "$peers/node" && { [ -f package.json ] || echo '{"private": true}' >package.json; } &&
    npm install --no-audit --no-fund --loglevel=error "boardgame.io@$bgio_version") >>"$log" 2>&1 ||
    { bgio_ok=0; failed boardgame.io client "npm install boardgame.io@$bgio_version failed"; }
fi
if [ "$bgio_ok" = 1 ]; then
  for game in connect4 tictactoe; do
    n="$(games_of "$game" "$bgio_games")"
    say "   $game: playing $n random games through the Client and the reducer"
    NODE_PATH="$peers/node/node_modules" node "$here/boardgameio.cjs" "$n" 1 "$game" \
      >>"$results" 2>>"$log" || failed boardgame.io client "node boardgameio.cjs failed" "$game"
  done
fi

# ---- OpenSpiel -------------------------------------------------------------------------------
say "== OpenSpiel $openspiel_version (PyPI) into $peers/venv"
os_ok=1
venv="$peers/venv"
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv" >>"$log" 2>&1 || { os_ok=0; failed OpenSpiel python "$python -m venv failed"; }
fi
if [ "$os_ok" = 1 ] && ! "$venv/bin/python" -c "
import importlib.metadata, pyspiel
assert importlib.metadata.version('open-spiel') == '$openspiel_version'" >/dev/null 2>&1; then
  "$venv/bin/pip" install --quiet "open-spiel==$openspiel_version" >>"$log" 2>&1 ||
    { os_ok=0; failed OpenSpiel python "pip install open-spiel==$openspiel_version failed (is there a wheel for $("$venv/bin/python" -V 2>&1)?)"; }
fi
if [ "$os_ok" = 1 ]; then
  for game in connect4 tictactoe; do
    n="$(games_of "$game" "$openspiel_py_games")"
    say "   $game: playing $n random games from Python"
    "$venv/bin/python" "$here/openspiel.py" "$n" 1 "$(openspiel_name "$game")" >>"$results" 2>>"$log" ||
      failed OpenSpiel python "openspiel.py failed" "$game"
  done
  site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  pylib="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR"))')"
  pyver="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_config_var("LDVERSION"))')"
  loop="$peers/openspiel_loop"
  if [ ! -x "$loop" ] || [ "$here/openspiel_loop.cc" -nt "$loop" ]; then
    say "   compiling the C++ loop against the wheel's headers and pyspiel.so"
    g++ -O2 -std=c++17 -w -I"$site" -I"$site/open_spiel/abseil-cpp" -I"$site/open_spiel/json/include" \
      "$here/openspiel_loop.cc" -o "$loop" "$site/pyspiel.so" -L"$pylib" -l"python$pyver" \
      -Wl,-rpath,"$site" -Wl,-rpath,"$pylib" >>"$log" 2>&1 ||
      failed OpenSpiel cpp "g++ could not build openspiel_loop.cc against the wheel"
  fi
  if [ -x "$loop" ]; then
    for game in connect4 tictactoe; do
      n="$(games_of "$game" "$openspiel_games")"
      say "   $game: playing $n random games from C++"
      "$loop" "$n" 1 "$(openspiel_name "$game")" >>"$results" 2>>"$log" ||
        failed OpenSpiel cpp "openspiel_loop failed" "$game"
    done
  fi
fi

# ---- Turnstile -------------------------------------------------------------------------------
say "== turnstile bench connect4 and tictactoe --commands $turnstile_commands (release)"
if (cd "$root" && cargo build --release --quiet --bin turnstile) >>"$log" 2>&1; then
  : >"$peers/turnstile.jsonl"
  for game in connect4 tictactoe; do
    "${CARGO_TARGET_DIR:-$root/target}/release/turnstile" bench "$game" --commands "$turnstile_commands" \
      >>"$peers/turnstile.jsonl" 2>>"$log" || say "!! turnstile bench $game failed (see $log)"
  done
else
  say "!! cargo build --release --bin turnstile failed (see $log)"
  : >"$peers/turnstile.jsonl"
fi

say "== load while measuring: $(uptime)"
"$python" "$here/compare.py" "$peers/turnstile.jsonl" "$results"
