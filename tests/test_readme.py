"""The README's Python examples run, and every `expression  # value` comment whose value is a
Python literal holds, so the quick start cannot drift from the engine."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import xueliu

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


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


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 3


def test_readme_examples_run_and_their_comments_hold():
    """The blocks run in order in one namespace, as a reader would type them."""
    namespace: dict = {}
    checked = 0
    for node, source, comment in (s for block in BLOCKS for s in statements(block)):
        if "IllegalActionError" in comment:
            with pytest.raises(xueliu.IllegalActionError):
                exec(source, namespace)
            continue
        has_value, value = claimed_value(comment) if comment else (False, None)
        if has_value and isinstance(node, ast.Expr):
            assert eval(source, namespace) == value, source
            checked += 1
        else:
            exec(source, namespace)
    assert checked >= 8, "the README's value comments were not found"
