"""Above one hand (RULES.md §2): a given dealer, the next dealer, 逃跑 (abandon) and a Match of
several hands: dealers, derived seeds, results and totals, snapshots and the match log; a match
as a session (盘) with a time limit and placement points."""

import json
import random

import pytest

import xueliu
from xueliu import ArgumentError, Game, IllegalActionError, Match, SnapshotError
from xueliu.reference import Match as Reference
from xueliu.reference.game import IllegalActionError as ReferenceIllegal


def finish(game, rng):
    while not game.is_over:
        s = game.to_act()[0]
        game.act(s, rng.choice(game.legal_actions(s)))


def test_a_given_dealer_deals_the_hand():
    for d in range(4):
        game = Game("chengdu", seed=3, dealer=d)
        assert game.dealer == d and len(game.hand(d)) == 14
        assert game.events[0]["dealer_given"] is True
    for bad in (4, -1):
        with pytest.raises(ArgumentError, match=f"dealer {bad} does not exist"):
            Game("chengdu", seed=3, dealer=bad)
    assert "dealer_given" not in Game("chengdu", seed=3).events[0]


def test_next_dealer_is_none_until_the_hand_is_over_then_follows_the_rotation():
    game = Game("dashiyou", seed=1, dealer=2)
    assert game.next_dealer is None
    finish(game, random.Random(1))
    assert game.next_dealer == 3  # seed 000: 轮庄, the next seat


def test_abandon_pays_96_to_each_seat_that_has_not_won():
    # Seed 002 計分規則 11: 對未胡玩家還需扣除96分.
    game = Game("chengdu", seed=4)
    game.abandon(1)
    assert game.is_over and game.leaver == 1
    assert game.scores == [96, -288, 96, 96]
    assert [e["type"] for e in game.events[-5:]] == ["abandon", "payment", "payment", "payment", "end"]
    assert game.events[-1]["reason"] == "abandoned"
    assert {e["reason"] for e in game.events if e["type"] == "payment"} == {"escape"}
    with pytest.raises(IllegalActionError, match="over"):
        game.abandon(2)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    assert Game.from_events(game.events).scores == game.scores


def test_escape_penalty_is_an_option():
    game = Game(xueliu.Rules.preset("xuezhan", escape_penalty=10), seed=4)
    game.abandon(0)
    assert game.scores == [-30, 10, 10, 10]
    with pytest.raises(ArgumentError, match="seats are 0-3"):
        Game("xuezhan").abandon(7)


def test_a_match_plays_its_hands_in_order_with_derived_seeds_and_dealers():
    rng = random.Random(5)
    m = Match("chengdu", seed=77, hands=3)
    assert m.hands == 3 and m.hands_played == 0 and not m.is_over and m.next_dealer is None
    with pytest.raises(IllegalActionError, match="still in play"):
        m.next_hand()
    seeds = []
    for hand in range(3):
        game = m.game
        seeds.append(game.seed)
        finish(game, rng)  # the Game the match hands out is the live hand
        assert m.hands_played == hand + 1
        if hand < 2:
            nxt = m.next_dealer
            assert nxt == game.next_dealer
            m.next_hand()
            assert m.game.dealer == nxt
            assert game.is_over, "a Game held from before keeps its finished hand"
    assert m.is_over and m.next_dealer is None
    with pytest.raises(IllegalActionError, match="match is over"):
        m.next_hand()
    assert len(set(seeds)) == 3
    assert Match("chengdu", seed=77, hands=3).game.seed == seeds[0]
    assert len(m.results) == 3 and len(m.dealers) == 3
    assert m.totals == [sum(r[i] for r in m.results) for i in range(4)]
    log = m.log()
    assert log["type"] == "match" and len(log["games"]) == 3
    again = Match.from_log(log)
    assert again.to_json() == m.to_json() and again.totals == m.totals
    assert Match.from_log(json.dumps(log)).dealers == m.dealers


def test_the_same_match_seed_and_actions_give_the_same_match():
    def play(seed):
        rng, m = random.Random(9), Match("xuezhan", seed=seed, hands=2)
        finish(m.game, rng)
        m.next_hand()
        finish(m.game, rng)
        return m.to_json()

    assert play(3) == play(3) and play(3) != play(4)


