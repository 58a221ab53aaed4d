"""Issue 12's reproducers, one named test each: no panic, no silent wrong answer, one typed error
per mistake (docs/game-protocol.md §"Guarantees")."""

from __future__ import annotations

import functools
import json
import random
import threading

import numpy as np
import pytest

import xueliu
from xueliu import (
    OBS_SHAPE,
    ArgumentError,
    ArgumentTypeError,
    Bot,
    BotError,
    ConcurrentUseError,
    Game,
    IllegalActionError,
    InvalidHandError,
    Rules,
    RulesError,
    SnapshotError,
    Tile,
    VecEnv,
    XueliuError,
    batch,
)


def yaoji_76_after(steps: int) -> Game:
    """`Game("yaoji", seed=76)` after `steps` random actions: seat 3 is dealt four wilds."""
    game, rng = Game("yaoji", seed=76), random.Random(76)
    for _ in range(steps):
        seat = game.to_act()[0]
        game.act(seat, rng.choice(game.legal_actions(seat)))
    return game


def assert_restores(game: Game, trusted: bool = False) -> None:
    text = game.to_json()
    assert Game.from_json(text, trusted=trusted).to_json() == text


# --- 1-3: crashes --------------------------------------------------------------------------------


def test_issue12_1_a_dealt_four_wilds_turn_determinises_to_a_legal_game():
    game = yaoji_76_after(8)
    assert game.to_act() == [3] and game.legal_actions(3) == [xueliu.Action.win()]
    for viewer in range(4):
        for seed in range(5):
            copy = game.determinize(viewer, seed)
            assert_restores(copy, trusted=True)
            assert copy.legal_actions(3) == [xueliu.Action.win()]


def test_issue12_1_after_a_four_wilds_win_determinize_and_ismcts_do_not_panic():
    game = yaoji_76_after(8)
    game.act(3, xueliu.Action.win())
    for viewer in range(4):
        for seed in range(5):
            assert_restores(game.determinize(viewer, seed), trusted=True)
    seat = game.to_act()[0]
    assert Bot("ismcts:50").choose(game, seat) in game.legal_actions(seat)


def test_issue12_2_observe_into_a_read_only_array_is_an_argument_error():
    out = np.zeros(OBS_SHAPE, np.uint8)
    out.flags.writeable = False
    with pytest.raises(ArgumentError, match="read-only"):
        Game("chengdu", seed=1).observe_into(0, out)


@pytest.mark.parametrize("n", [2**62, 2**40])
def test_issue12_3_a_vec_env_larger_than_memory_is_refused_before_allocating(n):
    with pytest.raises(ArgumentError, match="more memory than this machine has"):
        VecEnv(n)


# --- 4-10: silent wrong answers ------------------------------------------------------------------


