#!/usr/bin/env python3
"""Bounded work, measured: the attacks of issue "Bounded work" at once, with
the server's defaults, while a person plays the computer.

    tests/load/bounded.py target/release/leapfrog [SECONDS]

Starts `leapfrog serve` on a free loopback port and a fresh SQLite file
(trusting 127.0.0.1 as a proxy, so that each attacker can be a client of
its own through X-Forwarded-For), then:

1. a person plays `medium` on Murray 15x15 alone: the computer's reply time;
2. the same while twenty clients flood the analysis endpoint to its limits
   (200000 iterations on 26x26, two at a time each);
3. for SECONDS (default 30), that flood and every other request that used
   to hang the server, at once: legal moves of a board whose moves cannot
   be counted, its jump tree, moves applied on it, games created on it,
   long names, the lobby.

It prints the computer's reply times, the slowest answer of each kind of
request in phase 3 with the answers' statuses, /healthz's latency (probed
every 50 ms), and the server's memory (VmRSS, VmHWM). Every loop is bounded
in count and time and talks to 127.0.0.1 only.
"""

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/leapfrog"
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT = free_port()


def request(method, path, body=None, client="127.0.0.1", token=None, timeout=60):
    """One request on a fresh connection: (status, body bytes, seconds)."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    headers = {"X-Forwarded-For": client}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    start = time.monotonic()
    try:
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        payload = resp.read()
        return resp.status, payload, time.monotonic() - start
    except (OSError, http.client.HTTPException):
        return 0, b"", time.monotonic() - start
    finally:
        conn.close()


def lattice(ranks, files):
    rows = []
    for r in reversed(range(ranks)):
        rows.append("".join("1" if r % 2 == 0 and f % 2 == 0 and (r, f) != (0, 0) else "O" for f in range(files)))
    return "/".join(rows)


def lattice_holes(ranks, files):
    return [f"{chr(97 + f)}{r + 1}" for r in range(0, ranks, 2) for f in range(0, files, 2) if (r, f) != (0, 0)]


LATTICE = {"rules": {"preset": "old"}, "position": {"board": lattice(11, 11), "ply": 10, "scores": [0, 0]}}
LATTICE9 = {"rules": {"preset": "old"}, "position": {"board": lattice(9, 9), "ply": 10, "scores": [0, 0]}}

ATTACKS = {
    "legal moves, uncountable (limit 1)": lambda: request("POST", "/v1/legal-moves", {**LATTICE, "limit": 1}),
    "jump tree of 9x9 from a1": lambda: request("POST", "/v1/legal-moves", {**LATTICE9, "from": "a1"}),
    "legal moves, cursor near the budget": lambda: request(
        "POST", "/v1/legal-moves", {"rules": {"preset": "old"}, "position": {"board": lattice(7, 7), "ply": 10,
                                                                             "scores": [0, 0]}, "cursor": "m4200"}),
    "apply on the uncountable board": lambda: request("POST", "/v1/apply", {**LATTICE, "move": {"path": ["a1", "a3"]}}),
    "a game on an 11x9 lattice": lambda: request("POST", "/v1/games", {
        "rules": {"preset": "old", "rows": 11, "cols": 9, "holes": lattice_holes(11, 9), "opening": {"type": "none"}},
        "players": [{"name": "Ann"}, {"open": "public"}]}),
    "names: 60000-character rule name": lambda: request("POST", "/v1/games", {
        "rules": {"preset": "old", "name": "x" * 60000}, "players": [{"name": "A"}, {"name": "B"}]}),
    "the lobby": lambda: request("GET", "/v1/games?status=waiting"),
}

ANALYSIS = {"rules": {"preset": "murray", "rows": 26, "cols": 26}, "iterations": 200000}


def murray26():
    status, body, _ = request("POST", "/v1/setups", {"rules": {"preset": "murray", "rows": 26, "cols": 26},
                                                      "players": 2, "seed": 1})
    position = json.loads(body)["position"]
    # Past the opening removals: two holes, so there are jumps to think about.
    return {"board": position["board"], "ply": position["ply"], "scores": position["scores"]}


def person_against_computer(moves, label):
    """Plays `moves` moves of a person against `medium`; returns the
    computer's reply times (from the person's answer to the computer's
    move being stored)."""
    status, body, _ = request("POST", "/v1/games", {"rules": {"preset": "murray"},
                                                    "players": [{"name": "Person"}, {"computer": "medium"}],
                                                    "seed": 5}, client="10.9.9.9")
    game = json.loads(body)
    gid, token = game["id"], game["seats"][0]["token"]
    replies = []
    for _ in range(moves):
        st, body, _ = request("GET", f"/v1/games/{gid}")
        g = json.loads(body)
        if g["status"] == "over":
            break
        page = json.loads(request("GET", f"/v1/games/{gid}/legal-moves?limit=1")[1])
        st, body, _ = request("POST", f"/v1/games/{gid}/moves", {"path": page["moves"][0]["path"]},
                              client="10.9.9.9", token=token)
        if st != 201:
            print(f"  {label}: the person's move got {st}: {body[:200]!r}")
            break
        version = json.loads(body)["version"]
        start = time.monotonic()
        while time.monotonic() - start < 30:
            g = json.loads(request("GET", f"/v1/games/{gid}")[1])
            if g["version"] > version or g["status"] == "over":
                break
            time.sleep(0.005)
        replies.append(time.monotonic() - start)
    return replies


def main():
    db = tempfile.mkdtemp(prefix="leapfrog-bounded-")
    server = subprocess.Popen([BINARY, "serve", "--bind", f"127.0.0.1:{PORT}",
                               "--database-url", f"sqlite://{db}/games.db", "--trust-proxy", "127.0.0.1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if request("GET", "/healthz", timeout=1)[0] == 200:
                break
            time.sleep(0.1)
        pid = server.pid
        quiet = person_against_computer(12, "quiet")
        print(f"computer (medium, Murray 15x15) reply, no flood: median {statistics.median(quiet)*1000:.0f} ms, "
              f"max {max(quiet)*1000:.0f} ms ({len(quiet)} moves)")

        position = murray26()
        worst = {}
        statuses = {}
        lock = threading.Lock()
        until = [0.0]

        def note(kind, status, seconds):
            with lock:
                worst[kind] = max(worst.get(kind, 0.0), seconds)
                statuses.setdefault(kind, {}).setdefault(status, 0)
                statuses[kind][status] += 1

        def analyst(client):
            while time.monotonic() < until[0]:
                st, _, s = request("POST", "/v1/analysis", {**ANALYSIS, "position": position}, client=client)
                note("analysis, 200000 iterations on 26x26", st, s)
                if st in (429, 503):
                    time.sleep(0.05)

        def attacker(kind, send):
            while time.monotonic() < until[0]:
                st, _, s = send()
                note(kind, st, s)

        # Phase 2: the analysis flood alone, while the person plays.
        until[0] = time.monotonic() + 3600
        analysts = [threading.Thread(target=analyst, args=(f"10.1.0.{i}",)) for i in range(20) for _ in range(2)]
        for t in analysts:
            t.start()
        time.sleep(2)
        flooded = person_against_computer(12, "flood")
        until[0] = 0
        for t in analysts:
            t.join()
        print(f"computer (medium, Murray 15x15) reply, analyses flooded: median "
              f"{statistics.median(flooded)*1000:.0f} ms, max {max(flooded)*1000:.0f} ms ({len(flooded)} moves); "
              f"analyses {dict(sorted(statuses.get('analysis, 200000 iterations on 26x26', {}).items()))}")
        worst.clear()
        statuses.clear()

        # Phase 3: everything at once.
        until[0] = time.monotonic() + SECONDS
        health = []

        def prober():
            while time.monotonic() < until[0]:
                st, _, s = request("GET", "/healthz", timeout=10)
                health.append((st, s))
                time.sleep(0.05)

        memory = []

        def sampler():
            while time.monotonic() < until[0]:
                with open(f"/proc/{pid}/status") as f:
                    fields = dict(line.split(":", 1) for line in f if ":" in line)
                memory.append((int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])))
                time.sleep(0.2)

        threads = [threading.Thread(target=analyst, args=(f"10.1.0.{i}",)) for i in range(20) for _ in range(2)]
        threads += [threading.Thread(target=attacker, args=(k, f)) for k, f in ATTACKS.items()]
        threads += [threading.Thread(target=prober), threading.Thread(target=sampler)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(f"everything at once for {SECONDS:.0f} s:")
        print(f"{'request':<42} {'slowest':>9}  answers")
        for kind in sorted(worst):
            print(f"{kind:<42} {worst[kind]*1000:7.0f} ms  {dict(sorted(statuses[kind].items()))}")
        lat = sorted(s for st, s in health)
        bad = sum(1 for st, _ in health if st != 200)
        print(f"/healthz: {len(lat)} probes, {bad} not 200, median {statistics.median(lat)*1000:.1f} ms, "
              f"p99 {lat[int(len(lat)*0.99)-1]*1000:.1f} ms, max {lat[-1]*1000:.1f} ms")
        print(f"server memory: VmRSS max {max(m[0] for m in memory)//1024} MB, "
              f"VmHWM {memory[-1][1]//1024} MB")
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        for name in os.listdir(db):
            os.remove(os.path.join(db, name))
        os.rmdir(db)


if __name__ == "__main__":
    main()
