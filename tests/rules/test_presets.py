"""The presets in words (xueliu._presets): one line each, the same on docs/presets.md; groups that
name every option once; a settlement written from the options' values."""

from __future__ import annotations

import re

from helpers import ROOT

import xueliu
from xueliu import _presets as presets

PAGE = (ROOT / "docs" / "presets.md").read_text(encoding="utf-8")


def test_every_preset_has_its_line_on_the_presets_page():
    assert sorted(presets.DESCRIPTIONS) == sorted(xueliu.Rules.presets())
    for name, line in presets.DESCRIPTIONS.items():
        assert f"- **`{name}`** — {line}\n" in PAGE, name


def test_the_page_names_each_source_document_by_its_title():
    rows = re.findall(r"^\| (00\d|MIL|T/TFMJ) \| 《(.+?)》", PAGE, re.M)
    assert [n for n, _ in rows] == ["000", "001", "002", "003", "004", "MIL", "T/TFMJ"]
    for name, line in presets.DESCRIPTIONS.items():
        titles = re.findall(r"《(.+?)》", line)
        assert all(any(t == title for _, title in rows) for t in titles), name


def test_groups_name_every_option_once():
    keys = [key for _, rows in presets.GROUPS for key, _ in rows]
    assert sorted(keys) == sorted(k for k in xueliu.Rules.preset("chengdu").to_dict() if k not in ("preset", "fan"))
    assert list(presets.PATTERNS) == list(xueliu.Rules.preset("chengdu").to_dict()["fan"])


def test_the_settlement_in_words_follows_the_options():
    base = xueliu.Rules.preset("chengdu")
    words = " ".join(presets.settlement(base))
    assert "6 × 2^(fan − 1)" in words and "no cap" in words and "5 fan (96 points)" in words
    assert "呼叫转移" in words and "承包" in words and "退税" in words and "补差价" not in words
    changed = " ".join(
        presets.settlement(
            base.replace(cap_fan=3, kong_payments=False, scoring="linear", ready_difference=True, mode="xueliu")
        )
    )
    assert "capped at 3 fan" in changed and "fan × 6" in changed and "pay nothing at once" in changed
    assert "补差价" in changed and "play on" in changed
