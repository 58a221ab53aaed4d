"""Action ids, masks and observations (docs/encoding.md): the id table both ways, the mask as the
legal actions, observation shape and layout, writing into a caller's array, and information
hiding (RULES.md §12): games that differ only in tiles a seat cannot see look the same to it."""

import json
import random

import numpy as np
import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

import xueliu
from xueliu import ACTION_COUNT, OBS_LAYOUT, OBS_SHAPE, Action, Game, action_id_name

PRESETS = ["chengdu", "chengdu_xueliu", "sanxia", "yaoji"]


def test_the_id_table_is_fixed_and_documented():
    assert ACTION_COUNT == 114 and OBS_SHAPE == (71, 27)
    names = [action_id_name(i) for i in range(ACTION_COUNT)]
    assert len(set(names)) == ACTION_COUNT
    assert names[0] == "pick 1m" and names[26] == "pick 9s"
    assert names[27:30] == ["void m", "void p", "void s"]
    assert names[30] == "discard 1m" and names[57] == "pong" and names[58] == "kong 1m"
    assert names[85:88] == ["win", "pass", "swap 1m"] and names[113] == "swap 9s"
    with open(ROOT / "docs" / "encoding.md", encoding="utf-8") as f:
        doc = f.read()
    for first, name, _ in [
        (0, "pick", 0),
        (27, "void", 0),
        (30, "discard", 0),
        (57, "pong", 0),
        (58, "kong", 0),
        (85, "win", 0),
        (86, "pass", 0),
        (87, "swap", 0),
    ]:
        assert f"| {first}" in doc and f"`{name}" in doc
    for name, _first, _count in OBS_LAYOUT:
        assert f"`{name}`" in doc, f"channel group {name} is documented"


def test_ids_convert_both_ways():
    for i in range(27, 114):
        assert Action.from_id(i).id == i and Action.from_id(i).ids == [i]
        assert str(Action.from_id(i)) == action_id_name(i)
    ex = Action.exchange("955m")
    assert ex.ids == [4, 4, 8] and Action.from_ids([8, 4, 4]) == ex
    with pytest.raises(xueliu.ArgumentError, match="three action ids"):
        ex.id
    for bad, why in [
        ([3], "three pick ids"),
        ([1, 2], "three pick ids"),
        ([0, 1, 30], "three pick ids"),
        ([ACTION_COUNT], "does not exist"),
        ([-1], "does not exist"),
    ]:
        with pytest.raises(xueliu.ArgumentError, match=why):
            Action.from_ids(bad)
    with pytest.raises(xueliu.ArgumentError, match="does not exist"):
        action_id_name(ACTION_COUNT)


def random_ids_play(game, rng, steps=10_000):
    """Plays random legal ids (exchanges by picks), checking the mask at every step."""
    picks = [[] for _ in range(4)]
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_act()[0]
        mask = game.action_mask(seat, picked=picks[seat])
        assert mask.dtype == np.bool_ and mask.shape == (ACTION_COUNT,)
        legal = game.legal_actions(seat)
        if not picks[seat]:
            expected = {i for a in legal for i in a.ids}
            assert set(np.flatnonzero(mask)) == expected
        for other in set(range(4)) - set(game.to_act()):
            assert not game.action_mask(other).any()
        i = int(rng.choice(np.flatnonzero(mask)))
        if i < 27:
            picks[seat].append(i)
            if len(picks[seat]) == 3:
                game.act(seat, Action.from_ids(picks[seat]))
                picks[seat] = []
        else:
            game.act(seat, Action.from_id(i))


@pytest.mark.parametrize("preset", PRESETS)
def test_the_mask_is_the_legal_actions(preset):
    rng = np.random.default_rng(1)
    for seed in range(8):
        game = Game(preset, seed=seed)
        random_ids_play(game, rng)
        assert game.is_over


