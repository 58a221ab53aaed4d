"""Runs a page's Python examples as a reader would type them and checks every
`expression  # value` comment whose value is a Python literal (README.md, docs/guides/)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import xueliu


def blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


def claimed_value(comment: str) -> tuple[bool, object]:
    """The value a comment claims (`True: basic hand` → True), if it starts with a literal."""
    for text in (comment, comment.split(":")[0]):
        try:
            return True, eval(text, {"Tile": xueliu.Tile})
        except Exception:
            continue
    return False, None


def statements(block: str):
    """Each top-level statement of `block` with the comment ending its last line."""
    lines = block.splitlines()
    for node in ast.parse(block).body:
        source = ast.get_source_segment(block, node)
        comment = lines[node.end_lineno - 1].partition("  # ")[2].strip()
        yield node, source, comment


def run_examples(path: Path) -> int:
    """Runs the page's blocks in order in one namespace; returns how many value comments held.
    A statement whose comment names IllegalActionError must raise it."""
    namespace: dict = {}
    checked = 0
    for node, source, comment in (s for block in blocks(path) for s in statements(block)):
        if "IllegalActionError" in comment:
            with pytest.raises(xueliu.IllegalActionError):
                exec(source, namespace)
            continue
        has_value, value = claimed_value(comment) if comment else (False, None)
        if has_value and isinstance(node, ast.Expr):
            assert eval(source, namespace) == value, f"{path.name}: {source}"
            checked += 1
        else:
            exec(source, namespace)
    return checked
