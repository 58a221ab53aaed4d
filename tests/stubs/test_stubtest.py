"""mypy.stubtest holds the compiled module's stubs (`_xueliu.pyi`) to the runtime: every name,
signature, default and class flag. Its allow-list names only the stub-only type aliases."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ALLOWLIST = Path(__file__).with_name("stubtest-allowlist.txt")


def test_stubtest_finds_no_difference(tmp_path):
    command = [sys.executable, "-m", "mypy.stubtest", "xueliu._xueliu", "--allowlist", str(ALLOWLIST)]
    # From a scratch directory: mypy's cache goes there, and the package is the installed one.
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
