#!/usr/bin/env python3
"""Moves in 1,000 long games, with and without webhooks: p50/p99 latency of
POST /v1/games/{id}/moves while moves flow in every game, first on a server
whose accounts have no webhooks, then on one where each account has a
webhook taking every event (each move queues a delivery in its
transaction, and the sender POSTs it to a receiver here while the moves
go on). Reports both, their ratio, and how long the outbox took to drain.
The receiver is nginx answering 204 (a receiver's cost is not the
server's), or, without nginx, a Python one (slower: it takes CPU from the
server on a small machine).

Usage: tests/load/webhooks.py BINARY [SECONDS] [GAMES] [THREADS]   (10 s, 1000, 16)
"""

import http.client
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

from server import Server

binary = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
games_wanted = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
threads = int(sys.argv[4]) if len(sys.argv) > 4 else 16
PAIRS = 10
PASSWORD = "frog-spawn-42"


class Receiver(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # kept-alive connections, as a real receiver has
    got = 0
    lock = threading.Lock()

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        with Receiver.lock:
            Receiver.got += 1
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Nginx:
    """nginx answering 204 to every POST, counting them in its access log."""

    def __init__(self):
        self.work = tempfile.mkdtemp()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        self.log = os.path.join(self.work, "access.log")
        conf = os.path.join(self.work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""daemon off; worker_processes 1; pid {self.work}/nginx.pid; error_log {self.work}/error.log;
events {{ worker_connections 512; }}
http {{ access_log {self.log}; client_body_temp_path {self.work};
  server {{ listen 127.0.0.1:{self.port}; location / {{ return 204; }} }} }}
""")
        self.process = subprocess.Popen(["nginx", "-c", conf, "-p", self.work], stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port)).close()
                break
            except OSError:
                time.sleep(0.05)

    def got(self):
        with open(self.log, "rb") as f:
            return f.read().count(b"\n")

    def stop(self):
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.work, ignore_errors=True)


class PythonReceiver:
    def __init__(self):
        http.server.ThreadingHTTPServer.request_queue_size = 128  # the sender opens up to 32 connections at once
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.port = self.server.server_address[1]
        Receiver.got = 0

    def got(self):
        return Receiver.got

    def stop(self):
        self.server.shutdown()


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else float("nan")


def measure(hooks):
    server = Server(binary, "--webhook-allow-private", "--max-unfinished-games", "0")
    call = server.call
    receiver = Nginx() if shutil.which("nginx") else PythonReceiver()
    url = f"http://127.0.0.1:{receiver.port}/hook"
    tokens = {}
    for n in range(2 * PAIRS):
        name = f"Player{n}"
        call("POST", "/v1/accounts", {"name": name, "password": PASSWORD})
        tokens[name] = call("POST", "/v1/tokens", {"name": name, "password": PASSWORD, "label": "load",
                                                   "scopes": ["play", "account"]})["token"]
        if hooks:
            call("POST", f"/v1/accounts/{name}/webhooks", {"url": url}, tokens[name])
    games = []  # (id, [token of seat 0, token of seat 1])
    for g in range(games_wanted):
        a, b = f"Player{2 * (g % PAIRS)}", f"Player{2 * (g % PAIRS) + 1}"
        c = call("POST", "/v1/challenges", {"to": b, "rules": {"preset": "old"}, "days_per_move": 3}, tokens[a])
        accepted = call("POST", f"/v1/challenges/{c['id']}/accept", {}, tokens[b])
        games.append((accepted["game"]["id"], [tokens[a], tokens[b]]))
    host, port = server.base.removeprefix("http://").split(":")
    latencies, lock = [], threading.Lock()
    stop = time.monotonic() + seconds

    def play(share):
        conn = http.client.HTTPConnection(host, int(port))
        mine, to_move = list(share), {gid: 0 for gid, _ in share}
        while time.monotonic() < stop and mine:
            for gid, toks in list(mine):
                if time.monotonic() >= stop:
                    break
                conn.request("GET", f"/v1/games/{gid}/legal-moves?limit=1")
                moves = json.loads(conn.getresponse().read())["moves"]
                if not moves:
                    mine.remove((gid, toks))
                    continue
                body = json.dumps({"path": moves[0]["path"]})
                headers = {"Content-Type": "application/json", "Authorization": f"Bearer {toks[to_move[gid]]}"}
                began = time.perf_counter()
                conn.request("POST", f"/v1/games/{gid}/moves", body, headers)
                answer = conn.getresponse()
                answer.read()
                took = time.perf_counter() - began
                if answer.status != 201:
                    mine.remove((gid, toks))
                    continue
                to_move[gid] = 1 - to_move[gid]
                with lock:
                    latencies.append(took)

    workers = [threading.Thread(target=play, args=(games[i::threads],)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    moves = len(latencies)
    # Each move tells the next seat it is its turn: a delivery a move; and
    # each game's start five (the challenge to both, the start to both, the first turn).
    expected = moves + 5 * len(games)
    drained_at = time.monotonic()
    while hooks and receiver.got() < expected and time.monotonic() < drained_at + 120:
        time.sleep(0.1)
    drained = time.monotonic() - drained_at
    got = receiver.got()
    receiver.stop()
    server.stop()
    return moves, percentile(latencies, 0.5), percentile(latencies, 0.99), got, drained


without = measure(False)
with_hooks = measure(True)
for label, (moves, p50, p99, got, drained) in (("without", without), ("with", with_hooks)):
    extra = f"; {got} deliveries, the outbox drained {drained:.1f} s after the moves" if label == "with" else ""
    print(f"{label:8} webhooks: {moves / seconds:7.0f} moves/s, p50 {p50 * 1000:5.1f} ms, p99 {p99 * 1000:5.1f} ms{extra}")
print(f"p99 with / without: {with_hooks[2] / without[2]:.2f}")
