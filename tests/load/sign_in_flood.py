#!/usr/bin/env python3
"""Moves while sign-ins flood: p50/p99 latency of POST /v1/games/{id}/moves
idle, then with SIGN_INS sign-ins a second in flight (each one an Argon2id
check on the password thread), on one release server. Each sign-in comes
from a client of its own (`X-Forwarded-For` from a trusted proxy), so no
per-client cap turns them away: what holds them is the password thread's
share of a core (`--password-share`, default 15%).

Usage: tests/load/sign_in_flood.py BINARY [SECONDS] [SIGN_INS] [SHARE]   (10 s, 20/s, 15%)
FLOOD=wrong floods with wrong passwords (a check, no token written);
FLOOD=healthz with health checks (the flood's own cost, no check).
"""

import json
import multiprocessing
import os
import sys
import threading
import time
import urllib.error
import urllib.request

from server import Server

binary = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
rate = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0
share = sys.argv[4] if len(sys.argv) > 4 else "15"
server = Server(binary, "--trust-proxy", "127.0.0.1", "--password-share", share)
call, base = server.call, server.base


def moves_for(duration):
    """Plays games of two seats move by move for `duration`; the latencies of the moves, in ms."""
    latencies = []
    end = time.time() + duration
    while time.time() < end:
        game = call("POST", "/v1/games", {"rules": {"preset": "murray", "rows": 8, "cols": 8},
                                              "players": [{"name": "A"}, {"name": "B"}]})
        tokens = {s["player"]: s["token"] for s in game["seats"]}
        while time.time() < end:
            g = call("GET", f"/v1/games/{game['id']}")
            if g["status"] == "over":
                break
            page = call("GET", f"/v1/games/{game['id']}/legal-moves?limit=1")
            path = page["moves"][0]["path"]
            started = time.perf_counter()
            call("POST", f"/v1/games/{game['id']}/moves", {"path": path}, tokens[g["position"]["to_move"]])
            latencies.append((time.perf_counter() - started) * 1000)
    return sorted(latencies)


def flood(stop, answers):
    """Asks for a token (one password check each) `rate` times a second
    until stopped, each time as another client; counts the answers by status."""
    body = {"name": "Flood", "password": "flood-password", "label": "x", "scopes": ["play"]}
    if os.environ.get("FLOOD") == "wrong":
        body["password"] = "wrong-password"
    lock = threading.Lock()

    def one(i):
        if os.environ.get("FLOOD") == "healthz":
            request = urllib.request.Request(base + "/healthz")
        else:
            request = urllib.request.Request(base + "/v1/tokens", data=json.dumps(body).encode(), method="POST",
                                             headers={"Content-Type": "application/json"})
        request.add_header("X-Forwarded-For", f"10.0.{i // 256 % 256}.{i % 256}")
        try:
            with urllib.request.urlopen(request) as answer:
                status = answer.status
        except urllib.error.HTTPError as e:
            status = e.code
        with lock:
            answers[status] = answers.get(status, 0) + 1

    threads, i = [], 0
    while not stop.is_set():
        threads.append(threading.Thread(target=one, args=(i,)))
        threads[-1].start()
        i += 1
        time.sleep(1 / rate)
    for t in threads:
        t.join()


def quantile(xs, q):
    return xs[min(len(xs) - 1, int(q * len(xs)))]


try:
    call("POST", "/v1/accounts", {"name": "Flood", "password": "flood-password"})
    idle = moves_for(seconds)
    # The flood runs in a process of its own: in this one its threads would
    # hold the interpreter's lock while the moves are timed.
    stop = multiprocessing.Event()
    answers = multiprocessing.Manager().dict()
    flooder = multiprocessing.Process(target=flood, args=(stop, answers))
    flooder.start()
    busy = moves_for(seconds)
    stop.set()
    flooder.join()
    print(f"moves idle: {len(idle)}, p50 {quantile(idle, 0.5):.1f} ms, p99 {quantile(idle, 0.99):.1f} ms")
    print(f"moves with {rate:.0f} sign-ins/s: {len(busy)}, p50 {quantile(busy, 0.5):.1f} ms, "
          f"p99 {quantile(busy, 0.99):.1f} ms")
    print("sign-ins answered: " + ", ".join(f"{n} × {status}" for status, n in sorted(answers.items())))
finally:
    server.stop()