@pytest.mark.parametrize("preset", ["chengdu_xueliu", "yaoji"])
def test_act_id_keeps_the_picks_until_the_third_plays_the_exchange(preset):
    """``Game.act_id`` against the ids played by hand: a pick comes back in the picks kept, the
    third plays ``Action.from_ids`` of all three, any other id its ``Action.from_id``; an id not
    legal raises naming the legal ids and changes nothing."""
    rng = np.random.default_rng(7)
    for seed in range(4):
        by_id, by_hand = Game(preset, seed=seed), Game(preset, seed=seed)
        picks: list[list[int]] = [[] for _ in range(4)]
        while not by_hand.is_over:
            seat = by_hand.to_act()[0]
            mask = by_hand.action_mask(seat, picked=picks[seat])
            before = by_id.to_json()
            with pytest.raises(xueliu.IllegalActionError, match="legal ids"):
                by_id.act_id(seat, int(np.flatnonzero(~mask)[0]), picked=picks[seat])
            assert by_id.to_json() == before
            i = int(rng.choice(np.flatnonzero(mask)))
            kept = by_id.act_id(seat, i, picked=picks[seat])
            if i < 27 and len(picks[seat]) < 2:
                picks[seat].append(i)
            elif i < 27:
                by_hand.act(seat, Action.from_ids([*picks[seat], i]))
                picks[seat] = []
            else:
                by_hand.act(seat, Action.from_id(i))
            assert kept == picks[seat]
            assert by_id.to_json() == by_hand.to_json()
    with pytest.raises(xueliu.ArgumentError, match="does not exist"):
        Game(preset, seed=0).act_id(0, ACTION_COUNT)


def test_picks_that_start_no_exchange_are_refused():
    game = Game("chengdu", seed=2)
    hand = game.hand(0)
    absent = next(t for t in ["1m", "5m", "9m", "1p", "5p", "9p", "1s", "5s", "9s"] if xueliu.Tile(t) not in hand)
    with pytest.raises(xueliu.ArgumentError, match="no legal exchange"):
        game.action_mask(0, picked=[absent])
    with pytest.raises(xueliu.ArgumentError, match="at most two"):
        game.action_mask(0, picked=hand[:3])


def test_observe_and_observe_into_agree():
    game = Game("chengdu_xueliu", seed=5)
    random_ids_play(game, np.random.default_rng(0), steps=40)
    out = np.full(OBS_SHAPE, 7, dtype=np.uint8)
    for seat in range(4):
        obs = game.observe(seat)
        assert obs.dtype == np.uint8 and obs.shape == OBS_SHAPE
        game.observe_into(seat, out)
        assert (out == obs).all()
    hand = {name: (first, n) for name, first, n in OBS_LAYOUT}
    first, n = hand["hand"]
    counts = game.observe(0)[first : first + n].sum(axis=0)
    assert counts.sum() == len(game.hand(0))
    with pytest.raises(ValueError, match="shape"):
        game.observe_into(0, np.zeros((3, 27), dtype=np.uint8))
    with pytest.raises(TypeError, match="uint8"):
        game.observe_into(0, np.zeros(OBS_SHAPE, dtype=np.int64))


@pytest.mark.parametrize("preset", xueliu.Rules.presets())
def test_packed_observations_unpack_to_the_plain_ones(preset):
    """The documented packed layout, unpacked in numpy, is the plain observation: every seat at
    every decision of random play in every preset, and a VecEnv's packed rows (exchange picks
    included) are its plain rows."""
    rng = random.Random(1)
    for seed in range(3):
        game = Game(preset, seed=seed)
        while not game.is_over:
            for seat in range(4):
                packed = game.observe_packed(seat)
                assert packed.dtype == np.uint32 and packed.shape == xueliu.OBS_PACKED_SHAPE
                assert (xueliu.unpack_observations(packed) == game.observe(seat)).all()
            seat = game.to_act()[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))
    plain = xueliu.VecEnv(16, preset, seed=2, threads=1)
    packed = xueliu.VecEnv(16, preset, seed=2, threads=2, packed=True)
    obs, mask, _ = plain.reset(seed=2)
    words, _, _ = packed.reset(seed=2)
    for _ in range(80):
        assert words.dtype == np.uint32 and words.shape == (16, *xueliu.OBS_PACKED_SHAPE)
        assert (xueliu.unpack_observations(words) == obs).all()
        ids = [rng.choice(np.flatnonzero(row)) for row in mask]
        obs, mask, *_ = plain.step(ids)
        words, *_ = packed.step(ids)
    with pytest.raises(TypeError, match="uint32"):
        xueliu.unpack_observations(np.zeros(xueliu.OBS_PACKED_SHAPE, dtype=np.int64))
    with pytest.raises(ValueError, match="planes"):
        xueliu.unpack_observations(np.zeros((3,), dtype=np.uint32))