def some_counts() -> np.ndarray:
    rng = np.random.default_rng(4)
    rows = []
    for _ in range(40):
        row = np.zeros(27, np.uint8)
        for t in rng.choice(108, 13, replace=False):
            row[t // 4] += 1
        rows.append(row)
    return np.array(rows)


@pytest.mark.parametrize("layout", ["fortran", "transposed", "strided", "reversed", "offset"])
def test_issue12_4_batch_reads_any_layout_in_logical_order(layout):
    counts = some_counts()
    other = {
        "fortran": lambda c: np.asfortranarray(c),
        "transposed": lambda c: np.ascontiguousarray(c.T).T,
        "strided": lambda c: np.repeat(c, 2, axis=0)[::2],
        "reversed": lambda c: c[::-1][::-1],
        # C-contiguous but starting one row into its buffer: read in place, from its first row
        "offset": lambda c: np.concatenate([c[-1:], c])[1:],
    }[layout](counts)
    assert (other == counts).all()
    for f in (batch.shanten, batch.waits):
        assert (f(other) == f(counts)).all()


def test_issue12_4_batch_and_observe_into_refuse_a_wrong_dtype_or_layout():
    with pytest.raises(ArgumentTypeError, match="dtype int64"):
        batch.shanten(some_counts().astype(np.int64))
    with pytest.raises(ArgumentError, match="not C-contiguous"):
        Game("chengdu", seed=1).observe_into(0, np.asfortranarray(np.zeros(OBS_SHAPE, np.uint8)))
    with pytest.raises(ArgumentTypeError, match="uint8"):
        Game("chengdu", seed=1).observe_into(0, np.zeros(OBS_SHAPE, np.int64))


@pytest.mark.parametrize(
    "overrides",
    [dict(fan={"basic": 51}, cap_fan=51), dict(base_points=10**6, fan={"basic": 33})],
)
def test_issue12_5_rules_whose_payments_leave_the_exact_range_are_refused(overrides):
    with pytest.raises(RulesError, match="lower cap_fan, base_points"):
        Rules.preset("chengdu", **overrides)


def test_issue12_6_default_action_never_discards_a_wild_for_the_void_suit():
    # Under 幺鸡 a seat that must discard its void suit (条) may draw a wild, the 1s it is.
    for seed in range(40):
        game, rng = Game("yaoji", seed=seed), random.Random(seed)
        while not game.is_over:
            for seat in game.to_act():
                assert game.default_action(seat) in game.legal_actions(seat), (seed, game.to_json())
            seat = game.to_act()[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))


def test_issue12_7_wilds_in_melds_count_toward_the_four():
    melds = ["5m111s", "6m111s", "7m111s", "8m111s"]
    for f in (xueliu.is_win, xueliu.shanten, xueliu.decompositions, xueliu.hand_facts):
        with pytest.raises(InvalidHandError, match="12 wilds"):
            f("99m", melds=melds)
    with pytest.raises(InvalidHandError, match="wilds"):
        xueliu.waits("9m", melds=melds)
    with pytest.raises(InvalidHandError, match="11 wilds"):
        xueliu.is_win("9m", melds=["5m111s", "6m111s", "7m111s", "888m"], wilds=2)


def test_issue12_8_a_sequence_of_tiles_is_tiles_and_a_dict_is_an_error():
    tiles = [Tile(i) for i in range(27)]
    with pytest.raises(InvalidHandError, match="27 tiles"):
        xueliu.shanten(tiles)
    with pytest.raises(ArgumentTypeError, match="got dict"):
        xueliu.shanten({0: 1, 1: 1})
    with pytest.raises(ArgumentTypeError, match="hand must be a string"):
        xueliu.shanten(3.5)


# --- 9: a snapshot is verified: it is what its seed and decisions produce -----------------------


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


def test_issue12_9_scores_shifted_against_the_payment_log_are_refused():
    game = played()

    def shift(d):
        d["scores"][0] += 1
        d["scores"][1] -= 1

    refused(forged(game, shift), r"snapshot\.scores\[0\] is -?\d+, but its seed and decisions give")


def test_issue12_9_a_forged_payment_or_deal_event_is_refused():
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


def test_issue12_9_reordered_or_extra_events_are_refused():
    game = played()

    def reorder(d):
        i = next(i for i, e in enumerate(d["events"]) if e["type"] == "discard")
        j = next(j for j in range(i + 1, len(d["events"])) if d["events"][j]["type"] == "discard")
        d["events"][i], d["events"][j] = d["events"][j], d["events"][i]

    refused(forged(game, reorder), r"snapshot\.events\[\d+\]")
    refused(forged(game, lambda d: d["events"].insert(-1, payments(d)[0])), r"snapshot\.events\[\d+\]")
    refused(forged(game, lambda d: d["events"].append(d["events"][-1])), r"snapshot\.events: \d+ entries, but")


