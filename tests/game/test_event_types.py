"""The event types of ``xueliu.events`` are the engine's events: every event written, in full and as
each viewer sees it, under every preset and in the rarer hands (a match's given dealer, dice for
the dealer, a redeal, a leaver), has exactly the keys its ``TypedDict`` declares (the optional ones
only where declared) and values of the declared types; and every declared type is written."""

from __future__ import annotations

from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest
from helpers import PRESETS
from positions import REDEAL_HANDS, exchange_phase

from xueliu import Action, Bot, Game, Match, Rules
from xueliu import events as ev

TYPES: dict[str, Any] = {get_args(get_type_hints(t)["type"])[0]: t for t in get_args(ev.Event)}


def is_typeddict(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, dict) and hasattr(hint, "__required_keys__")


def conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` (decoded JSON) is of type ``hint``, for the types the event types use."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if origin is Literal:
        return value in args
    if origin is Union:
        return any(conforms(value, a) for a in args)
    if origin is list:
        return isinstance(value, list) and all(conforms(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(isinstance(k, str) for k in value)
    if is_typeddict(hint):
        return not problems(value, hint)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def problems(value: Any, typed: Any) -> list[str]:
    """What is wrong with ``value`` as a ``typed`` (a TypedDict): missing, unknown, mistyped keys."""
    if not isinstance(value, dict):
        return [f"{value!r} is no dict"]
    required, optional = typed.__required_keys__, typed.__optional_keys__
    hints = get_type_hints(typed)
    return (
        [f"missing {k!r}" for k in sorted(required - value.keys())]
        + [f"undeclared {k!r}" for k in sorted(value.keys() - required - optional)]
        + [
            f"{k!r} = {value[k]!r} is no {hints[k]}"
            for k in sorted(value.keys() & hints.keys())
            if not conforms(value[k], hints[k])
        ]
    )


def views(game: Game) -> list[list[dict[str, Any]]]:
    """The log in full, as each seat sees it, and as a spectator does."""
    return [game.events, *(game.events_for(s) for s in range(4)), game.public_events()]


def played(game: Game, seed: int) -> Game:
    """``game`` played to its end by greedy and random bots seeded from ``seed``."""
    bots = [Bot("greedy" if s % 2 == 0 else "random", seed=seed * 4 + s) for s in range(4)]
    while not game.is_over:
        s = game.to_act()[0]
        game.act(s, bots[s].choose(game, s))
    return game


def rare_hands() -> list[Game]:
    """Hands whose events the presets' ordinary play seldom or never writes."""
    match = Match("chengdu", seed=3, hands=2)
    played(match.game, 3)
    match.next_hand()  # a dealer given by the match: `dealer_given`
    leaver = Game("chengdu", seed=4)
    leaver.abandon(1)  # 逃跑: `abandon`, `escape` payments, an `abandoned` end
    redeal = exchange_phase(hands=REDEAL_HANDS, exchange="opposite")
    for s in range(4):
        redeal.act(s, Action.exchange("123m"))
    dice = Game(Rules.preset("chengdu", first_dealer="dice"), seed=5)  # the dealer's dice
    return [played(match.game, 3), leaver, played(redeal, 6), played(dice, 5)]


def written(games: list[Game]) -> set[str]:
    return {e["type"] for g in games for e in g.events}


@pytest.fixture(scope="module")
def corpus() -> list[Game]:
    games = [played(Game(preset, seed=seed), seed) for preset in PRESETS for seed in range(8)] + rare_hands()
    # A swap (幺鸡换) or a robbed kong comes up in a few 幺鸡 hands in a hundred: play on to both.
    for seed in range(8, 200):
        if {"swap", "robbed"} <= written(games):
            break
        games.append(played(Game("yaoji", seed=seed), seed))
    return games


def test_every_event_has_the_keys_and_types_its_typeddict_declares(corpus):
    seen: set[str] = set()
    for game in corpus:
        for events in views(game):
            for e in events:
                typed = TYPES.get(e.get("type"))
                assert typed is not None, f"an event of no declared type: {e}"
                assert not problems(e, typed), f"{e}: {problems(e, typed)}"
                seen.add(e["type"])
        for w in game.wins:
            assert not problems(w.score.to_dict(), ev.ScoreDict), w.score.to_dict()
    assert seen == set(TYPES), f"never written: {set(TYPES) - seen}"


def test_optional_keys_are_written_where_the_types_say(corpus):
    keys: dict[str, set[str]] = {name: set() for name in TYPES}
    for game in corpus:
        for events in views(game):
            for e in events:
                keys[e["type"]] |= e.keys()
    for name, typed in TYPES.items():
        assert typed.__optional_keys__ <= keys[name], f"{name}: {typed.__optional_keys__ - keys[name]} never written"


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "discard", "seat": 0},
        {"type": "discard", "seat": 0, "tile": "5m", "extra": 1},
        {"type": "discard", "seat": True, "tile": "5m"},
        {"type": "kong", "seat": 0, "tile": "5m", "kind": "exposed", "from": None, "late": False},
        {"type": "exchange", "direction": "opposite", "given": [None, ["1m"]], "received": [3]},
    ],
)
def test_the_check_finds_a_missing_an_undeclared_or_a_mistyped_key(bad):
    assert problems(bad, TYPES[bad["type"]])


def test_each_event_type_has_one_typeddict():
    assert len(TYPES) == len(get_args(ev.Event)) == 19
