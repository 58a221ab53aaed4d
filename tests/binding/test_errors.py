"""One typed error per mistake, each a XueliuError, each message short: the binding maps every
core error in one place (issue 12, items 8, 10-12; docs/guarantees.md)."""

from __future__ import annotations

import pytest

import xueliu
from xueliu import (
    ArgumentError,
    ArgumentTypeError,
    Bot,
    BotError,
    Game,
    IllegalActionError,
    InvalidHandError,
    Rules,
    RulesError,
    SnapshotError,
    Tile,
    VecEnv,
    XueliuError,
)


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
def test_each_mistake_raises_its_own_error(call, error):
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, XueliuError)
    assert error is IllegalActionError or not isinstance(info.value, IllegalActionError)
    assert len(str(info.value)) < 1000  # a short excerpt of the input, never all of it


LONG = "x" * 10_000_000


@pytest.mark.parametrize(
    "call",
    [
        lambda: xueliu.is_win(LONG),
        lambda: xueliu.waits(LONG),
        lambda: xueliu.shanten(LONG),
        lambda: xueliu.decompositions(LONG),
        lambda: xueliu.hand_facts(LONG),
        lambda: xueliu.best_waits(LONG, rules=Rules.preset("chengdu")),
        lambda: xueliu.parse_tiles("123m" * 2_500_000 + "x"),
        lambda: Tile(LONG),
        lambda: xueliu.Action.exchange(LONG),
        lambda: Rules.preset(LONG),
        lambda: Rules.preset("chengdu", **{LONG[:100_000]: 1}),
        lambda: Game(LONG),
        lambda: Bot(LONG),
        lambda: VecEnv(2, "chengdu", opponents=LONG),
        lambda: xueliu.simulate(1, "chengdu", bots=(LONG,) * 4),
    ],
)
def test_an_error_quotes_a_short_excerpt_of_a_long_input(call):
    """Issue 30 item 17: never the whole input, and say how long it was."""
    with pytest.raises(XueliuError) as info:
        call()
    assert len(str(info.value)) < 1000, str(info.value)[:200]
    assert "characters)" in str(info.value)  # says how long the input was


def test_a_wrong_type_is_both_a_xueliu_error_and_a_type_error():
    assert issubclass(ArgumentTypeError, ArgumentError) and issubclass(ArgumentTypeError, TypeError)
    with pytest.raises(TypeError, match=r"seat must be .*got str \"x\""):
        Game("chengdu").legal_actions("x")


def test_a_sequence_of_tiles_is_tiles_and_a_dict_is_an_error():
    tiles = [Tile(i) for i in range(27)]
    with pytest.raises(InvalidHandError, match="27 tiles"):
        xueliu.shanten(tiles)
    with pytest.raises(ArgumentTypeError, match="got dict"):
        xueliu.shanten({0: 1, 1: 1})
    with pytest.raises(ArgumentTypeError, match="hand must be a string"):
        xueliu.shanten(3.5)


def test_score_payment_takes_at_most_four_kongs():
    score = xueliu.score("123m456m789m123p5p", "5p", rules="chengdu")
    assert score.payment(exposed_kongs=2, concealed_kongs=2) > 0
    for kw in (dict(exposed_kongs=255), dict(exposed_kongs=3, concealed_kongs=2), dict(concealed_kongs=-1)):
        with pytest.raises(ArgumentError, match="0-4"):
            score.payment(**kw)
    with pytest.raises(ArgumentTypeError):
        score.payment(exposed_kongs="2")