def test_issue12_9_a_changed_seed_is_refused():
    game = played(steps=30)
    refused(forged(game, lambda d: d.update(seed=d["seed"] + 1)), r"snapshot\.seed is 6, but")

    def both(d):  # the log's start too: the replay deals other hands
        d["seed"] += 1
        d["events"][0]["seed"] += 1

    refused(forged(game, both), r"snapshot\.(wall|seats|events)")


def test_issue12_9_a_kong_record_nobody_made_is_refused():
    game = played(steps=30)
    assert not json.loads(game.to_json())["kongs"]

    def kong(d):
        d["kongs"].append(
            {"owner": 0, "tile": "5m", "kind": "concealed", "feeder": None, "paid": [0, 0, 0, 0], "transferred": False}
        )

    refused(forged(game, kong), r"snapshot\.kongs: 1 entries, but its seed and decisions give 0")


def test_issue12_9_a_void_cleared_during_play_is_refused():
    game = played(steps=30)
    assert game.phase == "play"
    refused(forged(game, lambda d: d["seats"][1].update(void=None)), r"snapshot\.seats\[1\]\.void is null")


def test_issue12_9_a_million_junk_events_are_refused_before_parsing():
    game = played(steps=30)
    text = forged(game, lambda d: d["events"].extend([{"type": "redeal"}] * 1_000_000))
    refused(text, "more than any hand writes")
    refused(forged(game, lambda d: d["events"].extend([{"type": "redeal"}] * 1000)), r"snapshot\.events")


def test_issue12_9_pending_hidden_decisions_are_replayed_too():
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


def test_issue12_9_what_no_seed_produces_restores_only_as_trusted():
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


def test_issue12_12_emptying_history_discarded_names_that_field():
    game = played(steps=30)
    assert game.discards(0)
    refused(
        forged(game, lambda d: d["history"]["discarded"][0].clear()),
        r"snapshot\.history\.discarded\[0\]: fewer discards",
    )


def test_issue12_10_vec_env_step_refuses_cast_ids():
    env = VecEnv(2, "chengdu")
    _, mask, _ = env.reset()
    ids = np.array([np.flatnonzero(m)[0] for m in mask], np.int64)
    before = [env.game(i).to_json() for i in range(2)]
    with pytest.raises(ArgumentError, match=r"actions\[0\] is 4294967"):
        env.step(ids + 2**32)
    for bad in (ids.astype(float), [str(i) for i in ids], [True, False]):
        with pytest.raises(ArgumentTypeError):
            env.step(bad)
    assert [env.game(i).to_json() for i in range(2)] == before
    env.step(ids)


def test_issue12_10_score_payment_takes_at_most_four_kongs():
    score = xueliu.score("123m456m789m123p5p", "5p", rules="chengdu")
    assert score.payment(exposed_kongs=2, concealed_kongs=2) > 0
    for kw in (dict(exposed_kongs=255), dict(exposed_kongs=3, concealed_kongs=2), dict(concealed_kongs=-1)):
        with pytest.raises(ArgumentError, match="0-4"):
            score.payment(**kw)
    with pytest.raises(ArgumentTypeError):
        score.payment(exposed_kongs="2")


# --- 11-13: one typed error per mistake ------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: Game(seed=-1), ArgumentError),
        (lambda: Game(seed="7"), ArgumentTypeError),
        (lambda: VecEnv(4, "chengdu", opponents="foo"), BotError),
        (lambda: VecEnv(4, {"preset": "yaoji", "mode": "xueliu"}), RulesError),
        (lambda: Game({"preset": "yaoji", "mode": "xueliu"}), RulesError),
        (lambda: xueliu.simulate(2, {"preset": "yaoji", "mode": "xueliu"}), RulesError),
        (lambda: Game.from_json("{"), SnapshotError),
        (lambda: Game.from_events("[]"), SnapshotError),
        (lambda: Game("chengdu").act(4, "pass"), ArgumentError),
        (lambda: Game("chengdu").act(1, "discard 5m"), IllegalActionError),
        (lambda: xueliu.Action.parse("x" * 10_000_000), ArgumentError),
        (lambda: Game("chengdu").legal_actions("0"), ArgumentTypeError),
        (lambda: VecEnv(-1), ArgumentError),
    ],
)
def test_issue12_11_each_mistake_raises_its_own_error(call, error):
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, XueliuError)
    assert error is IllegalActionError or not isinstance(info.value, IllegalActionError)
    assert len(str(info.value)) < 1000  # a short excerpt of the input, never all of it


