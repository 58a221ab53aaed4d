"""Responses to a discard (RULES.md §6; docs/game-protocol.md §2, §3, §7): pong, wins beating
claims, several wins on one discard (一炮多响) and who draws next, pass events, `pong_last_discard`,
`last_four` and 过胡 (`pass_win_lock`)."""

import pytest
from positions import passed_win, payments, position, respond, seat

from xueliu import Action, IllegalActionError

# Seat 0 has just discarded 5m. Seats 1 and 3 wait on it (4_6m), seat 2 holds 55m.
HANDS = ["11m22m33m44m77m88m9m", "123m46m789m99m999p", "556m666p777p888p9p", "46m111p222p333p44p"]


def five_m(preset="chengdu", **overrides):
    return position(
        preset,
        seats=[seat(h, void="s") for h in HANDS],
        river=[(0, "5m")],
        pending=respond(0, "5m"),
        **overrides,
    )


def legal(game, s):
    return {str(a) for a in game.legal_actions(s)}


def test_every_seat_with_a_claim_is_asked_and_only_those():
    game = five_m()
    assert game.to_act() == [1, 2, 3]
    assert legal(game, 1) == {"win", "pass"}
    assert legal(game, 2) == {"pong", "pass"}
    assert legal(game, 3) == {"win", "pass"}
    assert legal(game, 0) == set()


def test_a_pong_takes_the_discard_and_the_ponger_discards_without_drawing():
    game = five_m()
    for s, a in [(3, Action.pass_()), (2, Action.pong()), (1, Action.pass_())]:
        game.act(s, a)
    assert game.events == [
        {"type": "pass", "seat": 1, "on": "discard", "could": ["win"]},
        {"type": "pass", "seat": 3, "on": "discard", "could": ["win"]},
        {"type": "pong", "seat": 2, "tile": "5m", "from": 0},
    ]
    assert game.to_act() == [2] and [str(m) for m in game.melds(2)] == ["555m"]
    assert {a.kind for a in game.legal_actions(2)} == {"discard"}
    assert game.discards(0) == [] and game.wall_remaining == 55 - 0


def test_wins_beat_a_pong_and_both_winners_take_the_same_discard():
    game = five_m()
    for s, a in [(2, Action.pong()), (3, Action.win()), (1, Action.win())]:
        game.act(s, a)
    kinds = [(e["type"], e.get("seat")) for e in game.events]
    # Declines in seat order, then the wins in turn order from the discarder, each paid at once.
    assert kinds[:5] == [("beaten", 2), ("win", 1), ("payment", None), ("win", 3), ("payment", None)]
    # chengdu: each hand is basic (1 fan) = 6 × 2^0 = 6 points from the discarder.
    assert payments(game.events) == [(0, 1, 6, "win"), (0, 3, 6, "win")]
    assert game.scores == [-12, 6, 0, 6]
    # The farthest winner from seat 0 is seat 3; the next seat still in the hand after it is 0.
    assert game.events[5] == {"type": "draw", "seat": 0, "tile": None, "replacement": False} | {
        "tile": game.events[5]["tile"]
    }
    assert game.to_act() == [0]
    assert game.melds(2) == []


def test_one_winner_then_the_seat_after_the_winner_draws():
    game = five_m()
    for s, a in [(1, Action.win()), (2, Action.pass_()), (3, Action.pass_())]:
        game.act(s, a)
    draw = next(e for e in game.events if e["type"] == "draw")
    assert draw["seat"] == 2


def test_nobody_claims_then_the_next_seat_draws():
    game = five_m()
    for s in (1, 2, 3):
        game.act(s, Action.pass_())
    assert [e["type"] for e in game.events] == ["pass", "pass", "pass", "draw"]
    assert game.events[-1]["seat"] == 1 and [str(t) for t in game.discards(0)] == ["5m"]


def test_a_seat_that_decided_waits_hidden_and_order_does_not_matter():
    a, b = five_m(), five_m()
    a.act(2, Action.pong())
    assert a.to_act() == [1, 3] and a.legal_actions(2) == [] and a.events == []
    with pytest.raises(IllegalActionError):
        a.act(2, Action.pass_())
    for s, x in [(1, Action.pass_()), (3, Action.pass_())]:
        a.act(s, x)
    for s, x in [(3, Action.pass_()), (1, Action.pass_()), (2, Action.pong())]:
        b.act(s, x)
    assert a.to_json() == b.to_json()


