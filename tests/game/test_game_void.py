"""Void suit (定缺, RULES.md §5): simultaneous public declarations, the default, forced void
discards, no pong or kong of the void suit, and no win while holding it."""

import pytest
from positions import position, seat, turn

from xueliu import Action, Game, IllegalActionError


def legal(game, s):
    return {str(a) for a in game.legal_actions(s)}


def test_declarations_are_simultaneous_then_public_in_seat_order():
    game = Game("chengdu", seed=2)
    assert game.phase == "void" and game.to_act() == [0, 1, 2, 3]
    assert legal(game, 1) == {"void m", "void p", "void s"}
    for s, suit in [(3, "p"), (1, "s"), (0, "m"), (2, "m")]:
        game.act(s, Action.void(suit))
        if game.phase == "void":
            assert game.void(s) is None and not [e for e in game.events if e["type"] == "void"]
    voids = [e for e in game.events if e["type"] == "void"]
    assert voids == [
        {"type": "void", "seat": 0, "suit": "m"},
        {"type": "void", "seat": 1, "suit": "s"},
        {"type": "void", "seat": 2, "suit": "m"},
        {"type": "void", "seat": 3, "suit": "p"},
    ]
    assert [game.void(s) for s in range(4)] == ["m", "s", "m", "p"]
    assert game.phase == "play" and game.to_act() == [game.dealer]


def test_without_declare_void_play_starts_at_once():
    game = Game({"preset": "chengdu", "declare_void": False}, seed=2)
    assert game.phase == "play" and game.void(0) is None


def test_default_declaration_is_the_suit_with_fewest_tiles_ties_m_p_s():
    game = position(
        "chengdu",
        seats=[
            seat(h, turn=0, draws=0)
            for h in ["12345m456p123789s", "6789m1234p12345s", "556677889p1122s", "111222333m56p67s"]
        ],
        pending={"phase": "void", "picks": [None] * 4},
        claimed=False,
    )
    # m5 p3 s6 -> p; m4 p4 s5 -> m; m0 -> m; m9 p2 s2 -> p.
    assert [str(game.default_action(s)) for s in range(4)] == ["void p", "void m", "void m", "void p"]


def void_turn(hand, void, drawn):
    """Seat 0 to move; the others hold p (seats 1-2) and p and s (seat 3)."""
    others = [seat("1122334455667p", void="s"), seat("1122334455667p", void="s"), seat("778899p1122334s", void="m")]
    return position("chengdu", seats=[seat(hand, void=void)] + others, pending=turn(0, "draw", drawn))


def test_while_holding_the_void_suit_only_its_tiles_may_be_discarded():
    game = void_turn("123m456m789m889p5s6s", "s", "6s")
    assert legal(game, 0) == {"discard 5s", "discard 6s"}
    with pytest.raises(IllegalActionError, match="void suit"):
        game.act(0, Action.discard("1m"))
    assert str(game.default_action(0)) == "discard 6s"  # the drawn one, as it is void


def test_the_default_void_discard_is_the_lowest_when_the_drawn_tile_is_not_void():
    game = void_turn("123m456m789m889p5s6s", "s", "1m")
    assert str(game.default_action(0)) == "discard 5s"


def test_no_win_while_holding_the_void_suit():
    # A complete hand of m and s, but s is the declared void.
    game = void_turn("123m456m789m555s55m", "s", "5m")
    assert "win" not in legal(game, 0)
    game = void_turn("123m456m789m555s55m", "p", "5m")
    assert "win" in legal(game, 0)


def test_no_pong_or_kong_of_the_void_suit():
    # Seat 1 holds 555p but declared p void: seat 0's 5p asks nothing of it.
    game = position(
        "chengdu",
        seats=[
            seat("11m22m33m44m66m77m9m5p", void="s"),
            seat("555p123m456m789m1m", void="p"),
            seat("2233446677889p", void="s"),
            seat("123456789s1234s", void="m"),
        ],
        pending=turn(0, "draw", "5p"),
    )
    game.act(0, Action.discard("5p"))
    assert game.to_act() == [1] and game.events[-1]["type"] == "draw"
    # And a concealed kong of the void suit is not offered either.
    game = void_turn("5555s123m456m789m9m", "s", "9m")
    assert not any(a.startswith("kong") for a in legal(game, 0))