def test_issue12_12_a_wrong_type_is_both_a_xueliu_error_and_a_type_error():
    assert issubclass(ArgumentTypeError, ArgumentError) and issubclass(ArgumentTypeError, TypeError)
    with pytest.raises(TypeError, match=r"seat must be .*got str \"x\""):
        Game("chengdu").legal_actions("x")


def test_issue12_13_two_threads_stepping_one_vec_env_get_a_concurrent_use_error():
    env = VecEnv(64, "chengdu", opponents="greedy", threads=1)
    errors: list[BaseException] = []

    def run():
        for _ in range(40):
            try:
                _, mask, _ = env.reset()
                ids = np.array([np.flatnonzero(m)[0] for m in mask], np.int32)
                env.step(ids)
            except ConcurrentUseError as e:
                errors.append(e)
            except XueliuError:
                pass  # the other thread stepped first: these ids may be stale

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all("one thread at a time" in str(e) for e in errors)


@pytest.mark.parametrize("packed", [False, True])
def test_issue12_13_a_read_only_output_array_is_an_argument_error_and_changes_nothing(packed):
    env, twin = VecEnv(4, "chengdu", packed=packed), VecEnv(4, "chengdu", packed=packed)
    obs, mask, _ = env.reset(seed=1)
    twin.reset(seed=1)
    ids = np.array([np.flatnonzero(m)[0] for m in mask], np.int32)
    for array, name in ((obs, "observations"), (mask, "masks")):
        array.flags.writeable = False
        with pytest.raises(ArgumentError, match=f"VecEnv's {name} array was made read-only"):
            env.step(ids)
        array.flags.writeable = True
    # The refused steps changed nothing: the env steps on exactly as its twin does.
    for a, b in zip(env.step(ids), twin.step(ids)):
        assert (a == b).all()


def test_fuzz_found_a_snapshot_error_quoting_a_multibyte_value_does_not_panic():
    data = json.loads(Game("chengdu", seed=1).to_json())
    data["dealer"] = "幺" * 100  # the message quotes 60 characters, never a split one
    with pytest.raises(SnapshotError, match="幺…"):
        Game.from_json(json.dumps(data))


# --- 12.7: the four 1s, wherever they sit ------------------------------------------------------


@pytest.mark.parametrize("module", ["engine", "reference"])
def test_issue12_7_natural_1s_beside_wilds_count_toward_the_four_1s(module):
    from xueliu import reference

    api = xueliu if module == "engine" else reference
    error = InvalidHandError if module == "engine" else ValueError
    # Three natural 1s in hand and three wilds: six 1s.
    with pytest.raises(error, match="1s"):
        api.is_win("111s234m567m99m", wilds=3)
    # A natural kong of 1s beside a kong holding three wilds: seven 1s.
    with pytest.raises(error, match="1s"):
        api.shanten("99m", melds=["1111s", "5m111s", "777m", "888m"])
    # One natural 1s beside three wilds in a meld: four 1s, allowed, and 1s is no wait then
    # (every 1 is held) though it would pair the 1s; a second natural 1s is a fifth.
    melds = ["5m111s", "777m", "888m", "999m"]
    assert api.is_win("12s", melds=melds) is False
    assert list(api.waits("1s", melds=melds)) == []
    assert api.is_win("22s", melds=melds) is True
    with pytest.raises(error, match="1s"):
        api.is_win("11s", melds=melds)


