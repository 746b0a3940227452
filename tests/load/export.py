#!/usr/bin/env python3
"""Measures GET /v1/accounts/{name}/records (exportAccountGames) over N
finished games: the time, the bytes, and the server's resident memory
before and during the export (sampled every 20 ms from /proc), to show that
the export streams in constant memory.

Usage: tests/load/export.py BINARY [N]   (N: 10000 by default)
"""

import concurrent.futures
import re
import sys
import threading
import time
import urllib.request

from server import Server

binary = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
server = Server(binary, "--durability", "fast")
call, base = server.call, server.base


def rss_kib():
    with open(f"/proc/{server.process.pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


try:
    call("POST", "/v1/accounts", {"name": "Ann", "password": "export-password"})
    token = call("POST", "/v1/tokens", {"name": "Ann", "password": "export-password", "label": "export",
                                        "scopes": ["play", "account"]})["token"]
    game = {"rules": {"preset": "old", "rows": 8, "cols": 8}, "players": [{"account": "Ann"}, {"name": "Zed"}]}

    def one(_):
        made = call("POST", "/v1/games", game, token)
        call("POST", f"/v1/games/{made['id']}/resign", {}, token)

    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(one, range(n)))
    print(f"made {n} finished games in {time.time() - started:.1f} s")
    # Twice: the second export shows what stays (caches) from what grows.
    for attempt in ("first", "second"):
        before = rss_kib()
        peak = [before]
        done = threading.Event()

        def sample():
            while not done.is_set():
                peak[0] = max(peak[0], rss_kib())
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.time()
        request = urllib.request.Request(base + "/v1/accounts/Ann/records", headers={"Authorization": f"Bearer {token}"})
        size = records = 0
        tail = b""
        with urllib.request.urlopen(request) as answer:
            while chunk := answer.read(1 << 16):
                size += len(chunk)
                # A record's first tag may straddle two chunks: count on the seam too.
                seam = tail + chunk
                records += seam.count(b"[Game ")
                tail = seam[-5:]
        seconds = time.time() - started
        done.set()
        sampler.join()
        print(f"{attempt} export: {records} records, {size / 1e6:.1f} MB in {seconds:.1f} s; "
              f"server RSS {before / 1024:.0f} MiB before, at most {peak[0] / 1024:.0f} MiB during")
finally:
    server.stop()
