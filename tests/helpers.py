"""What several test folders share: the repository's root, and the size of randomised tests."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from hypothesis import settings

import xueliu

ROOT = Path(__file__).resolve().parent.parent


def scaled(at_ci: int) -> int:
    """A randomised test's size (games, hands) in proportion to the hypothesis profile's
    examples (tests/conftest.py): ``at_ci`` under ``ci`` (1,000 examples), 30% of it under
    ``dev``, ten times it under ``long``. Read at import, after the profile is loaded."""
    return max(1, at_ci * settings.default.max_examples // 1000)


PRESETS: list[str] = xueliu.Rules.presets()
# sanxia_piao is sanxia with another fan table: the same play, so tests of play leave it out.
PLAY_PRESETS = [p for p in PRESETS if p != "sanxia_piao"]

# Values to try for the integer options, which the schema gives no choices for. A new integer
# option fails test_rules' schema test until it is listed here.
INT_VALUES: dict[str, list[Any]] = {
    "gen_fan": [0, 1],
    "exposed_kong_fan": [0, 1, 2],
    "concealed_kong_fan": [1, 2],
    "kong_flower_fan": [0, 1],
    "kong_shot_fan": [0, 1],
    "rob_kong_fan": [0, 1],
    "base_points": [1, 6],
    "fan_offset": [0, 1],
    "cap_fan": [None, 3, 5],
    "flower_pig_fan": [4, 5],
    "no_wild_fan": [0, 1],
    "escape_penalty": [0, 96],
    "golden_hook_fan": [0, 1],
    "last_tile_self_draw_fan": [0, 1],
    "last_discard_win_fan": [0, 1],
}


def option_values() -> dict[str, list[Any]]:
    """Every rules option but ``fan`` with the values it can take: read from the ``Rules``
    annotations of the package's stub (docs/rules-schema.md's table, which tests/rules holds the
    stub to), ``INT_VALUES`` for the integers. A new option is covered as soon as it is typed."""
    stub = ast.parse(Path(xueliu.__file__).with_name("_xueliu.pyi").read_text(encoding="utf-8"))
    rules = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == "Rules")
    return {
        node.target.id: INT_VALUES.get(node.target.id) or _values(node.annotation)
        for node in rules.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id != "fan"
    }


def _values(annotation: ast.expr) -> list[Any]:
    if isinstance(annotation, ast.Name) and annotation.id == "bool":
        return [True, False]
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name):
        inner = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        if annotation.value.id == "Literal":
            return [e.value for e in inner if isinstance(e, ast.Constant)]
        if annotation.value.id == "Optional":
            return [None, *_values(inner[0])]
    raise AssertionError(f"no values to try for the annotation {ast.unparse(annotation)}: add them to INT_VALUES")
