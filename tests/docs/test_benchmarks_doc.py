"""BENCHMARKS.md quotes only what benches/reproduce.sh runs (issue 31: "holds only figures its
commands reproduce today"): every output file a section cites is a step of the script, every step
is cited, and the command the section quotes is the step's command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
SCRIPT = (ROOT / "benches" / "reproduce.sh").read_text(encoding="utf-8")


def steps() -> dict[str, str]:
    """Each step's name and its command, continuation lines joined."""
    joined = SCRIPT.replace("\\\n", " ")
    found = {m[1]: " ".join(m[2].split()) for m in re.finditer(r"^step (\w+) (.+)$", joined, re.M)}
    assert found, "benches/reproduce.sh has no steps"
    return found


def test_every_cited_output_is_a_step_and_every_step_is_cited() -> None:
    cited = set(re.findall(r"`(\w+)\.txt`", DOC))
    assert cited == set(steps())


def test_each_plain_command_is_quoted_as_the_script_runs_it() -> None:
    doc = " ".join(DOC.split())
    for name, command in steps().items():
        if command.startswith("bash -c"):  # the callgrind loops: BENCHMARKS.md quotes one run each
            continue
        assert command in doc, f"{name}: BENCHMARKS.md does not quote `{command}`"
