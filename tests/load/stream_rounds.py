#!/usr/bin/env python3
"""Rounds of event-stream subscribers against a running server: each round
opens N streams on one game, holds them a moment, closes them, and prints
the server's memory (RSS), open files and open streams seven seconds later
(closed streams are dropped within two, their memory given back within
five more).

Usage: tests/load/stream_rounds.py PID URL GAME_ID [N] [ROUNDS]
(the server's process id, its base URL, a game to follow). The server must
run with --no-rate-limits and --max-streams-per-game above N, or some of
the N streams from one address on one game are refused.
"""

import socket
import sys
import time
import json
import urllib.request
import os


def state(pid, url):
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    ready = json.load(urllib.request.urlopen(f"{url}/readyz"))
    return f"RSS {rss:6d} KiB   open files {fds:5d}   streams {ready['streams_open']}"


def main():
    pid, url, game = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    host, port = url.removeprefix("http://").split(":")
    print(f"before        {state(pid, url)}")
    for r in range(1, rounds + 1):
        socks = []
        for _ in range(n):
            s = socket.create_connection((host, int(port)))
            s.sendall(f"GET /v1/games/{game}/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            socks.append(s)
        for s in socks:
            s.settimeout(10)
            head = s.recv(4096)
            assert b" 200 " in head.split(b"\r\n")[0], head[:200]
        print(f"round {r} open  {state(pid, url)}")
        for s in socks:
            s.close()
        time.sleep(7)  # closed streams go within 2 s; memory back within 5 more
        print(f"round {r} shut  {state(pid, url)}")


if __name__ == "__main__":
    main()