def test_issue12_7_the_reference_reads_melds_holding_wilds_as_the_engine_does():
    from xueliu import reference

    cases = [
        ("99m234p567p789p", dict(melds=["55m1s"]), "is_win"),
        ("99m234p567p789p", dict(melds=["5m111s"]), "decompositions"),
        ("55m234p567p789p", dict(melds=["55m1s"]), "hand_facts"),  # four natural 5m: a root
        ("9m234p567p789p", dict(melds=["55m1s"]), "waits"),
    ]
    for hand, kw, name in cases:
        engine, oracle = getattr(xueliu, name)(hand, **kw), getattr(reference, name)(hand, **kw)
        if name == "decompositions":
            engine = sorted(tuple(d.groups) for d in engine)
        elif name == "hand_facts":
            engine = engine.to_dict()
        elif name == "waits":
            engine = [t.index for t in engine]
        assert engine == oracle, (hand, kw, name)


# --- 12.12: every parameter of every public callable, given a value of no accepted type --------
#
# The callables and their parameters are read from the extension's runtime signatures, so a new
# function, method or parameter is swept as soon as it exists; a callable with a required
# parameter needs a valid call in VALID (and a method its class in INSTANCES), or the sweep fails
# saying so.


class _Wrong:
    """A value no parameter accepts, whose repr is huge: a message must quote an excerpt."""

    def __repr__(self) -> str:
        return "W" * 100_000


def _counts_row() -> np.ndarray:
    return np.array([xueliu.parse_tiles("23445677m345789p").count(Tile(i)) for i in range(27)], np.uint8)[None]


def _acting(game: Game) -> tuple[int, object]:
    seat = game.to_act()[0]
    return seat, game.legal_actions(seat)[0]


def _vec_ids(env: VecEnv) -> np.ndarray:
    _, mask, _ = env.reset()
    return np.array([np.flatnonzero(m)[0] for m in mask], np.int32)


def _score() -> xueliu.Score:
    return xueliu.score("2344567m345789p", "7m", rules="chengdu")


_once = functools.cache  # for the immutable ones, built once

INSTANCES = {
    "Game": lambda: Game("chengdu", seed=1),
    "Match": lambda: xueliu.Match("chengdu", seed=1, hands=2),
    "Bot": lambda: Bot("random"),
    "VecEnv": lambda: VecEnv(1, "chengdu", seed=1, threads=1),
    "Rules": _once(lambda: Rules.preset("chengdu")),
    "Score": _once(_score),
    "HandFacts": _once(lambda: xueliu.hand_facts("23445677m345789p")),
    "SimulationResult": _once(lambda: xueliu.simulate(2, threads=1)),
    "Comparison": _once(lambda: xueliu.compare_bots("random", "random", 2, threads=1)),
}

