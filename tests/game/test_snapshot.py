"""Snapshots and logs read back: a snapshot is verified to be what its seed and decisions
produce (issue 12, item 9), a refusal names the field, and a Game or Match pickles through its
snapshot (issue 16, item 9)."""

from __future__ import annotations

import json
import random

import pytest
from positions import yaoji_76_after

import xueliu
from xueliu import (
    Game,
    SnapshotError,
)


def played(preset: str = "chengdu", seed: int = 5, steps: "int | None" = None) -> Game:
    """A hand of `preset` played by `random.Random(seed)` for `steps` actions (to its end if None)."""
    game, rng = Game(preset, seed=seed), random.Random(seed)
    while not game.is_over and (steps is None or steps > 0):
        seat = game.to_act()[0]
        game.act(seat, rng.choice(game.legal_actions(seat)))
        steps = None if steps is None else steps - 1
    return game


def forged(game: Game, edit) -> str:
    data = json.loads(game.to_json())
    edit(data)
    return json.dumps(data)


def refused(text: str, field: str) -> str:
    """`from_json` refuses `text` with a message naming `field` (a regular expression)."""
    with pytest.raises(SnapshotError, match=field) as info:
        Game.from_json(text)
    return str(info.value)


def payments(data: dict) -> "list[dict]":
    return [e for e in data["events"] if e["type"] == "payment"]


def test_scores_shifted_against_the_payment_log_are_refused():
    game = played()

    def shift(d):
        d["scores"][0] += 1
        d["scores"][1] -= 1

    refused(forged(game, shift), r"snapshot\.scores\[0\] is -?\d+, but its seed and decisions give")


def test_a_forged_payment_or_deal_event_is_refused():
    game = played()

    def pay_more(d):  # a self-consistent forgery: the scores follow the forged payment
        p = payments(d)[0]
        p["amount"] += 1
        d["scores"][p["payer"]] -= 1
        d["scores"][p["payee"]] += 1
        d["events"][-1]["scores"] = d["scores"]

    refused(forged(game, pay_more), r"snapshot\.scores\[\d\]")

    def deal_other(d):
        deal = next(e for e in d["events"] if e["type"] == "deal" and e["seat"] == 1)
        deal["tiles"][0] = "9s" if deal["tiles"][0] != "9s" else "1m"

    refused(forged(game, deal_other), r"snapshot\.events\[\d+\]\.tiles\[0\]")


def test_reordered_or_extra_events_are_refused():
    game = played()

    def reorder(d):
        i = next(i for i, e in enumerate(d["events"]) if e["type"] == "discard")
        j = next(j for j in range(i + 1, len(d["events"])) if d["events"][j]["type"] == "discard")
        d["events"][i], d["events"][j] = d["events"][j], d["events"][i]

    refused(forged(game, reorder), r"snapshot\.events\[\d+\]")
    refused(forged(game, lambda d: d["events"].insert(-1, payments(d)[0])), r"snapshot\.events\[\d+\]")
    refused(forged(game, lambda d: d["events"].append(d["events"][-1])), r"snapshot\.events: \d+ entries, but")


def test_a_changed_seed_is_refused():
    game = played(steps=30)
    refused(forged(game, lambda d: d.update(seed=d["seed"] + 1)), r"snapshot\.seed is 6, but")

    def both(d):  # the log's start too: the replay deals other hands
        d["seed"] += 1
        d["events"][0]["seed"] += 1

    refused(forged(game, both), r"snapshot\.(wall|seats|events)")


def test_a_kong_record_nobody_made_is_refused():
    game = played(steps=30)
    assert not json.loads(game.to_json())["kongs"]

    def kong(d):
        d["kongs"].append(
            {"owner": 0, "tile": "5m", "kind": "concealed", "feeder": None, "paid": [0, 0, 0, 0], "transferred": False}
        )

    refused(forged(game, kong), r"snapshot\.kongs: 1 entries, but its seed and decisions give 0")


def test_a_void_cleared_during_play_is_refused():
    game = played(steps=30)
    assert game.phase == "play"
    refused(forged(game, lambda d: d["seats"][1].update(void=None)), r"snapshot\.seats\[1\]\.void is null")


def test_a_million_junk_events_are_refused_before_parsing():
    game = played(steps=30)
    text = forged(game, lambda d: d["events"].extend([{"type": "redeal"}] * 1_000_000))
    refused(text, "more than any hand writes")
    refused(forged(game, lambda d: d["events"].extend([{"type": "redeal"}] * 1000)), r"snapshot\.events")


def test_pending_hidden_decisions_are_replayed_too():
    rules = {"preset": "chengdu", "exchange": "random"}
    game, other = Game(rules, seed=3), Game(rules, seed=3)
    first, second = game.legal_actions(1)[:2]
    game.act(1, first)
    other.act(1, second)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    # A hidden pick is state no log shows: another legal pick replays, and restores as given.
    pick = json.loads(other.to_json())["pending"]["picks"][1]
    text = forged(game, lambda d: d["pending"]["picks"].__setitem__(1, pick))
    assert Game.from_json(text).to_json() == other.to_json()


def test_what_no_seed_produces_restores_only_as_trusted():
    game = played(steps=30)
    copy = game.determinize(0, 1)
    # A re-dealt copy keeps no log (it would give the true deal away): nothing to verify it by.
    refused(copy.to_json(), r"snapshot\.logging: .* cannot be verified")
    without_log = forged(game, lambda d: d.update(logging=False, events=[]))
    refused(without_log, r"snapshot\.logging: .* cannot be verified")
    assert Game.from_json(without_log, trusted=True).to_json() == without_log
    assert Game.from_json(copy.to_json(), trusted=True).to_json() == copy.to_json()
    # Trusted skips only the replay: a snapshot that is no consistent game is still refused.
    with pytest.raises(SnapshotError, match="sum to zero"):
        Game.from_json(forged(game, lambda d: d.update(scores=[1, 0, 0, 0])), trusted=True)


def test_emptying_history_discarded_names_that_field():
    game = played(steps=30)
    assert game.discards(0)
    refused(
        forged(game, lambda d: d["history"]["discarded"][0].clear()),
        r"snapshot\.history\.discarded\[0\]: fewer discards",
    )


def test_fuzz_found_a_snapshot_error_quoting_a_multibyte_value_does_not_panic():
    data = json.loads(Game("chengdu", seed=1).to_json())
    data["dealer"] = "幺" * 100  # the message quotes 60 characters, never a split one
    with pytest.raises(SnapshotError, match="幺…"):
        Game.from_json(json.dumps(data))


def test_a_game_and_a_match_pickle_as_their_snapshots():
    import pickle

    game = yaoji_76_after(8)
    copy = pickle.loads(pickle.dumps(game))
    assert copy.to_json() == game.to_json() and copy.events == game.events
    match = xueliu.Match("chengdu", seed=2, hands=2)
    for seat in match.game.to_act():
        match.game.act(seat, match.game.default_action(seat))
    assert pickle.loads(pickle.dumps(match)).to_json() == match.to_json()


def test_events_are_built_once_and_a_new_list_each_read():
    game = yaoji_76_after(8)
    first = game.events
    first.append("junk")
    again = game.events
    assert again[-1] != "junk" and again[0] is first[0]  # the same dicts, a new list
    game.act(3, xueliu.Action.win())
    assert len(game.events) > len(again) and game.events[: len(again)] == again
    assert Game.from_events(game.events).to_json() == game.to_json()
