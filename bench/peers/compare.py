"""Prints Turnstile's Connect Four and Tic-Tac-Toe figures beside the peers' and the ratios.

Usage: python3 compare.py TURNSTILE_JSONL PEERS_JSONL (bench/peers/run.sh calls it). The first
file holds `turnstile bench connect4` and `turnstile bench tictactoe` lines, the second one line
per peer, path and game (or an `error`); every line names its `game`. Ratios are Turnstile's
games per second over the peer's, game by game. Issue 14's aims are checked for each game: the
bare rules at least 3x OpenSpiel's C++ loop, with receipts at least 100x boardgame.io's faster
path.
"""

import json
import sys

GAMES = {"connect4": "Connect Four", "tictactoe": "Tic-Tac-Toe"}
# (our bench line, the peer it is measured against, the aim)
AIMS = [
    ("random_games_bare", ("OpenSpiel", "cpp"), 3),
    ("random_games_receipted", ("boardgame.io", None), 100),
]
LABELS = {
    "random_games_bare": "Turnstile, bare rules",
    "random_games_receipted": "Turnstile, Match::submit with receipts",
}


def times(ratio):
    """A ratio as `123x`, `4.5x` or `0.06x`."""
    if ratio >= 10:
        return f"{ratio:,.0f}x"
    return f"{ratio:.1f}x" if ratio >= 1 else f"{ratio:.2f}x"


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def table(game, ours, peers):
    rows = []
    for bench, label in LABELS.items():
        line = ours.get(bench)
        if line:
            rows.append((label, line["games"], line["commands"], line["gamesPerSecond"], line["perSecond"]))
    for peer in peers:
        label = f"{peer['peer']}, {peer['path']}"
        if "error" in peer:
            rows.append((label, None, None, None, peer["error"]))
        else:
            rows.append((label, peer["games"], peer["moves"], peer["gamesPerSecond"], peer["movesPerSecond"]))

    bare = ours.get("random_games_bare", {}).get("gamesPerSecond")
    receipted = ours.get("random_games_receipted", {}).get("gamesPerSecond")
    print()
    print(f"{GAMES.get(game, game)}: complete games of uniformly random legal moves")
    print(f"{'':44} {'games/s':>11} {'moves/s':>12} {'moves/game':>10} {'bare x':>9} {'receipts x':>10}")
    for label, games, moves, gps, mps in rows:
        if gps is None:
            print(f"{label:44} not measured: {mps}")
            continue
        per_game = f"{moves / games:.1f}" if games else "-"
        is_peer = not label.startswith("Turnstile")
        ratio = lambda ours_gps: times(ours_gps / gps) if is_peer and ours_gps and gps else ""
        print(f"{label:44} {gps:>11,} {mps:>12,} {per_game:>10} {ratio(bare):>9} {ratio(receipted):>10}")
    bot = ours.get("strong_bot_nodes")
    if bot:
        print(f"Turnstile's strong bot: {bot['nodesPerSecond']:,} positions searched per second "
              f"({bot['commands']} moves chosen)")

    print("Aims (issue 14):")
    for bench, (peer, path), aim in AIMS:
        line = ours.get(bench)
        against = [p["gamesPerSecond"] for p in peers
                   if p["peer"] == peer and (path is None or p["path"] == path) and "error" not in p]
        if not line or not against:
            print(f"  {LABELS[bench]:40} not compared (no {peer} figure)")
            continue
        fastest = max(against)
        got = line["gamesPerSecond"] / fastest
        verdict = "met" if got >= aim else "not met"
        print(f"  {LABELS[bench]:40} {times(got):>9} {peer} ({fastest:,} games/s)   aim {aim}x   {verdict}")


def main():
    ours = {}
    for line in lines(sys.argv[1]):
        ours.setdefault(line.get("game"), {})[line["bench"]] = line
    peers = {}
    for peer in lines(sys.argv[2]):
        # A peer that failed before it could name a game counts as missing for both.
        for game in [peer["game"]] if "game" in peer else list(GAMES):
            peers.setdefault(game, []).append(peer)
    for game in GAMES:
        if game in ours or game in peers:
            table(game, ours.get(game, {}), peers.get(game, []))


if __name__ == "__main__":
    main()
