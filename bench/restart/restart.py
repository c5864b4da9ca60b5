#!/usr/bin/env python3
"""Restart with many active matches: creates N active matches (each with a committed command)
on a `turnstile serve` it starts, kills it with SIGKILL, starts it again on the same database
and measures how long until it listens (/healthz answers 200) and until every active match is
loaded (/metrics turnstile_resumed_matches_total reaches N), plus how fast /healthz and a new
match's command answer while the matches are still loading.

Usage: restart.py BIN [--matches 1000] [--port 18438]
Prints one JSON object. Standard library only."""
import argparse, http.client, json, os, signal, subprocess, sys, tempfile, time

def request(port, method, path, body=None, token=None, timeout=30):
    started = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        c.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data, time.monotonic() - started
    except Exception as e:  # not listening yet, reset: the caller retries
        return None, str(e).encode(), time.monotonic() - started

def serve(bin_, db, port):
    return subprocess.Popen([bin_, "serve", "--addr", f"127.0.0.1:{port}", "--database", db,
                             "--create-rate", "0", "--command-rate", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def wait_listening(port, limit=120):
    start = time.monotonic()
    while time.monotonic() - start < limit:
        status, _, _ = request(port, "GET", "/healthz", timeout=2)
        if status == 200:
            return time.monotonic()
        time.sleep(0.005)
    raise SystemExit("the server did not listen")

def resumed(port):
    status, data, _ = request(port, "GET", "/metrics", timeout=10)
    if status != 200:
        return -1
    for line in data.decode().splitlines():
        if line.startswith("turnstile_resumed_matches_total "):
            return int(line.split()[1])
    return -1

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--port", type=int, default=18438)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="turnstile-restart-")
    db = os.path.join(tmp, "restart.db")

    first = serve(a.bin, db, a.port)
    wait_listening(a.port)
    games = [
        ({"game": "tictactoe", "seats": [{"kind": "human"}, {"kind": "human"}]},
         {"type": "mark", "cell": [1, 1]}),
        ({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "human"}]},
         {"type": "drop", "column": 3}),
        ({"game": "sokoban", "config": {"collection": "microban", "level": 1}, "seats": [{"kind": "human"}]},
         {"type": "move", "direction": "right"}),
    ]
    for i in range(a.matches):
        body, action = games[i % len(games)]
        status, data, _ = request(a.port, "POST", "/api/v1/matches", body)
        assert status == 201, data
        created = json.loads(data)
        token = created["seats"][0]["token"]
        status, data, _ = request(a.port, "POST", f"/api/v1/matches/{created['matchId']}/commands",
                                  {"commandId": "c1", "expectedSequence": 0, "action": action}, token)
        assert status == 200, data
    first.send_signal(signal.SIGKILL)
    first.wait()

    started = time.monotonic()
    second = serve(a.bin, db, a.port)
    try:
        listening = wait_listening(a.port)
        # While loading: /healthz and a new match's command.
        health, commands = [], []
        loaded_at, seen = None, -1
        while time.monotonic() - started < 600:
            seen = resumed(a.port)
            if seen >= a.matches:
                loaded_at = time.monotonic()
                break
            s, _, t = request(a.port, "GET", "/healthz")
            if s == 200:
                health.append(t)
            body, action = games[2]
            s, data, _ = request(a.port, "POST", "/api/v1/matches", body)
            if s == 201:
                created = json.loads(data)
                s, _, t = request(a.port, "POST", f"/api/v1/matches/{created['matchId']}/commands",
                                  {"commandId": "c1", "expectedSequence": 0, "action": action},
                                  created["seats"][0]["token"])
                if s == 200:
                    commands.append(t)
        ms = lambda t: round(t * 1000, 1)
        med = lambda v: ms(sorted(v)[len(v) // 2]) if v else None
        print(json.dumps({
            "matches": a.matches,
            "time_to_listen_ms": ms(listening - started),
            "time_until_all_loaded_ms": ms(loaded_at - started) if loaded_at else None,
            "resumed": seen,
            "while_loading": {
                "healthz_answered": len(health), "healthz_median_ms": med(health),
                "commands_answered": len(commands), "command_median_ms": med(commands),
            },
            "load": os.getloadavg()[0],
        }))
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait()

if __name__ == "__main__":
    sys.exit(main())
