"""Deal and dice (RULES.md §2–§3; docs/game-protocol.md §1): the dealer, the shuffle, the wall
die and the deal, reproduced from the documented generator."""

import pytest
from splitmix import SORTED_WALL, SplitMix64

from xueliu import Game


def deal_events(game):
    return [e for e in game.events if e["type"] == "deal"]


def expected_deal(rng: SplitMix64, dealer: int):
    wall = list(SORTED_WALL)
    rng.shuffle(wall)
    wall_die = rng.die()
    hands = {}
    at = 0
    for i in range(4):
        seat = (dealer + i) % 4
        hands[seat] = wall[at : at + 13]
        at += 13
    hands[dealer].append(wall[at])
    return hands, wall_die


def sort_tiles(tiles):
    return sorted(tiles, key=lambda t: ("mps".index(t[1]), t[0]))


@pytest.mark.parametrize("seed", [0, 1, 7, 2**64 - 1])
def test_first_dealer_east_deals_from_seat_0_and_the_wall_follows_the_generator(seed):
    game = Game({"preset": "dashiyou", "exchange": None}, seed=seed)
    hands, wall_die = expected_deal(SplitMix64(seed), 0)
    assert game.dealer == 0
    assert [e for e in game.events if e["type"] == "dice"] == [
        {"type": "dice", "purpose": "wall", "seat": 0, "rolls": [wall_die]}
    ]
    assert [e["seat"] for e in deal_events(game)] == [0, 1, 2, 3]
    for e in deal_events(game):
        assert e["tiles"] == sort_tiles(hands[e["seat"]])
    assert game.wall_remaining == 55
    assert [len(game.hand(s)) for s in range(4)] == [14, 13, 13, 13]


@pytest.mark.parametrize("seed", range(6))
def test_first_dealer_random_uses_below_4_then_deals_in_turn_order_from_the_dealer(seed):
    rng = SplitMix64(seed)
    dealer = rng.below(4)
    hands, _ = expected_deal(rng, dealer)
    game = Game("chengdu", seed=seed)
    assert game.dealer == dealer
    assert game.events[0] == {"type": "start", "seed": seed, "rules": game.events[0]["rules"], "dealer": dealer}
    assert [e["seat"] for e in deal_events(game)] == [(dealer + i) % 4 for i in range(4)]
    assert {e["seat"]: e["tiles"] for e in deal_events(game)} == {s: sort_tiles(h) for s, h in hands.items()}
    assert len(game.hand(dealer)) == 14


def test_first_dealer_dice_highest_total_deals_and_ties_roll_again():
    seen_reroll = False
    for seed in range(200):
        rng = SplitMix64(seed)
        rolls = {s: [] for s in range(4)}
        rolling = [0, 1, 2, 3]
        while True:
            totals = {}
            for s in rolling:
                a, b = rng.die(), rng.die()
                rolls[s] += [a, b]
                totals[s] = a + b
            best = max(totals.values())
            rolling = [s for s in rolling if totals[s] == best]
            if len(rolling) == 1:
                break
            seen_reroll = True
        game = Game("xuezhan", seed=seed)
        dice = game.events[1]
        assert dice == {"type": "dice", "purpose": "dealer", "seat": None, "rolls": [rolls[s] for s in range(4)]}
        assert game.dealer == rolling[0]
    assert seen_reroll


def test_same_seed_same_game_and_different_seeds_differ():
    a, b = Game("chengdu", seed=42), Game("chengdu", seed=42)
    assert a.to_json() == b.to_json()
    assert Game("chengdu", seed=43).to_json() != a.to_json()


@pytest.mark.parametrize("seed", [-1, 2**64, "7", 1.5])
def test_a_seed_outside_64_bits_is_refused(seed):
    import xueliu

    with pytest.raises(xueliu.ArgumentError, match="seed must be an int"):
        Game("chengdu", seed=seed)


def test_two_dice_only_break_the_wall():
    # N17: a log may hold two dice for the wall's break only; two on the exchange die are refused
    # by name, and two in a one-die room are not what a replay throws.
    from xueliu import SnapshotError

    game = Game("xuezhan", seed=3)
    for s in range(4):
        game.act(s, game.default_action(s))
    events = game.events
    (exchange,) = [i for i, e in enumerate(events) if e["type"] == "dice" and e["purpose"] == "exchange"]
    (wall,) = [i for i, e in enumerate(events) if e["type"] == "dice" and e["purpose"] == "wall"]
    two = [dict(e, rolls=[3, 4]) if i == exchange else e for i, e in enumerate(events)]
    with pytest.raises(SnapshotError, match=rf"events\[{exchange}\]\.rolls: one die"):
        Game.from_events(two)
    two = [dict(e, rolls=[3, 4]) if i == wall else e for i, e in enumerate(events)]
    with pytest.raises(SnapshotError, match="writes a different log"):
        Game.from_events(two)
