"""Above one hand (RULES.md §2): a given dealer, the next dealer, 逃跑 (abandon) and a Match of
several hands: dealers, derived seeds, results and totals, snapshots and the match log."""

import json
import random

import pytest

import xueliu
from xueliu import ArgumentError, Game, IllegalActionError, Match, SnapshotError


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
