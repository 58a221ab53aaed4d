"""A real `xueliu serve` in a subprocess on 127.0.0.1, port 0 (the port it got is read from
uvicorn's startup line), with its memory read from /proc: for the tests of what a hostile
public can do to a server (shared by the table-server tests)."""

from __future__ import annotations

import collections
import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Optional


class LiveServer:
    def __init__(self, db: str, *options: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xueliu", "serve", "--db", db, "--port", "0", *options],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.log: collections.deque[str] = collections.deque(maxlen=200)
        started = threading.Event()
        self.port = 0

        def read() -> None:  # uvicorn logs every request: drained so that it never blocks
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.log.append(line)
                found = re.search(r"running on http://127\.0\.0\.1:(\d+)", line)
                if found:
                    self.port = int(found.group(1))
                    started.set()

        threading.Thread(target=read, daemon=True).start()
        if not started.wait(30):
            self.stop()
            raise AssertionError("the server did not start within 30 s:\n" + "".join(self.log))

    def url(self, path: str, scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def request(
        self, method: str, path: str, body: Optional[dict[str, Any]] = None, headers: Optional[dict[str, str]] = None
    ) -> tuple[int, dict[str, Any]]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url(path), data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def memory(self, field: str = "VmRSS") -> int:
        """The process's resident memory now (``VmRSS``) or at its peak (``VmHWM``), in bytes."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        raise AssertionError(f"no {field} in /proc/{self.proc.pid}/status")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


def wait_until(test: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds} s"
        time.sleep(0.05)
