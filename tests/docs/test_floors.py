"""The oldest Python and Rust the project declares, said the same way everywhere, and held where
this machine cannot run them (only CPython 3.11 and Rust 1.95 are promised here, and no other
toolchain can be fetched):

- Python 3.9: `requires-python`, ruff's `target-version` (which refuses newer syntax), PyO3's
  `abi3-py39` (the wheel's stable ABI) and the README. .ci/run also smoke-tests the wheel under a
  Python 3.9 where the machine has one.
- Rust 1.85: the workspace's `rust-version`, which clippy's `incompatible_msrv` lint (on by
  default; CI denies warnings) holds every standard-library call to, and which no locked
  dependency may exceed (below)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from helpers import ROOT

tomllib = pytest.importorskip("tomllib", reason="reads the TOML files with Python 3.11's tomllib")
PYTHON_FLOOR = (3, 9)


def test_the_python_floor_is_declared_the_same_way_everywhere():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    major, minor = PYTHON_FLOOR
    assert project["project"]["requires-python"] == f">={major}.{minor}"
    assert project["tool"]["ruff"]["target-version"] == f"py{major}{minor}"
    binding = (ROOT / "rust" / "xueliu-py" / "Cargo.toml").read_text(encoding="utf-8")
    assert re.findall(r'"abi3-py(\d+)"', binding) == [f"{major}{minor}"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Needs Python ≥ {major}.{minor}" in readme and f"cp{major}{minor}-abi3" in readme


@pytest.mark.skipif(shutil.which("cargo") is None, reason="needs cargo (the README's test command has it)")
def test_no_locked_crate_needs_a_newer_rust_than_the_workspace_declares():
    workspace = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    floor = workspace["workspace"]["package"]["rust-version"]
    metadata = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked", "--offline"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )

    def version(text: str) -> tuple[int, ...]:
        return tuple(int(part) for part in text.split("."))

    packages = json.loads(metadata.stdout)["packages"]
    needs = {p["name"]: p["rust_version"] for p in packages if p.get("rust_version")}
    assert len(needs) >= 5, needs  # pyo3 and the workspace's own crates declare one
    newer = {name: v for name, v in needs.items() if version(v)[:2] > version(floor)[:2]}
    assert not newer, f"these crates need a Rust newer than rust-version = {floor}: {newer}"
