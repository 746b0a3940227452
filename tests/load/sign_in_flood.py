#!/usr/bin/env python3
"""Moves while sign-ins flood: p50/p99 latency of POST /v1/games/{id}/moves
idle, then with SIGN_INS sign-ins a second in flight (each one an Argon2id
check on the password thread), on one release server. Each sign-in comes
from a client of its own (`X-Forwarded-For` from a trusted proxy), so no
per-client cap turns them away: what holds them is the password thread's
share of a core (`--password-share`, default 15%) and, for wrong passwords,
the account's own limit.

Usage: tests/load/sign_in_flood.py BINARY [SECONDS] [SIGN_INS] [SHARE]   (10 s, 20/s, 15%)
FLOOD=wrong floods with wrong passwords (a check, no token written);
FLOOD=unknown with names nobody has, each from another network (the decoy
thread's work: it must not slow real sign-ins);
FLOOD=healthz with health checks (the flood's own cost, no check).
Real sign-ins (another account, its own address, one a second)
are timed beside the flood and reported.
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
# The sign-in limits as a server has them by default (per network, wrong
# passwords per account); the moves' and games' loosened for the load.
server = Server(binary, "--trust-proxy", "127.0.0.1", "--password-share", share, "--move-rate", "100000/100000",
                "--create-rate", "100000/100000", "--max-unfinished-games", "0", limits=True)
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
    mode = os.environ.get("FLOOD")
    if mode == "wrong":
        body["password"] = "wrong-password"
    lock = threading.Lock()

    def one(i):
        if mode == "healthz":
            request = urllib.request.Request(base + "/healthz")
        else:
            mine = dict(body, name=f"Nobody{i}") if mode == "unknown" else body
            request = urllib.request.Request(base + "/v1/tokens", data=json.dumps(mine).encode(), method="POST",
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


def real_sign_ins(stop, latencies):
    """Signs in as Real from its own address once a second (within its own limit) until stopped; the latencies, in ms."""
    body = {"name": "Real", "password": "real-password", "label": "x", "scopes": ["play"]}
    while not stop.is_set():
        request = urllib.request.Request(base + "/v1/tokens", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Forwarded-For": "192.0.2.1"})
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request) as answer:
                status = answer.status
        except urllib.error.HTTPError as e:
            status = e.code
        latencies.append(((time.perf_counter() - started) * 1000, status))
        stop.wait(1.0)


try:
    call("POST", "/v1/accounts", {"name": "Flood", "password": "flood-password"})
    call("POST", "/v1/accounts", {"name": "Real", "password": "real-password"})
    idle = moves_for(seconds)
    # The flood runs in a process of its own: in this one its threads would
    # hold the interpreter's lock while the moves are timed.
    stop = multiprocessing.Event()
    answers = multiprocessing.Manager().dict()
    flooder = multiprocessing.Process(target=flood, args=(stop, answers))
    flooder.start()
    real, prober_stop = [], threading.Event()
    prober = threading.Thread(target=real_sign_ins, args=(prober_stop, real))
    prober.start()
    busy = moves_for(seconds)
    prober_stop.set()
    prober.join()
    stop.set()
    flooder.join()
    print(f"moves idle: {len(idle)}, p50 {quantile(idle, 0.5):.1f} ms, p99 {quantile(idle, 0.99):.1f} ms")
    print(f"moves with {rate:.0f} sign-ins/s: {len(busy)}, p50 {quantile(busy, 0.5):.1f} ms, "
          f"p99 {quantile(busy, 0.99):.1f} ms")
    print("sign-ins answered: " + ", ".join(f"{n} × {status}" for status, n in sorted(answers.items())))
    times = sorted(ms for ms, _ in real)
    statuses = sorted({status for _, status in real})
    print(f"real sign-ins beside the flood: {len(real)}, p50 {quantile(times, 0.5):.0f} ms, "
          f"max {times[-1]:.0f} ms, statuses {statuses}")
finally:
    server.stop()
