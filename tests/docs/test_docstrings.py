"""Every public name has a docstring (the API reference, docs/api.py, is built from them), and
every documentation page a docstring cites exists with the section it names."""

from __future__ import annotations

import inspect
import re

import pytest
from helpers import ROOT

import xueliu
import xueliu.batch
import xueliu.env
import xueliu.shards

MODULES = [xueliu, xueliu.batch, xueliu.env, xueliu.shards]
CITATION = re.compile(r"(?:docs/)?([\w-]+\.md)(?: §(\d+[a-z]?))?")


def public_names():
    """(dotted name, object) of every public module-level name and every public class member."""
    for module in MODULES:
        yield module.__name__, module
        for name in getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or getattr(obj, "__module__", module.__name__) not in (
                module.__name__,
                "xueliu",
                "xueliu._xueliu",
                "builtins",
            ):
                continue  # documented where it lives (numpy, gymnasium, …)
            yield f"{module.__name__}.{name}", obj
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    if not member.startswith("_"):
                        yield f"{module.__name__}.{name}.{member}", value


CONSTANT = (int, float, str, tuple, list, dict)  # ACTION_COUNT, OBS_LAYOUT…: their __doc__ is their type's
NAMES = {name: obj for name, obj in public_names() if not isinstance(obj, CONSTANT)}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_public_name_has_a_docstring(name):
    assert (inspect.getdoc(NAMES[name]) or "").strip(), f"{name} has no docstring"


def test_cited_pages_and_sections_exist():
    """`docs/game-protocol.md §9` in a docstring names a page shipped in docs/ (and in the sdist)
    with a `## 9.` section; `RULES.md §12` likewise."""
    cited = 0
    for name, obj in NAMES.items():
        for page, section in CITATION.findall(inspect.getdoc(obj) or ""):
            path = ROOT / "docs" / page
            assert path.exists(), f"{name} cites {page}, which docs/ does not hold"
            if section:
                assert re.search(rf"^## {section}\.", path.read_text(encoding="utf-8"), re.M), (
                    f"{name} cites {page} §{section}, which has no such section"
                )
            cited += 1
    assert cited >= 10