# A valid value for each required parameter: a value, or a function of the instance (methods).
VALID: dict[str, dict[str, object]] = {
    "is_win": {"hand": "23445677m345789p"},
    "decompositions": {"hand": "23445677m345789p"},
    "hand_facts": {"hand": "23445677m345789p"},
    "shanten": {"hand": "23445677m345789p"},
    "waits": {"hand": "2344567m345789p"},
    "best_waits": {"hand": "2344567m345789p", "rules": "chengdu"},
    "score": {"hand": "2344567m345789p", "win_tile": "7m", "rules": "chengdu"},
    "parse_tiles": {"text": "5m"},
    "format_tiles": {"tiles": [0, 1]},
    "action_id_name": {"id": 0},
    "simulate": {"games": 1, "threads": 1},
    "compare_bots": {"a": "random", "b": "random", "games": 2, "threads": 1},
    "batch.is_win": {"counts": _counts_row()},
    "batch.shanten": {"counts": _counts_row()},
    "batch.waits": {"counts": _counts_row()},
    "Tile": {"value": 0},
    "Game": {},
    "Match": {},
    "Bot": {"name": "random"},
    "VecEnv": {"n": 1, "threads": 1},
    "Action.exchange": {"tiles": "123m"},
    "Action.void": {"suit": "m"},
    "Action.discard": {"tile": "5m"},
    "Action.kong": {"tile": "5m"},
    "Action.swap": {"tile": "5m"},
    "Action.parse": {"text": "pong"},
    "Action.from_id": {"id": 30},
    "Action.from_ids": {"ids": [0, 1, 2]},
    "Game.abandon": {"seat": 0},
    "Game.legal_actions": {"seat": 0},
    "Game.act": {"seat": lambda g: _acting(g)[0], "action": lambda g: _acting(g)[1]},
    "Game.action_mask": {"seat": 0},
    "Game.observe": {"seat": 0},
    "Game.observe_packed": {"seat": 0},
    "Game.observe_into": {"seat": 0, "out": lambda g: np.zeros(OBS_SHAPE, np.uint8)},
    "Game.default_action": {"seat": lambda g: _acting(g)[0]},
    "Game.hand": {"seat": 0},
    "Game.melds": {"seat": 0},
    "Game.discards": {"seat": 0},
    "Game.void": {"seat": 0},
    "Game.events_for": {"seat": 0},
    "Game.determinize": {"seat": 0, "seed": 1},
    "Game.from_json": {"text": lambda g: g.to_json()},
    "Game.replay": {"rules": "chengdu", "seed": 1, "actions": []},
    "Game.from_events": {"events": lambda g: g.events},
    "Match.from_json": {"text": lambda m: m.to_json()},
    "Match.from_log": {"log": lambda m: m.log()},
    "Bot.choose": {"game": lambda b: Game("chengdu", seed=1), "seat": 0},
    "VecEnv.step": {"actions": _vec_ids},
    "VecEnv.game": {"i": 0},
    "Rules.preset": {"name": "chengdu"},
    "Rules.from_dict": {"d": lambda r: r.to_dict()},
    "Rules.points": {"fan": 1},
    "SimulationResult.merge": {"other": _once(lambda r: xueliu.simulate(2, first_game=2, threads=1))},
    "Comparison.merge": {"other": _once(lambda c: xueliu.compare_bots("random", "random", 2, first_game=2, threads=1))},
}


def _callables():
    """(qualified name, class name or None, attribute, signature) of every public callable."""
    import inspect

    from xueliu import _xueliu as ext

    found = []
    for name in sorted(dir(ext)):
        obj = getattr(ext, name)
        if name.startswith("_") or (inspect.isclass(obj) and issubclass(obj, BaseException)):
            continue
        if inspect.ismodule(obj):
            found += [
                (f"{name}.{f}", None, getattr(obj, f), inspect.signature(getattr(obj, f)))
                for f in sorted(dir(obj))
                if not f.startswith("_")
            ]
        elif inspect.isclass(obj):
            try:
                found.append((name, None, obj, inspect.signature(obj)))
            except ValueError:
                pass  # not constructible from Python
            for attr, raw in vars(obj).items():
                if attr.startswith("_") or inspect.isdatadescriptor(raw) or not callable(getattr(obj, attr)):
                    continue
                static = isinstance(raw, staticmethod) or not inspect.ismethoddescriptor(raw)
                found.append((f"{name}.{attr}", None if static else name, attr, inspect.signature(getattr(obj, attr))))
        elif callable(obj):
            found.append((name, None, obj, inspect.signature(obj)))
    return found


