"""Issue 12's fuzz harness: everything that parses untrusted input (hand strings, Action.parse,
rules dicts, Game.from_json, Game.from_events, numpy arrays) gets random input and mutations of
real snapshots and logs, and must answer or raise a XueliuError: never a panic, an abort or
another exception. Bounded for CI: FUZZ_EXAMPLES examples a target (docs/game-protocol.md says
how to run it longer)."""

from __future__ import annotations

import json
import os
import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xueliu
from xueliu import Action, Game, Rules, XueliuError

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


def survives(call, *args, **kwargs):
    """Runs `call`; a XueliuError is an answer, anything else (PanicException too) fails."""
    try:
        return call(*args, **kwargs)
    except XueliuError:
        return None


def seed_games():
    games = []
    for preset, seed, steps in [("chengdu", 1, 60), ("yaoji", 76, 9), ("chengdu_xueliu", 3, 400), ("dashiyou", 4, 40)]:
        game, rng = Game(preset, seed=seed), random.Random(seed)
        for _ in range(steps):
            if game.is_over:
                break
            s = game.to_act()[0]
            game.act(s, rng.choice(game.legal_actions(s)))
        games.append(game)
    return games


GAMES = seed_games()
SNAPSHOTS = [json.loads(g.to_json()) for g in GAMES]
LOGS = [g.events for g in GAMES]

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True), st.text(max_size=8)
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)


def paths(value, prefix=()):
    """Every path into a JSON value."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, prefix + (i,))


@st.composite
def mutated(draw, documents):
    """A real snapshot or log with one to three values replaced, removed or duplicated."""
    doc = json.loads(json.dumps(draw(st.sampled_from(documents))))
    for _ in range(draw(st.integers(1, 3))):
        all_paths = [p for p in paths(doc) if p]
        if not all_paths:
            break
        path = draw(st.sampled_from(all_paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        op = draw(st.sampled_from(["replace", "delete", "duplicate", "bump"]))
        key = path[-1]
        if op == "replace":
            parent[key] = draw(json_value)
        elif op == "delete":
            del parent[key]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, parent[key])
        elif op == "bump" and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += draw(st.sampled_from([-1, 1, 2**32, -(2**63)]))
    return json.dumps(doc)


@st.composite
def byte_edits(draw, texts):
    """A real text with characters changed, cut or inserted."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.text(max_size=3)) + text[i + draw(st.integers(0, 3)) :]
    return text


@FUZZ
@given(st.one_of(mutated(SNAPSHOTS), byte_edits([g.to_json() for g in GAMES])), st.booleans())
def test_fuzz_from_json(text, trusted):
    """Verified, and trusted (the consistency checks alone, which accept more mutations)."""
    game = survives(Game.from_json, text, trusted=trusted)
    if game is not None:
        assert Game.from_json(game.to_json(), trusted=trusted).to_json() == game.to_json()


@FUZZ
@given(st.one_of(mutated(LOGS), byte_edits([json.dumps(log) for log in LOGS])))
def test_fuzz_from_events(text):
    survives(Game.from_events, text)


tile_text = st.text(alphabet="0123456789mps万筒条 ,x", max_size=30) | st.text(max_size=20)


@FUZZ
@given(tile_text, st.integers(-2, 6))
def test_fuzz_hand_strings(text, wilds):
    survives(xueliu.parse_tiles, text)
    for f in (xueliu.shanten, xueliu.is_win, xueliu.waits, xueliu.decompositions, xueliu.hand_facts):
        survives(f, text, wilds=wilds)


@FUZZ
@given(
    st.one_of(
        st.text(max_size=30),
        st.sampled_from(["discard 5m", "kong 1s", "exchange 123m", "void p", "swap 9p"]).map(
            lambda s: s[: len(s) - 1] + "x"
        ),
    )
)
def test_fuzz_action_parse(text):
    action = survives(Action.parse, text)
    if action is not None:
        assert Action.parse(str(action)) == action


@FUZZ
@given(
    st.sampled_from(Rules.presets()),
    st.dictionaries(st.sampled_from(sorted(Rules.preset("chengdu").to_dict())), json_value, max_size=3),
)
def test_fuzz_rules_dicts(preset, edits):
    full = Rules.preset(preset).to_dict()
    full.update(edits)
    rules = survives(Rules.from_dict, full)
    if rules is not None:
        survives(Game, rules, seed=1)
    survives(Rules.preset, preset, **{k: v for k, v in edits.items() if k != "preset"})


@FUZZ
@given(
    st.sampled_from([np.uint8, np.int8, np.int64, np.float32, np.bool_]),
    st.tuples(st.integers(0, 4), st.integers(0, 30)),
    st.sampled_from(["C", "F"]),
    st.integers(0, 255),
)
def test_fuzz_arrays(dtype, shape, order, fill):
    counts = np.full(shape, fill % 5, dtype=dtype, order=order)
    for f in (xueliu.batch.shanten, xueliu.batch.is_win, xueliu.batch.waits):
        survives(f, counts)
    out = np.zeros(shape, dtype=dtype, order=order)
    survives(GAMES[0].observe_into, 0, out)
