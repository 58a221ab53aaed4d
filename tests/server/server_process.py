"""A real `xueliu serve` in a subprocess on a free loopback port (shared by the tests that kill,
stop or start it twice)."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Runs ``xueliu serve`` expecting it to refuse to start (a timeout fails the test)."""
    command = [sys.executable, "-m", "xueliu", "serve", "--db", db, "--port", str(free_port())]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


class ServerProcess:
    def __init__(self, db: str, port: int) -> None:
        self.db, self.port, self.proc = db, port, None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xueliu", "serve", "--db", self.db, "--port", str(self.port), "--chosen-seeds"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/tables", timeout=1).read()
                return
            except OSError:
                assert self.proc.poll() is None, self.proc.stderr.read().decode()
                time.sleep(0.05)
        raise AssertionError("the server did not start within 30 s")

    def kill(self, sig: int = signal.SIGKILL) -> int:
        """Sends ``sig`` and waits for the process to end; its exit status."""
        self.proc.send_signal(sig)
        status = self.proc.wait(timeout=30)
        self.proc.stderr.close()
        return status

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body or {}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method="POST")
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as r:
            return json.loads(r.read())