def _params(sig):

    return [p for p in sig.parameters.values() if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


CALLABLES = _callables()
CASES = [(qual, param.name) for qual, _, _, sig in CALLABLES for param in _params(sig)]


def _call(qual: str, overrides: dict[str, object]):
    """Calls `qual` with its valid arguments, `overrides` replacing some."""
    import inspect

    ((_, owner, target, sig),) = [c for c in CALLABLES if c[0] == qual]
    cls = qual.split(".")[0]
    instance = INSTANCES[cls]() if cls in INSTANCES and "." in qual else None
    fn = (
        getattr(instance, target)
        if owner
        else (getattr(getattr(xueliu, cls), target) if isinstance(target, str) else target)
    )
    required = [p.name for p in _params(sig) if p.default is inspect.Parameter.empty]
    assert qual in VALID or not required, f"add a valid call of {qual} to VALID (needs {required})"
    given = {k: (v(instance) if callable(v) else v) for k, v in VALID.get(qual, {}).items()}
    given.update(overrides)
    args = [given.pop(p.name) for p in _params(sig) if p.kind == p.POSITIONAL_ONLY and p.name in given]
    return fn(*args, **given)


def test_issue12_12_the_sweep_covers_every_callable_and_its_valid_calls_work():
    assert len(CASES) > 80
    names = {qual for qual, *_ in _callables()}
    assert not set(VALID) - names, f"VALID names callables that no longer exist: {set(VALID) - names}"
    for qual, owner, _, sig in _callables():
        assert owner is None or owner in INSTANCES, f"add a {owner} to INSTANCES"
        if _params(sig):
            try:
                _call(qual, {})
            except (ArgumentError, TypeError) as e:  # a rule may refuse the call; its types are fine
                pytest.fail(f"the valid call of {qual} is refused: {e!r}")
            except XueliuError:
                pass


@pytest.mark.parametrize("qual, param", CASES)
def test_issue12_12_every_parameter_names_itself_for_a_wrong_type(qual, param):
    with pytest.raises(ArgumentTypeError) as info:
        _call(qual, {param: _Wrong()})
    message = str(info.value)
    assert param in message and len(message) < 1000, message


@pytest.mark.parametrize("qual, param", CASES)
@pytest.mark.parametrize("bad", [2**200, "\udc80"], ids=["huge-int", "lone-surrogate"])
def test_issue12_12_a_huge_int_or_unencodable_string_is_a_xueliu_error(qual, param, bad):
    try:
        _call(qual, {param: bad})
    except XueliuError as e:
        assert len(str(e)) < 1000
    # Some parameters accept any int or str as such (an id or notation checked later by a rule
    # is still refused above); none may raise PyO3's own OverflowError or UnicodeEncodeError.


# --- 12.13: a Game and a Bot are used by one thread at a time ----------------------------------


def test_issue12_13_a_game_or_bot_in_use_by_another_thread_is_a_concurrent_use_error():
    # Bot.choose releases the GIL while it thinks and keeps its bot and game meanwhile: a second
    # thread touching either gets ConcurrentUseError at once and changes nothing.
    import time

    game, bot = Game("chengdu", seed=5), Bot("ismcts:400", seed=1)
    seat = game.to_act()[0]
    before = game.to_json()
    seen: dict[str, str] = {}
    deadline = time.monotonic() + 20
    done = threading.Event()

    def think():
        while not done.is_set() and time.monotonic() < deadline:
            bot.choose(game, seat)
        done.set()

    thinker = threading.Thread(target=think)
    thinker.start()
    try:
        while not done.is_set() and len(seen) < 2:
            for what, call in (
                ("game", lambda: game.legal_actions(seat)),
                ("bot", lambda: bot.choose(Game("chengdu", seed=6), 0)),
            ):
                try:
                    call()  # succeeds when the thinker is between two calls
                except ConcurrentUseError as e:
                    seen[what] = str(e)
            time.sleep(0.001)
    finally:
        done.set()
        thinker.join()
    assert set(seen) == {"game", "bot"}, seen
    assert game.to_json() == before
    assert "Game is used by one thread at a time" in seen["game"]
    assert "Bot is used by one thread at a time" in seen["bot"]
    assert isinstance(ConcurrentUseError("x"), XueliuError)


# --- 16.9: a Game and a Match pickle through their snapshots -----------------------------------


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
