"""docs/ladder.md agrees with the code: its manifest table is xueliu.ladder.REFERENCE_BOTS, and its
ratings were measured under the rules each preset has now (the rules hash). A preset whose rules
change fails here until its ratings are measured again with the command the page gives."""

from __future__ import annotations

import re
from pathlib import Path

import xueliu
from xueliu import ladder

DOC = (Path(__file__).resolve().parents[2] / "docs" / "ladder.md").read_text()


def rows(heading: str) -> list[list[str]]:
    """The cells of the first table after ``heading``."""
    section = DOC[DOC.index(heading) :]
    table = re.search(r"((?:^\|.*\|\n)+)", section, re.M)
    assert table is not None, heading
    lines = table.group(1).strip().splitlines()[2:]  # past the header and its rule
    return [[cell.strip().strip("`") for cell in line.strip("|").split("|")] for line in lines]


def test_the_manifest_table_is_the_code_s() -> None:
    table = rows("## 1. The reference bots")
    assert [row[0] for row in table] == ladder.reference_names()
    for row, bot in zip(table, ladder.REFERENCE_BOTS):
        assert row[1] == bot.engine
        assert row[2] == bot.budget
        assert row[3].startswith("yes") == bot.fills


def test_every_preset_was_rated_under_the_rules_it_has_now() -> None:
    table = rows("## 2. Ratings per preset")
    assert sorted(row[0] for row in table) == sorted(xueliu.Rules.presets())
    for row in table:
        assert row[1] == ladder.rules_hash(row[0]), f"{row[0]}'s rules changed: measure its ratings again"
