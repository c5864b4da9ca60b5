"""Prints Turnstile's Connect Four figures beside the peers' and the ratios between them.

Usage: python3 compare.py TURNSTILE_JSONL PEERS_JSONL (bench/peers/run.sh calls it). The first
file holds `turnstile bench connect4` lines, the second one line per peer path (or an `error`).
Ratios are Turnstile's games per second over the peer's. The issue's aims are checked against
the faster boardgame.io path: bare rules at least 1000x, with receipts at least 30x.
"""

import json
import sys

AIMS = {"random_games_bare": 1000, "random_games_receipted": 30}


def times(ratio):
    """A ratio as `123x`, `4.5x` or `0.06x`."""
    if ratio >= 10:
        return f"{ratio:,.0f}x"
    return f"{ratio:.1f}x" if ratio >= 1 else f"{ratio:.2f}x"


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    ours = {line["bench"]: line for line in lines(sys.argv[1])}
    peers = lines(sys.argv[2])
    rows = []
    labels = {
        "random_games_bare": "Turnstile, bare rules",
        "random_games_receipted": "Turnstile, Match::submit with receipts",
    }
    for bench, label in labels.items():
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
    print("Connect Four: complete games of uniformly random legal moves")
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
        print(f"\nTurnstile's strong bot: {bot['nodesPerSecond']:,} positions searched per second "
              f"({bot['commands']} moves chosen)")

    bgio = [p["gamesPerSecond"] for p in peers if p["peer"] == "boardgame.io" and "error" not in p]
    if bgio:
        fastest = max(bgio)
        print(f"\nAims, against boardgame.io's faster path ({fastest:,} games/s):")
        for bench, aim in AIMS.items():
            line = ours.get(bench)
            if line:
                got = line["gamesPerSecond"] / fastest
                verdict = "met" if got >= aim else "not met"
                print(f"  {labels[bench]:40} {times(got):>9}   aim {aim:>5}x   {verdict}")


if __name__ == "__main__":
    main()
