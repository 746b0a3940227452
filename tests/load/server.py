"""A release `leapfrog serve` for the load scripts: started on a free
loopback port with a fresh SQLite database and no rate limits (a load test
is a flood on purpose) unless `limits=True` (the defaults, which the
script then loosens with flags of its own), called with JSON, stopped and
cleaned up."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request


class Server:
    def __init__(self, binary, *extra, limits=False):
        self.work = tempfile.mkdtemp()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        sock.close()
        self.base = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [binary, "serve", *([] if limits else ["--no-rate-limits"]), "--bind", f"127.0.0.1:{port}",
             "--database-url", f"sqlite://{self.work}/load.db", *extra],
            stdout=subprocess.DEVNULL, stderr=open(os.environ["LOG"], "w") if os.environ.get("LOG") else subprocess.DEVNULL, env={**os.environ, "RUST_LOG": os.environ.get("RUST_LOG", "warn")})
        for _ in range(100):
            try:
                urllib.request.urlopen(self.base + "/healthz")
                return
            except OSError:
                time.sleep(0.1)

    def call(self, method, path, body=None, token=None):
        """The JSON answer; an HTTPError for a refusal."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    def stop(self):
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.work, ignore_errors=True)
