"""Exchange three (换三张, RULES.md §4): picks, every direction option, the die's table, the
default pick, seed 000's redeal, and that nobody wins before it is over."""

from collections import Counter
from itertools import combinations_with_replacement

import pytest
from positions import REDEAL_HANDS, exchange_phase
from splitmix import SORTED_WALL, SplitMix64

from xueliu import Action, Game, IllegalActionError

RECEIVE_FROM = {"counterclockwise": 3, "clockwise": 1, "opposite": 2}  # steps to the giver


def hands(game):
    return [Counter(str(t) for t in game.hand(s)) for s in range(4)]


def pick_all(game, picks=None):
    picks = picks or {s: game.default_action(s) for s in range(4)}
    for s, a in picks.items():
        game.act(s, a)
    return picks


def test_legal_picks_are_every_three_of_one_suit():
    game = Game({"preset": "dashiyou"}, seed=3)
    for s in range(4):
        held = Counter(str(t) for t in game.hand(s))
        expected = set()
        for combo in combinations_with_replacement(sorted(held), 3):
            if len({t[1] for t in combo}) == 1 and all(Counter(combo)[t] <= held[t] for t in combo):
                expected.add(str(Action.exchange(list(combo))))
        assert {str(a) for a in game.legal_actions(s)} == expected


def test_without_exchange_same_suit_any_three_tiles_may_go():
    game = Game({"preset": "dashiyou", "exchange_same_suit": False}, seed=3)
    mixed = [a for a in game.legal_actions(0) if len({t.suit for t in a.tiles}) > 1]
    assert mixed


@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise", "opposite"])
def test_fixed_directions_move_each_pick_to_the_right_seat(direction):
    game = Game({"preset": "chengdu", "exchange": direction}, seed=11)
    before = hands(game)
    picks = pick_all(game)
    event = next(e for e in game.events if e["type"] == "exchange")
    assert event["direction"] == direction
    giver = RECEIVE_FROM[direction]
    for s in range(4):
        given = [str(t) for t in picks[s].tiles]
        received = [str(t) for t in picks[(s + giver) % 4].tiles]
        assert event["given"][s] == given and event["received"][s] == received
        assert hands(game)[s] == before[s] - Counter(given) + Counter(received)
    assert game.phase == "void"


def test_dice_direction_follows_seed_000s_table():
    table = {1: "opposite", 3: "opposite", 5: "opposite", 2: "clockwise", 6: "clockwise", 4: "counterclockwise"}
    seen = set()
    for seed in range(40):
        rng = SplitMix64(seed)
        rng.shuffle(list(SORTED_WALL))
        rng.die()  # the wall break
        roll = rng.die()
        game = Game({"preset": "dashiyou", "exchange_redeal_if_unchanged": False}, seed=seed)
        pick_all(game)
        dice = [e for e in game.events if e["type"] == "dice"]
        assert dice[-1] == {"type": "dice", "purpose": "exchange", "seat": 0, "rolls": [roll]}
        assert next(e for e in game.events if e["type"] == "exchange")["direction"] == table[roll]
        seen.add(roll)
    assert seen == set(range(1, 7))


def test_random_direction_is_below_3():
    names = ["counterclockwise", "clockwise", "opposite"]
    for seed in range(12):
        rng = SplitMix64(seed)
        rng.shuffle(list(SORTED_WALL))
        rng.die()
        expected = names[rng.below(3)]
        game = Game({"preset": "dashiyou", "exchange": "random", "exchange_redeal_if_unchanged": False}, seed=seed)
        pick_all(game)
        assert next(e for e in game.events if e["type"] == "exchange")["direction"] == expected
        assert not [e for e in game.events if e.get("purpose") == "exchange"]


def test_default_pick_is_the_shortest_suit_with_three_and_its_lowest_tiles():
    game = exchange_phase(hands=["12345m456p123789s", "1112345678999m", "22345678m234p55s", "456m789p1234567s"])
    # m 5, p 3, s 6: p is the shortest suit with three.
    assert str(game.default_action(0)) == "exchange 456p"
    # Only m has three: its three lowest.
    assert str(game.default_action(1)) == "exchange 111m"
    # m 8, p 3, s 2 (too few): p.
    assert str(game.default_action(2)) == "exchange 234p"
    # m 3, p 3, s 7: the tie goes to m.
    assert str(game.default_action(3)) == "exchange 456m"


def test_picks_are_hidden_and_simultaneous_so_order_does_not_matter():
    a = Game({"preset": "chengdu", "exchange": "opposite"}, seed=5)
    b = a.clone()
    picks = {s: a.default_action(s) for s in range(4)}
    before = a.hand(2)
    a.act(2, picks[2])
    assert a.hand(2) == before and a.to_act() == [0, 1, 3] and a.legal_actions(2) == []
    with pytest.raises(IllegalActionError):
        a.act(2, picks[2])
    for s in (0, 3, 1):
        a.act(s, picks[s])
    for s in (3, 1, 0, 2):
        b.act(s, picks[s])
    assert a.to_json() == b.to_json()


def test_seed_000_redeals_when_every_seat_gets_back_what_it_gave():
    game = exchange_phase(hands=REDEAL_HANDS, exchange="opposite")
    for s in range(4):
        game.act(s, Action.exchange("123m"))
    kinds = [e["type"] for e in game.events]
    assert kinds == ["exchange", "redeal", "dice", "deal", "deal", "deal", "deal"]
    assert game.phase == "exchange" and game.to_act() == [0, 1, 2, 3]
    assert sum(len(game.hand(s)) for s in range(4)) == 53 and game.wall_remaining == 55


def test_no_redeal_without_the_option():
    game = exchange_phase(hands=REDEAL_HANDS, exchange="opposite", exchange_redeal_if_unchanged=False)
    for s in range(4):
        game.act(s, Action.exchange("123m"))
    assert [e["type"] for e in game.events] == ["exchange"] and game.phase == "void"


def test_nobody_wins_before_the_exchange_is_over():
    # The dealer's fourteen are complete, but the exchange comes first.
    game = exchange_phase(hands=["123m456m789m123p55p", "123456789p1234s", "123456789s1234p", "19m6677889p5566s"])
    assert all(a.kind == "exchange" for a in game.legal_actions(0))
    with pytest.raises(IllegalActionError):
        game.act(0, Action.win())
