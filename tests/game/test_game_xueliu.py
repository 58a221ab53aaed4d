"""Modes (RULES.md §7): 血战到底 (winners leave, three winners end the hand, later payments skip
them) and 血流成河 (the winner's hand locks: win again, kong only if the waits stay the same, else
discard the drawn tile; responses only win or pass)."""

import pytest
from positions import payments, position, respond, seat, turn, win_record

from xueliu import Action, IllegalActionError

QA = "1122334455667p"
QC = "778899p1122334s"


def legal(game, s):
    return {str(a) for a in game.legal_actions(s)}


# Seat 0 discards 5m; seats 1 and 3 wait on it (4_6m); seat 2 holds 55m.
HANDS = ["11m22m33m44m77m88m9m", "123m46m789m99m999p", "556m666p777p888p9p", "46m111p222p333p44p"]


def test_xuezhan_a_winner_leaves_and_is_skipped():
    game = position("chengdu", seats=[seat(h, void="s") for h in HANDS], river=[(0, "5m")], pending=respond(0, "5m"))
    for s, a in [(1, Action.win()), (2, Action.pass_()), (3, Action.pass_())]:
        game.act(s, a)
    # Seat 2 draws next; seat 1 never acts again, even on a tile it could claim.
    assert game.to_act() == [2]
    for _ in range(60):
        if game.is_over:
            break
        for s in game.to_act():
            assert s != 1
            game.act(s, game.default_action(s))
    assert not [e for e in game.events[4:] if e.get("seat") == 1 and e["type"] in ("draw", "discard", "pass")]


def test_xuezhan_three_winners_end_the_hand_at_once():
    # Seats 1 and 2 have won; seat 0 discards 5m and seat 3 wins: the third winner ends it.
    w1 = seat("123m46m789m99m999p", void="s", wins=1)
    w2 = seat("2233445566778s", void="m", wins=1)
    game = position(
        "chengdu",
        seats=[seat("11m22m33m44m77m88m9m", void="s"), w1, w2, seat("46m111p222p333p44p", void="s")],
        wins=[
            win_record(1, "5m", "123m46m789m99m999p", from_seat=0),
            win_record(2, "8s", "2233445566778s", from_seat=3),
        ],
        river=[(0, "5m")],
        pending=respond(0, "5m"),
        scores=(-6, 6, 6, -6),
    )
    assert game.to_act() == [3]
    game.act(3, Action.win())
    assert [e["type"] for e in game.events[-3:]] == ["win", "payment", "end"]
    assert game.events[-1] == {"type": "end", "reason": "three_won", "scores": game.scores}
    assert game.is_over and game.phase == "over" and game.to_act() == []


def test_xuezhan_kong_payments_skip_winners():
    game = position(
        "chengdu",
        seats=[
            seat("5555m123m789m11s44s", void="p"),
            seat(QA, void="s", wins=1),
            seat("8899p556677889s", void="m"),
            seat(QC, void="m"),
        ],
        wins=[win_record(1, "7p", QA, from_seat=2)],
        scores=(0, 6, -6, 0),
        pending=turn(0, "draw", "1s"),
    )
    game.act(0, Action.kong("5m"))
    assert payments(game.events) == [(2, 0, 12, "kong"), (3, 0, 12, "kong")]


def locked(preset, hand, drawn, win_tile):
    """Seat 0 won earlier on `win_tile` (血流): its locked hand plus the tile just drawn."""
    return position(
        preset,
        seats=[seat(hand, void="p", wins=1), seat(QA, void="s"), seat(QA, void="s"), seat(QC, void="m")],
        wins=[win_record(0, win_tile, LOCKED[hand], from_seat=1)],
        scores=(6, -6, 0, 0),
        pending=turn(0, "draw", drawn),
    )


# Locked hands (13) and the hand after the draw (14).
LOCKED = {
    # 111m 456m 789m 234s + 9s: waits 9s. Drawing 1m: the kong keeps the waits.
    "1111m456m789m234s9s": "111m456m789m234s9s",
    # 11123m 456m 789m 99s: waits 1m and 4m. Drawing 1m: a kong would leave only 4m.
    "11112m3m456m789m99s": "111m23m456m789m99s",
}


def test_xueliu_a_winner_stays_with_the_winning_tile_set_aside():
    game = position(
        "chengdu_xueliu", seats=[seat(h, void="s") for h in HANDS], river=[(0, "5m")], pending=respond(0, "5m")
    )
    before = sorted(str(t) for t in game.hand(1))
    for s, a in [(1, Action.win()), (2, Action.pass_()), (3, Action.pass_())]:
        game.act(s, a)
    assert sorted(str(t) for t in game.hand(1)) == before  # 5m set aside, not in the hand
    assert game.wins[0].tile.__str__() == "5m" and game.to_act() == [2]


def test_xueliu_locked_hand_kongs_only_when_the_waits_stay_the_same():
    game = locked("chengdu_xueliu", "1111m456m789m234s9s", "1m", "9s")
    assert legal(game, 0) == {"kong 1m", "discard 1m"}
    game = locked("chengdu_xueliu", "11112m3m456m789m99s", "1m", "4m")
    # 1m completes 111m 123m 456m 789m 99s: it may win again, but not kong.
    assert legal(game, 0) == {"win", "discard 1m"}
    with pytest.raises(IllegalActionError, match="locked"):
        game.act(0, Action.discard("9s"))


def test_xueliu_a_winner_wins_again():
    game = locked("chengdu_xueliu", "11112m3m456m789m99s", "1m", "4m")
    game.act(0, Action.win())
    assert [w.seat for w in game.wins] == [0, 0]
    # 血流: everyone stays; seat 1 draws after the self-drawer.
    assert game.events[-1]["type"] == "draw" and game.events[-1]["seat"] == 1


def test_xueliu_a_winner_may_not_pong_only_win_or_pass():
    # Seat 1 won before (血流) and holds 999p: a kong or pong shape, but a locked hand only wins
    # or passes, and 9p does not complete it.
    w1 = seat("123m46m789m99m999p", void="s", wins=1)
    game = position(
        "chengdu_xueliu",
        seats=[
            seat("11m22m33m44m77m88m9m9p", void="s"),
            w1,
            seat("1556m666p777p888p", void="s"),
            seat("46m111p222p333p44p", void="s"),
        ],
        wins=[win_record(1, "5m", "123m46m789m99m999p", from_seat=2)],
        pending=turn(0, "draw", "9p"),
        scores=(0, 6, -6, 0),
    )
    game.act(0, Action.discard("9p"))
    assert [e["type"] for e in game.events[-2:]] == ["discard", "draw"] and game.to_act() == [1]
