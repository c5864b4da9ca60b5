#!/usr/bin/env python3
"""Opens N half-open connections and a burst of live streams against a Turnstile server on
loopback, and measures how fast /healthz and commands answer meanwhile.

Usage: flood.py BASE_URL [--half-open 2000] [--streams 200] [--probes 50]
Prints one JSON object. Standard library only."""
import argparse, http.client, json, socket, statistics, sys, threading, time, urllib.parse

def request(host, port, method, path, body=None, token=None, timeout=30):
    started = time.monotonic()
    try:
        c = http.client.HTTPConnection(host, port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        c.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data, time.monotonic() - started
    except Exception as e:  # refused, reset or timed out: counted as a failure
        return None, str(e).encode(), time.monotonic() - started

def pct(values, p):
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(len(values) * p))] * 1000, 1)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--half-open", type=int, default=2000)
    ap.add_argument("--streams", type=int, default=200)
    ap.add_argument("--probes", type=int, default=50)
    a = ap.parse_args()
    u = urllib.parse.urlparse(a.base)
    host, port = u.hostname, u.port or 80

    status, data, _ = request(host, port, "POST", "/api/v1/matches",
        {"game": "sokoban", "config": {"collection": "microban", "level": 1}, "seats": [{"kind": "human"}]})
    if status != 201:
        print(json.dumps({"error": "could not create a match", "status": status, "body": data.decode(errors="replace")}))
        return 1
    created = json.loads(data)
    match_id = created["matchId"] if "matchId" in created else created["id"]
    token = next(s["token"] for s in created["seats"] if s.get("token"))
    spectator = created.get("spectatorToken")

    def baseline(n):
        h = [request(host, port, "GET", "/healthz") for _ in range(n)]
        return [t for s, _, t in h if s == 200], sum(1 for s, _, _ in h if s != 200)
    base_ok, base_fail = baseline(a.probes)

    # The flood: half-open connections (a partial request head, never finished).
    half_open, refused_connects = [], 0
    for i in range(a.half_open):
        try:
            s = socket.create_connection((host, port), timeout=5)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            half_open.append(s)
        except OSError:
            refused_connects += 1
    # A burst of live streams on one token (the cap refuses beyond it) and on the spectator's.
    stream_status = {}
    streams = []
    for i in range(a.streams):
        tok = token if i % 2 == 0 else spectator
        try:
            s = socket.create_connection((host, port), timeout=5)
            s.sendall(f"GET /api/v1/matches/{match_id}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tok}\r\n\r\n".encode())
            s.settimeout(5)
            line = s.recv(64).split(b"\r\n")[0].decode(errors="replace")
            code = line.split(" ")[1] if " " in line else "closed"
            stream_status[code] = stream_status.get(code, 0) + 1
            streams.append(s)
        except OSError:
            stream_status["error"] = stream_status.get("error", 0) + 1

    flood_ok, flood_fail = baseline(a.probes)
    commands, command_fail = [], 0
    sequence = 0
    for i in range(a.probes):
        direction = "right" if i % 2 == 0 else "left"
        st, data, t = request(host, port, "POST", f"/api/v1/matches/{match_id}/commands",
            {"commandId": f"flood{i}", "expectedSequence": sequence, "action": {"type": "move", "direction": direction}}, token)
        if st == 200:
            commands.append(t)
            sequence += 1
        else:
            command_fail += 1
    still_open = 0
    for s in half_open:
        try:
            s.setblocking(False)
            if s.recv(1) == b"":
                continue
            still_open += 1
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
    for s in half_open + streams:
        try:
            s.close()
        except OSError:
            pass
    print(json.dumps({
        "halfOpen": a.half_open, "connectsRefused": refused_connects,
        "halfOpenStillOpenAfterProbes": still_open,
        "streamAnswers": stream_status,
        "healthzBefore": {"ok": len(base_ok), "failed": base_fail, "p50ms": pct(base_ok, .5), "p99ms": pct(base_ok, .99)},
        "healthzDuringFlood": {"ok": len(flood_ok), "failed": flood_fail, "p50ms": pct(flood_ok, .5), "p99ms": pct(flood_ok, .99), "maxms": pct(flood_ok, 1.0)},
        "commandsDuringFlood": {"ok": len(commands), "failed": command_fail, "p50ms": pct(commands, .5), "p99ms": pct(commands, .99)},
    }, indent=1))
    return 0

if __name__ == "__main__":
    sys.exit(main())
