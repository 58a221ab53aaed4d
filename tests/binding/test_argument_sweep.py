"""Every parameter of every public callable, given a value of no accepted type: an
ArgumentTypeError naming the parameter, never PyO3's own OverflowError or UnicodeEncodeError
(issue 12, item 12).

The callables and their parameters are read from the extension's runtime signatures, so a new
function, method or parameter is swept as soon as it exists; a callable with a required
parameter needs a valid call in VALID (and a method its class in INSTANCES), or the sweep fails
saying so."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import xueliu
from xueliu import (
    OBS_SHAPE,
    ArgumentError,
    ArgumentTypeError,
    Bot,
    Game,
    Rules,
    Tile,
    VecEnv,
    XueliuError,
)
from xueliu.train import Mlp


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
    "load_policy": {"weights": _once(lambda _: Mlp.new([4], np.random.default_rng(0)).to_bytes(31_337))},
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
    "Game.act_id": {"seat": lambda g: _acting(g)[0], "action_id": lambda g: _acting(g)[1].ids[0]},
    "Game.action_mask": {"seat": 0},
    "Game.observe": {"seat": 0},
    "Game.observe_packed": {"seat": 0},
    "Game.observe_into": {"seat": 0, "out": lambda g: np.zeros(OBS_SHAPE, np.uint8)},
    "Game.default_action": {"seat": lambda g: _acting(g)[0]},
    "Game.check": {"seat": lambda g: _acting(g)[0], "action": lambda g: _acting(g)[1]},
    "Game.in_hand": {"seat": 0},
    "Game.offered_win": {"seat": 0},
    "Game.offered_payments": {"seat": 0},
    "Game.hand": {"seat": 0},
    "Game.melds": {"seat": 0},
    "Game.discards": {"seat": 0},
    "Game.void": {"seat": 0},
    "Game.events_for": {"seat": 0},
    "Game.determinize": {"seat": 0, "seed": 1},
    "Game.from_json": {"text": lambda g: g.to_json()},
    "Game.replay": {"rules": "chengdu", "seed": 1, "actions": []},
    "Game.from_events": {"events": lambda g: g.events},
    "Game.replayed_prefix": {"events": lambda g: g.events},
    "Game.replay_states": {"events": lambda g: g.events},
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


def test_the_sweep_covers_every_callable_and_its_valid_calls_work():
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
def test_every_parameter_names_itself_for_a_wrong_type(qual, param):
    with pytest.raises(ArgumentTypeError) as info:
        _call(qual, {param: _Wrong()})
    message = str(info.value)
    assert param in message and len(message) < 1000, message


@pytest.mark.parametrize("qual, param", CASES)
@pytest.mark.parametrize("bad", [2**200, "\udc80"], ids=["huge-int", "lone-surrogate"])
def test_a_huge_int_or_unencodable_string_is_a_xueliu_error(qual, param, bad):
    try:
        _call(qual, {param: bad})
    except XueliuError as e:
        assert len(str(e)) < 1000


SEED_CASES = [(qual, param) for qual, param in CASES if param == "seed"]


@pytest.mark.parametrize("qual, param", SEED_CASES)
def test_every_seed_reads_alike(qual, param):
    """One reading of a seed everywhere (args.rs): a bool is refused, a numpy integer is taken
    as its value (once Game took ``seed=True`` as 1 and refused numpy, while Bot did the opposite)."""
    import numpy as np

    assert len(SEED_CASES) >= 8
    with pytest.raises(ArgumentTypeError, match="seed must be an int from 0 to 2\\*\\*64 - 1; got bool True"):
        _call(qual, {param: True})
    try:
        _call(qual, {param: np.uint64(2**64 - 1)})
    except ArgumentError as e:
        pytest.fail(f"{qual} refuses a numpy seed: {e}")
    except XueliuError:
        pass  # a rule may refuse the call; the seed was read