def hidden_swap(snapshot, seat, rng):
    """The snapshot with tiles hidden from `seat` moved around: two other seats' concealed
    tiles exchanged, or one with a wall tile, or the wall shuffled. None if nothing differs."""
    d = json.loads(snapshot)
    others = [s for s in range(4) if s != seat and d["seats"][s]["hand"]]
    places = [("seat", s) for s in others] + ([("wall", None)] if d["wall"] else [])
    if len(places) < 2:
        return None
    (ka, a), (kb, b) = rng.sample(places, 2)
    la = d["seats"][a]["hand"] if ka == "seat" else d["wall"]
    lb = d["seats"][b]["hand"] if kb == "seat" else d["wall"]
    i, j = rng.randrange(len(la)), rng.randrange(len(lb))
    if la[i] == lb[j]:
        return None
    la[i], lb[j] = lb[j], la[i]
    for lst in (la, lb):
        if lst is not d["wall"]:
            lst.sort(key=lambda t: ("mps".index(t[1]), t[0]))
    rng.shuffle(d["wall"])
    return json.dumps(d)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    preset=st.sampled_from(PRESETS),
    swaps=st.integers(1, 4),
    salt=st.integers(0, 2**16),
)
def test_observations_ignore_hidden_tiles(seed, steps, preset, swaps, salt):
    """Two games that differ only in tiles hidden from a seat give it identical observations and
    masks."""
    game = Game(preset, seed=seed)
    random_ids_play(game, np.random.default_rng(seed), steps=steps)
    rng = random.Random(salt)
    seat = rng.randrange(4)
    text = game.to_json()
    for _ in range(swaps):
        text = hidden_swap(text, seat, rng) or text
    try:
        other = Game.from_json(text, trusted=True)  # edited: no seed produces it
    except xueliu.SnapshotError:
        return  # the swap broke a rule of the position (e.g. a tile a pong needs); not a case
    assert (other.observe(seat) == game.observe(seat)).all()
    assert (other.action_mask(seat) == game.action_mask(seat)).all()


def test_the_hiding_test_would_see_a_visible_change():
    """The control: moving one of the observer's own tiles to the wall changes its observation."""
    game = Game("chengdu", seed=4)
    d = json.loads(game.to_json())
    hand, wall = d["seats"][0]["hand"], d["wall"]
    j = next(j for j, t in enumerate(wall) if t != hand[0])
    hand[0], wall[j] = wall[j], hand[0]
    hand.sort(key=lambda t: ("mps".index(t[1]), t[0]))
    other = Game.from_json(json.dumps(d), trusted=True)
    assert (other.observe(0) != game.observe(0)).any()
    assert (other.observe(1) == game.observe(1)).all()


@pytest.mark.parametrize("preset", PRESETS)
def test_observations_ignore_other_seats_pending_answers(preset):
    """Simultaneous decisions stay hidden until all are in: whether another seat has answered
    (its exchange, its void, its pass or claim on a discard) does not show."""
    rng = np.random.default_rng(7)
    checked = 0
    for seed in range(30):
        game = Game(preset, seed=seed)
        while not game.is_over:
            seats = game.to_act()
            if len(seats) > 1:
                answered = game.clone()
                first = seats[0]
                answered.act(first, answered.legal_actions(first)[0])
                for seat in seats[1:]:
                    assert (answered.observe(seat) == game.observe(seat)).all(), (seed, seat)
                    assert (answered.action_mask(seat) == game.action_mask(seat)).all()
                checked += 1
            seat = seats[0]
            legal = game.legal_actions(seat)
            game.act(seat, legal[int(rng.integers(len(legal)))])
    assert checked > 50