def test_the_last_discard_cannot_be_ponged_unless_pong_last_discard():
    game = five_m(wall_len=0, last_four="none")
    assert game.to_act() == [1, 3]
    game = five_m(wall_len=0, last_four="none", pong_last_discard=True)
    assert game.to_act() == [1, 2, 3] and legal(game, 2) == {"pong", "pass"}
    for s, a in [(1, Action.pass_()), (3, Action.pass_()), (2, Action.pong())]:
        game.act(s, a)
    # The ponger discards; its responses resolve; then the wall is empty: 流局.
    game.act(2, Action.discard("9p"))
    while not game.is_over:  # seat 1 may pong 9p too; everyone passes
        for s in game.to_act():
            game.act(s, Action.pass_())
    assert not [e for e in game.events if e["type"] == "draw"]
    assert game.is_over and game.events[-1]["type"] == "end" and game.events[-1]["reason"] == "wall_empty"


@pytest.mark.parametrize(
    "last_four, forced", [("ron_forced", True), ("forced", True), ("self_draw_forced", False), ("none", False)]
)
def test_last_four_forces_wins_on_a_discard_made_with_four_or_fewer_left(last_four, forced):
    game = five_m(wall_len=4, last_four=last_four)
    assert legal(game, 1) == ({"win"} if forced else {"win", "pass"})
    assert str(game.default_action(1)) == ("win" if forced else "pass")
    assert legal(game, 2) == {"pong", "pass"}
    five = five_m(wall_len=5, last_four=last_four)
    assert legal(five, 1) == {"win", "pass"}


@pytest.mark.parametrize(
    "lock, first, second, may_win",
    [
        ("until_draw_unless_higher", "1m", "4m", True),  # 2 fan after declining 1: higher
        ("until_draw_unless_higher", "4m", "1m", False),  # 1 fan after declining 2
        ("until_draw", "1m", "4m", False),
        ("none", "4m", "1m", True),
    ],
)
def test_pass_win_lock_after_declining_a_win(lock, first, second, may_win):
    game = passed_win("chengdu", first, pass_win_lock=lock)
    assert game.to_act() == [1]
    game.act(1, Action.pass_())
    assert game.events[0]["type"] == "pass" and "win" in game.events[0]["could"]
    assert game.to_act() == [3]
    game.act(3, Action.discard(second))
    assert ("win" in legal(game, 1)) == may_win


def test_the_lock_lifts_at_the_seats_own_next_draw():
    import json

    game = passed_win("chengdu", "1m", pass_win_lock="until_draw")
    game.act(1, Action.pass_())
    assert json.loads(game.to_json())["seats"][1]["declined"] == 1
    game.act(3, Action.discard("7p"))  # nobody can claim it
    while not (game.phase == "play" and game.to_act() == [1] and game.events[-1]["type"] == "draw"):
        for s in game.to_act():
            game.act(s, game.default_action(s))
    assert json.loads(game.to_json())["seats"][1]["declined"] is None


# 过胡 after a pong: seat 1 (55m678m123p456p99p) is offered a win on 上家's 5m; seat 2 will draw 8m.
PONG_OVER_WIN = ["1234m7m11s234s567s", "55m678m123p456p99p", "1122334455667p", "1122334455667s"]


@pytest.mark.parametrize("preset", ["chengdu", "chengdu_xueliu"])
@pytest.mark.parametrize("lock", ["until_draw_unless_higher", "none"])
def test_pass_win_lock_a_pong_chosen_over_a_win_declines_it(preset, lock):
    # Seeds 002/003 打牌規則 12 「不能棄上一家而胡下一家。若加翻可胡牌」, RULES.md §6: any answer but
    # `win` declines the win. Seat 1 pongs 0's 5m instead of winning (basic), discards 8m and
    # waits on 5m/8m; 下家 seat 2 draws 8m and discards it: the same basic win, refused.
    voids = ["p", "s", "s", "m"]
    game = position(
        preset,
        seats=[seat(h, void=v) for h, v in zip(PONG_OVER_WIN, voids)],
        river=[(0, "5m")],
        wall="8m",
        pending=respond(0, "5m"),
        pass_win_lock=lock,
    )
    assert game.to_act() == [1] and legal(game, 1) == {"win", "pong", "pass"}
    game.act(1, Action.pong())
    game.act(1, Action.discard("8m"))
    assert game.to_act() == [2] and game.events[-1]["tile"] == "8m"
    game.act(2, Action.discard("8m"))
    assert ("win" in legal(game, 1)) == (lock == "none")
