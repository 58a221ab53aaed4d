"""The ladder's manifest of frozen reference bots (xueliu.ladder): every bot is one the engine
plays, every preset has a rules hash, and the hash follows the rules."""

from __future__ import annotations

import json

import pytest

import xueliu
from xueliu import ladder


def test_every_reference_bot_is_a_builtin_the_engine_plays() -> None:
    for bot in ladder.REFERENCE_BOTS:
        assert xueliu.Bot(bot.name).name == bot.name
        assert bot.budget and bot.engine


def test_the_manifest_names_the_engine_and_a_hash_per_preset() -> None:
    m = ladder.manifest()
    assert m["engine"] == xueliu.__version__
    assert [b["name"] for b in m["bots"]] == ladder.reference_names()
    assert set(m["rules"]) == set(xueliu.Rules.presets())
    assert all(len(h) == 16 and int(h, 16) >= 0 for h in m["rules"].values())
    assert len(set(m["rules"].values())) == len(m["rules"])  # presets differ, so do their hashes
    json.dumps(m)  # JSON as it is


@pytest.mark.parametrize("preset", ["chengdu", "yaoji"])
def test_the_rules_hash_is_over_the_rules_as_json(preset: str) -> None:
    import hashlib

    rules = xueliu.Rules.preset(preset).to_dict()
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"))
    assert ladder.rules_hash(preset) == hashlib.sha256(text.encode()).hexdigest()[:16]


def test_the_queue_fills_with_random_first_so_every_filled_set_holds_the_anchor() -> None:
    fills = [b.name for b in ladder.REFERENCE_BOTS if b.fills]
    assert fills[0] == "random" and len(fills) >= 3  # one person's bot: three reference bots
