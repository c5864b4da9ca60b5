"""Random Connect Four or Tic-Tac-Toe games in OpenSpiel, driven from Python.

Usage: python openspiel.py GAMES [SEED] [connect_four|tic_tac_toe]   (with `open-spiel`
installed; bench/peers/run.sh does that in a scratch virtualenv). Prints one JSON line, naming
the `game` by Turnstile's id (connect4, tictactoe):

- `python`: `pyspiel.load_game(name)`, and per game `new_initial_state()`, then
  `legal_actions()` / `apply_action()` until `is_terminal()`. The rules run in OpenSpiel's C++;
  the loop (and the random choice) in Python, which is how OpenSpiel's Python users play games.

Each game: uniformly random legal moves until a line or a full board, drawn from
Python's `random.Random(seed)`, so a run is repeatable.
"""

import json
import random
import sys
import time

import pyspiel


def play(game, games, rng):
    moves = 0
    start = time.perf_counter_ns()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves, time.perf_counter_ns() - start


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    name = sys.argv[3] if len(sys.argv) > 3 else "connect_four"
    game = pyspiel.load_game(name)
    play(game, max(1, games // 10), random.Random(seed + 1))  # warm-up
    moves, nanos = play(game, games, random.Random(seed))
    seconds = nanos / 1e9
    print(json.dumps({
        "peer": "OpenSpiel",
        "path": "python",
        "game": "tictactoe" if name == "tic_tac_toe" else "connect4",
        "games": games,
        "moves": moves,
        "seconds": round(seconds, 6),
        "gamesPerSecond": round(games / seconds),
        "movesPerSecond": round(moves / seconds),
    }))


if __name__ == "__main__":
    main()