def test_a_match_snapshot_restores_mid_hand_exactly_and_rejects_edits():
    rng = random.Random(2)
    m = Match("chengdu_xueliu", seed=8, hands=4)
    finish(m.game, rng)
    m.next_hand()
    for _ in range(25):
        s = m.game.to_act()[0]
        m.game.act(s, rng.choice(m.game.legal_actions(s)))
    snap = m.to_json()
    back = Match.from_json(snap)
    assert back.to_json() == snap and back.dealers == m.dealers and back.totals == m.totals
    with pytest.raises(SnapshotError, match="seed"):
        Match.from_json(snap.replace('"seed": 8', '"seed": 9', 1))
    with pytest.raises(SnapshotError):
        Match.from_json("{}")
    with pytest.raises(ArgumentError, match="1 to"):
        Match("chengdu", hands=0)


def test_abandon_ends_a_matchs_hand_and_the_match_goes_on():
    m = Match("yaoji", seed=1, hands=2)
    dealer = m.game.dealer
    m.game.abandon(0)
    assert m.hands_played == 1 and m.results == [m.game.scores]
    assert m.next_dealer == dealer  # first_winner, nobody won: 荒庄不下庄
    m.next_hand()
    assert m.dealers == [dealer, dealer]
    assert Match.from_log(m.log()).to_json() == m.to_json()


# --- sessions (盘): a time limit and placement points (MIL SBR 2025 Art.4-5, 4-6, 5-3) ---------


@pytest.mark.parametrize("make", [Match, Reference], ids=["engine", "reference"])
def test_calling_time_makes_the_hand_in_play_the_last(make):
    m = make(xueliu.Rules.preset("mil_sbr_2025").to_dict(), seed=3, hands=8)
    assert m.placement_points is None and not m.time_called
    m.call_time()  # Art.5-3 「打完当副牌后本盘比赛结束」: the hand in play is still played
    assert not m.is_over
    m.game.abandon(0)
    assert m.is_over and m.hands_played == 1
    with pytest.raises((xueliu.IllegalActionError, ReferenceIllegal), match="time was called"):
        m.next_hand()


@pytest.mark.parametrize("make", [Match, Reference], ids=["engine", "reference"])
def test_placement_points_split_between_tied_seats(make):
    # Art.4-6 「第一名至第四名分别获得 4、3、2、1 的盘分，名次相同则平分对应盘分」. Hand 1: seat 0 leaves
    # (逃跑, 96 to each other seat); hand 2: seat 1 leaves. Totals -192, -192, 192, 192: seats 2
    # and 3 share 4 + 3, seats 0 and 1 share 2 + 1.
    m = make(xueliu.Rules.preset("mil_sbr_2025").to_dict(), seed=5, hands=2)
    m.game.abandon(0)
    m.next_hand()
    assert m.placement_points is None
    m.game.abandon(1)
    assert m.totals == [-192, -192, 192, 192]
    assert m.placement_points == [1.5, 1.5, 3.5, 3.5]


@pytest.mark.parametrize("make", [Match, Reference], ids=["engine", "reference"])
def test_three_tied_seats_share_three_places(make):
    # One hand, seat 2 leaves: the others are tied first with +96 and share 4 + 3 + 2.
    m = make(xueliu.Rules.preset("chengdu").to_dict(), seed=1, hands=1, placement=(5, 3, 1, 0))
    m.game.abandon(2)
    assert m.placement_points == [3.0, 3.0, 0.0, 3.0]


def test_placement_and_time_called_survive_the_log_and_the_snapshot():
    m = Match(xueliu.Rules.preset("mil_sbr_2025"), seed=9, hands=4, placement=(6, 4, 2, 0))
    m.call_time()
    m.game.abandon(3)
    log = m.log()
    assert (log["placement"], log["time_called"]) == ([6, 4, 2, 0], True)
    for again in (Match.from_log(log), Match.from_json(m.to_json())):
        assert again.is_over and again.placement == [6, 4, 2, 0]
        assert again.placement_points == m.placement_points
    old = dict(log)
    del old["placement"], old["time_called"]  # a log written before sessions
    assert Match.from_log(old).placement == [4, 3, 2, 1] and not Match.from_log(old).time_called


def test_placement_points_are_checked():
    with pytest.raises(TypeError, match="placement"):
        Match("chengdu", placement=(4, 3, 2))
