#!/usr/bin/env python3
"""Moves while sign-ins flood: p50/p99 latency of POST /v1/games/{id}/moves
idle, then with SIGN_INS sign-ins a second in flight (each one an Argon2id
check on the password thread), on one release server.

Usage: tests/load/sign_in_flood.py BINARY [SECONDS] [SIGN_INS]   (10 s, 20/s)
FLOOD=wrong floods with wrong passwords (a check, no token written);
FLOOD=healthz with health checks (the flood's own cost, no check).
"""

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
server = Server(binary)
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


def flood(stop, answered):
    """Asks for a token (one password check each) `rate` times a second until stopped."""
    body = {"name": "Flood", "password": "flood-password", "label": "x", "scopes": ["play"]}

    def one():
        try:
            if os.environ.get("FLOOD") == "healthz":
                urllib.request.urlopen(base + "/healthz").read()
            elif os.environ.get("FLOOD") == "wrong":
                call("POST", "/v1/tokens", {**body, "password": "wrong-password"})
            else:
                call("POST", "/v1/tokens", body)
            with answered.get_lock():
                answered.value += 1
        except urllib.error.HTTPError:
            pass

    while not stop.is_set():
        threading.Thread(target=one).start()
        time.sleep(1 / rate)


def quantile(xs, q):
    return xs[min(len(xs) - 1, int(q * len(xs)))]


try:
    call("POST", "/v1/accounts", {"name": "Flood", "password": "flood-password"})
    idle = moves_for(seconds)
    # The flood runs in a process of its own: in this one its threads would
    # hold the interpreter's lock while the moves are timed.
    stop = multiprocessing.Event()
    answered = multiprocessing.Value("i", 0)
    flooder = multiprocessing.Process(target=flood, args=(stop, answered))
    flooder.start()
    busy = moves_for(seconds)
    stop.set()
    flooder.join()
    print(f"moves idle: {len(idle)}, p50 {quantile(idle, 0.5):.1f} ms, p99 {quantile(idle, 0.99):.1f} ms")
    print(f"moves with {rate:.0f} sign-ins/s: {len(busy)}, p50 {quantile(busy, 0.5):.1f} ms, "
          f"p99 {quantile(busy, 0.99):.1f} ms ({answered.value} sign-ins answered)")
finally:
    server.stop()
