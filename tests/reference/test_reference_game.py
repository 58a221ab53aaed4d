"""Tests of the reference game (xueliu.reference.game) against docs/game-protocol.md and RULES.md.

Every expected value below is worked out by hand from the documents (the comment says how), never
pasted from the module's output. Positions are built with ``Game.from_position`` (test-only): the
dealer is seat 0 and starts its first turn with 14 tiles unless ``first_draw`` names a seat that
draws first; the wall is written front first.
"""

from __future__ import annotations

import collections
import itertools
import json
import random

import pytest
from reference_positions import discard, kong, payments, play_checked, since
from reference_positions import reference_position as position

from xueliu.reference.game import SUITS, Game, IllegalActionError
from xueliu.reference.hand import is_win
from xueliu.reference.presets import PRESETS, get_preset
from xueliu.reference.rng import SplitMix64
from xueliu.reference.tiles import parse_tiles, tile_name

PLAYABLE = [name for name, rules in PRESETS.items() if not rules["wilds"]]


# --- helpers -------------------------------------------------------------------------------------


def of_type(events, *types):
    return [e for e in events if e["type"] in types]


WIN, PASS, PONG = {"kind": "win"}, {"kind": "pass"}, {"kind": "pong"}


def kinds(actions):
    return sorted({a["kind"] for a in actions})


def discards_of(actions):
    return [a["tile"] for a in actions if a["kind"] == "discard"]


def play_defaults_until(game, seat):
    """Play every seat's default action until ``seat`` is the only one to act (its turn)."""
    while game.to_act() != [seat]:
        assert not game.is_over
        s = game.to_act()[0]
        game.act(s, game.default_action(s))


def names_sorted(tiles):
    return [tile_name(t) for t in sorted(tiles)]


# --- 1. randomness (P§1) ---------------------------------------------------------------------------


def test_splitmix64_published_values():
    # rng.rs's test: SplitMix64 seeded with 1234567 (Vigna's splitmix64.c).
    rng = SplitMix64(1234567)
    assert [rng.next_u64() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]


def test_below_die_shuffle_match_rng_rs():
    # Values printed by rust/xueliu-core/src/rng.rs itself, compiled standalone (the spec of P§1):
    # seed 42: below(7) x5, die() x5, then shuffle(0..108); seed 2^64-1: next_u64, below(3).
    rng = SplitMix64(42)
    assert [rng.below(7) for _ in range(5)] == [5, 1, 1, 2, 0]
    assert [rng.die() for _ in range(5)] == [6, 2, 5, 3, 4]
    items = list(range(108))
    rng.shuffle(items)
    assert items[:12] == [99, 3, 81, 38, 32, 88, 13, 30, 48, 11, 18, 72]
    assert items[-6:] == [20, 69, 105, 54, 52, 22]
    assert sorted(items) == list(range(108))
    top = SplitMix64(2**64 - 1)
    assert (top.next_u64(), top.below(3)) == (16490336266968443936, 2)


def test_below_is_uniform_enough_and_in_range():
    rng = SplitMix64(7)
    seen = collections.Counter(rng.below(6) for _ in range(6000))
    assert set(seen) == set(range(6)) and min(seen.values()) > 850


def emulate_deal(rng, dealer):
    """P§1.2-4 done independently: shuffle the index-ordered wall, roll the wall die, deal 13 each
    from the front starting with the dealer, then one more to the dealer."""
    wall = [t for t in range(27) for _ in range(4)]
    rng.shuffle(wall)
    wall_die = rng.die()
    hands = {}
    for k in range(4):
        seat = (dealer + k) % 4
        hands[seat] = wall[13 * k : 13 * k + 13]
    hands[dealer] = hands[dealer] + [wall[52]]
    return hands, wall[53:], wall_die


@pytest.mark.parametrize("seed", [0, 1, 2024, 2**63 + 5])
def test_deal_follows_the_randomness_order(seed):
    # chengdu: first_dealer random (below(4)), no exchange, declare_void.
    game = Game("chengdu", seed)
    rng = SplitMix64(seed)
    dealer = rng.below(4)
    hands, wall, wall_die = emulate_deal(rng, dealer)
    assert game.dealer == dealer
    assert game.wall == wall and game.wall_remaining == 55
    types = [e["type"] for e in game.events]
    assert types == ["start", "dice", "deal", "deal", "deal", "deal"]
    start = game.events[0]
    assert list(start) == ["type", "seed", "rules", "dealer"]
    assert start["seed"] == seed and start["dealer"] == dealer and start["rules"] == PRESETS["chengdu"]
    assert game.events[1] == {"type": "dice", "purpose": "wall", "seat": dealer, "rolls": [wall_die]}
    # deal events in dealing order, the dealer's with 14 tiles
    for k, event in enumerate(game.events[2:]):
        seat = (dealer + k) % 4
        assert event == {"type": "deal", "seat": seat, "tiles": names_sorted(hands[seat])}
        assert game.hand(seat) == names_sorted(hands[seat])
    assert game.phase == "void" and game.to_act() == [0, 1, 2, 3]


@pytest.mark.parametrize("seed", [0, 7, 2024])
def test_two_wall_break_dice_follow_the_shuffle(seed):
    # N17 (MIL Art.5-8): under wall_break_dice = 2 a second die follows the first, after the
    # shuffle, so the wall and the hands are the one-die deal's.
    game = Game(dict(PRESETS["chengdu"], wall_break_dice=2), seed)
    rng = SplitMix64(seed)
    dealer = rng.below(4)
    hands, wall, wall_die = emulate_deal(rng, dealer)
    assert game.events[1] == {"type": "dice", "purpose": "wall", "seat": dealer, "rolls": [wall_die, rng.die()]}
    assert game.wall == wall and all(game.hand(s) == names_sorted(hands[s]) for s in range(4))


def test_east_dealer_draws_nothing_for_the_dealer():
    game = Game("dashiyou", 99)  # first_dealer east
    rng = SplitMix64(99)
    hands, wall, wall_die = emulate_deal(rng, 0)
    assert game.dealer == 0 and game.wall == wall
    assert [e["type"] for e in game.events[:2]] == ["start", "dice"]
    assert game.events[1]["purpose"] == "wall"


def emulate_dice_dealer(rng):
    rolls = [[], [], [], []]
    contenders = [0, 1, 2, 3]
    while True:
        totals = {}
        for seat in contenders:
            a, b = rng.die(), rng.die()
            rolls[seat] += [a, b]
            totals[seat] = a + b
        best = max(totals.values())
        contenders = [s for s in contenders if totals[s] == best]
        if len(contenders) == 1:
            return contenders[0], rolls


def test_dice_dealer_with_ties_rolls_again():
    # xuezhan: first_dealer dice. Find seeds whose first round ties at the top (emulated).
    tied = 0
    for seed in range(60):
        rng = SplitMix64(seed)
        dealer, rolls = emulate_dice_dealer(rng)
        game = Game("xuezhan", seed)
        assert game.dealer == dealer
        assert game.events[1] == {"type": "dice", "purpose": "dealer", "seat": None, "rolls": rolls}
        assert game.events[2]["purpose"] == "wall"
        tied += any(len(r) > 2 for r in rolls)
        hands, wall, _ = emulate_deal(rng, dealer)
        assert game.wall == wall
    assert tied > 0  # the tie-break path was exercised


# --- 2. exchange (R§4, P§1.5-6) --------------------------------------------------------------------


def same_suit_triples(hand):
    tiles = sorted(parse_tiles("".join(hand)))
    found = set()
    for suit in range(3):
        found.update(itertools.combinations([t for t in tiles if t // 9 == suit], 3))
    return sorted([tile_name(t) for t in triple] for triple in found)


def test_exchange_offers_every_same_suit_triple():
    game = Game("chengdu_xueliu", 5)
    assert game.phase == "exchange" and game.to_act() == [0, 1, 2, 3]
    for seat in range(4):
        offered = sorted(a["tiles"] for a in game.legal_actions(seat))
        assert offered == same_suit_triples(game.hand(seat))
        assert all(a["kind"] == "exchange" for a in game.legal_actions(seat))


def test_exchange_any_three_when_not_same_suit():
    game = Game(get_preset("chengdu_xueliu", exchange_same_suit=False), 5)
    hand = sorted(parse_tiles("".join(game.hand(0))))
    expected = sorted({tuple(tile_name(t) for t in c) for c in itertools.combinations(hand, 3)})
    assert sorted(tuple(a["tiles"]) for a in game.legal_actions(0)) == expected


@pytest.mark.parametrize("direction,offset", [("counterclockwise", 3), ("clockwise", 1), ("opposite", 2)])
def test_exchange_directions(direction, offset):
    # counterclockwise: give to 下家 (i+1), so receive from i+3; clockwise: receive from i+1.
    game = Game(get_preset("chengdu_xueliu", exchange=direction), 11)
    before = [game.hand(s) for s in range(4)]
    picks = [game.default_action(s)["tiles"] for s in range(4)]
    for seat in (3, 1, 0, 2):  # any order: decisions are hidden until the last one
        game.act(seat, {"kind": "exchange", "tiles": picks[seat]})
    event = of_type(game.events, "exchange")[0]
    assert list(event) == ["type", "direction", "given", "received"]
    assert event["direction"] == direction and event["given"] == picks
    for seat in range(4):
        got = picks[(seat + offset) % 4]
        assert event["received"][seat] == got
        hand = collections.Counter(before[seat])
        hand.subtract(picks[seat])
        hand.update(got)
        assert game.hand(seat) == sorted(hand.elements(), key=lambda t: parse_tiles(t)[0])
    assert not of_type(game.events, "dice")[1:]  # no exchange die for a fixed direction
    assert game.phase == "void"


def test_exchange_die_is_drawn_after_the_picks():
    # chengdu_xueliu: dealer below(4), shuffle, wall die, then (after picks) the exchange die.
    # seed 000's table as "receive from": 1, 3, 5 opposite; 2, 6 下家 (clockwise); 4 上家.
    table = {1: "opposite", 3: "opposite", 5: "opposite", 2: "clockwise", 6: "clockwise", 4: "counterclockwise"}
    seen = set()
    for seed in range(40):
        rng = SplitMix64(seed)
        dealer = rng.below(4)
        emulate_deal(rng, dealer)
        roll = rng.die()
        game = Game("chengdu_xueliu", seed)
        for seat in range(4):
            game.act(seat, game.default_action(seat))
        dice = of_type(game.events, "dice")
        assert dice[-1] == {"type": "dice", "purpose": "exchange", "seat": dealer, "rolls": [roll]}
        assert of_type(game.events, "exchange")[0]["direction"] == table[roll]
        seen.add(roll)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_exchange_random_direction_uses_below_3():
    for seed in range(10):
        rng = SplitMix64(seed)
        dealer = rng.below(4)
        emulate_deal(rng, dealer)
        expected = ["counterclockwise", "clockwise", "opposite"][rng.below(3)]
        game = Game(get_preset("chengdu_xueliu", exchange="random"), seed)
        for seat in range(4):
            game.act(seat, game.default_action(seat))
        assert of_type(game.events, "exchange")[0]["direction"] == expected


def common_triple(hand_a, hand_b):
    a, b = collections.Counter(hand_a), collections.Counter(hand_b)
    common = sorted((a & b).elements(), key=lambda t: parse_tiles(t)[0])
    for suit in SUITS:
        same = [t for t in common if t[1] == suit]
        if len(same) >= 3:
            return same[:3]
    return None


def test_redeal_when_every_seat_gets_back_what_it_gave():
    # opposite + redeal: seats 0/2 and 1/3 give each other identical tiles -> redeal (seed 000).
    rules = get_preset("dashiyou", exchange="opposite")
    for seed in range(300):
        game = Game(rules, seed)
        pair02 = common_triple(game.hand(0), game.hand(2))
        pair13 = common_triple(game.hand(1), game.hand(3))
        if pair02 and pair13:
            break
    else:
        pytest.fail("no seed with a redeal-able deal")
    mark = len(game.events)
    for seat, pick in ((0, pair02), (2, pair02), (1, pair13), (3, pair13)):
        game.act(seat, {"kind": "exchange", "tiles": pick})
    new = since(game, mark)
    assert [e["type"] for e in new] == ["exchange", "redeal", "dice", "deal", "deal", "deal", "deal"]
    assert new[1] == {"type": "redeal"}
    # the new deal continues the same generator: east dealer, first shuffle, its die, second shuffle
    rng = SplitMix64(seed)
    emulate_deal(rng, 0)
    hands, wall, wall_die = emulate_deal(rng, 0)
    assert new[2]["rolls"] == [wall_die] and game.wall == wall
    assert all(game.hand(s) == names_sorted(hands[s]) for s in range(4))
    assert game.phase == "exchange" and game.to_act() == [0, 1, 2, 3]


def test_no_redeal_without_the_option():
    rules = get_preset("sanxia", exchange="opposite")  # redeal false
    for seed in range(300):
        game = Game(rules, seed)
        p02, p13 = common_triple(game.hand(0), game.hand(2)), common_triple(game.hand(1), game.hand(3))
        if p02 and p13:
            break
    for seat, pick in ((0, p02), (2, p02), (1, p13), (3, p13)):
        game.act(seat, {"kind": "exchange", "tiles": pick})
    assert not of_type(game.events, "redeal") and game.phase == "void"


def test_default_exchange_pick():
    # R§4: among suits with >= 3 tiles the one with the fewest; ties m, p, s; the three lowest.
    for seed in range(20):
        game = Game("chengdu_xueliu", seed)
        for seat in range(4):
            hand = game.hand(seat)
            counts = {s: sum(t[1] == s for t in hand) for s in SUITS}
            suit = min((s for s in SUITS if counts[s] >= 3), key=lambda s: (counts[s], SUITS.index(s)))
            assert game.default_action(seat) == {"kind": "exchange", "tiles": [t for t in hand if t[1] == suit][:3]}


# --- 3. void (R§5) ---------------------------------------------------------------------------------


def test_void_declarations_are_simultaneous_and_logged_in_seat_order():
    game = Game("chengdu", 3)
    for seat in range(4):
        assert game.legal_actions(seat) == [{"kind": "void", "suit": s} for s in "mps"]
        hand = game.hand(seat)
        counts = [sum(t[1] == s for t in hand) for s in SUITS]
        assert game.default_action(seat) == {"kind": "void", "suit": SUITS[min(range(3), key=lambda s: (counts[s], s))]}
    mark = len(game.events)
    for seat, suit in ((2, "s"), (0, "m"), (3, "p")):
        game.act(seat, {"kind": "void", "suit": suit})
        assert since(game, mark) == []  # hidden until the last one
        assert seat not in game.to_act() and game.legal_actions(seat) == []
    game.act(1, {"kind": "void", "suit": "m"})
    assert since(game, mark)[:4] == [
        {"type": "void", "seat": 0, "suit": "m"},
        {"type": "void", "seat": 1, "suit": "m"},
        {"type": "void", "seat": 2, "suit": "s"},
        {"type": "void", "seat": 3, "suit": "p"},
    ]
    assert game.phase == "play" and game.to_act() == [game.dealer]
    assert [game.void(s) for s in range(4)] == ["m", "m", "s", "p"]


def test_void_tiles_must_go_first_and_cannot_be_claimed():
    # seat 0 (void s) holds 9s only from s: its only legal discard is 9s.
    hands = ["123456789m1234p9s", "113355779p2499s", "2244668p345678s", "4455667788m999p"]
    game = position("chengdu", hands, "3m9m1s", voids=["s", "p", "m", "s"])
    assert game.legal_actions(0) == [discard("9s")]
    with pytest.raises(IllegalActionError):
        game.act(0, discard("1m"))
    game.act(0, discard("9s"))
    # seat 1 holds 99s but s is not its void here... it is p: it may pong 9s; with void s it may not.
    assert game.to_act() == [1] and game.legal_actions(1) == [PONG, PASS]
    game2 = position("chengdu", hands, "3m9m1s", voids=["s", "s", "m", "s"])
    game2.act(0, discard("9s"))
    assert game2.to_act() == [1]  # seat 1 (void s) is not asked; it draws 3m as the next seat
    assert game2.events[-1] == {"type": "draw", "seat": 1, "tile": "3m", "replacement": False}


def test_no_win_while_holding_a_void_tile():
    # seat 1 waits on 3p/6p but holds 9s and declared s void: a 6p discard is not a win for it.
    hands = ["123456789m6p1239s", "123m456m78p11p45p9s", "1199m2288s3377s5s", "4455m99p8p1s44s66s9s"]
    game = position("chengdu", hands, "7m7m7m", voids=["p", "s", "p", "p"])
    game.act(0, discard("6p"))
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "7m", "replacement": False}  # not asked


# --- 4. turns, pongs, draws (P§2, P§3) ---------------------------------------------------------


PONG_HANDS = ["123456789m1234p9s", "113355779p2499s", "2244668p345678s", "4455667788m999p"]


def test_pong_then_only_a_discard_and_the_next_seat_draws():
    game = position("chengdu", PONG_HANDS, "3m9m1s", voids=["s", "m", "m", "s"])
    game.act(0, discard("9s"))
    assert game.to_act() == [1] and game.legal_actions(1) == [PONG, PASS]
    game.act(1, PONG)
    assert game.events[-1] == {"type": "pong", "seat": 1, "tile": "9s", "from": 0}
    assert game.discards(0) == [] and game.melds(1)[0]["kind"] == "pong"
    # after a pong only discards (P§2 (c)); seat 1 holds 113355779p24s
    assert game.legal_actions(1) == [discard(t) for t in ["1p", "3p", "5p", "7p", "9p", "2s", "4s"]]
    assert game.default_action(1) == discard("4s")  # no tile just drawn: the highest-index tile
    game.act(1, discard("2s"))
    # nobody can claim 2s: the seat after the ponger draws the front of the wall
    assert game.events[-2:] == [
        {"type": "discard", "seat": 1, "tile": "2s"},
        {"type": "draw", "seat": 2, "tile": "3m", "replacement": False},
    ]
    assert game.wall_remaining == 2 and game.to_act() == [2]


def test_pass_on_a_pong_and_log_order():
    game = position("chengdu", PONG_HANDS, "3m9m1s", voids=["s", "m", "m", "s"])
    game.act(0, discard("9s"))
    game.act(1, PASS)
    assert game.events[-2:] == [
        {"type": "pass", "seat": 1, "on": "discard", "could": ["pong"]},
        {"type": "draw", "seat": 1, "tile": "3m", "replacement": False},
    ]


def test_dealer_first_turn_has_no_draw_and_next_seat_draws():
    game = position("chengdu", PONG_HANDS, "3m9m1s", voids=["s", "p", "m", "s"])
    assert game.to_act() == [0] and game.wall_remaining == 3
    assert len(game.hand(0)) == 14
    game.act(0, discard("9s"))
    game.act(1, PASS)
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "3m", "replacement": False}
    assert len(game.hand(1)) == 14 and game.wall_remaining == 2


# --- 5. kongs (R§6, P§8 kong payments) ----------------------------------------------------------


DIRECT_HANDS = ["123456789m1234p9s", "113355779p2s999s", "2244668p345678s", "4455667788m999p"]


def test_direct_kong_pays_and_draws_a_replacement():
    # chengdu: base 6, direct kong 2 x base = 12 from the discarder (刮风).
    hands = ["123456789m1234p9s", "113355778p2s999s", "2244668p345678s", "4455667788m999p"]
    game = position("chengdu", hands, "5m1s2s", voids=["s", "m", "m", "s"])
    game.act(0, discard("9s"))
    assert game.legal_actions(1) == [kong("9s"), PONG, PASS]
    mark = len(game.events)
    game.act(1, kong("9s"))
    assert since(game, mark) == [
        {"type": "kong", "seat": 1, "tile": "9s", "kind": "direct", "from": 0, "late": False},
        {"type": "payment", "payer": 0, "payee": 1, "amount": 12, "reason": "kong"},
        {"type": "draw", "seat": 1, "tile": "5m", "replacement": True},
    ]
    assert game.scores == [-12, 12, 0, 0]
    assert game.legal_actions(1) == [discard("5m")]  # void m drawn: it must go


def test_kong_from_the_back_of_the_wall():
    hands = ["123456789m1234p9s", "113355778p2s999s", "2244668p345678s", "4455667788m999p"]
    game = position("chengdu", hands, "5m1s2s", voids=["s", "m", "m", "s"], kong_draw_from="back")
    game.act(0, discard("9s"))
    game.act(1, kong("9s"))
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "2s", "replacement": True}
    assert game.wall == parse_tiles("5m1s")


ADDED = dict(
    hands=["123456789m123p9s", "1122m7788p34p", "2244668p345678s", "4455667788m999p"],
    melds=[[], ["555p"], [], []],
)


def test_added_kong_paid_by_each_seat_not_won():
    # xuezhan: base 1; an added kong 1 x base from each other seat that has not won (刮风).
    game = position(
        "xuezhan", ADDED["hands"], "5p1s2s3s4s6s", voids=["s", "s", "m", "s"], melds=ADDED["melds"], first_draw=1
    )
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "5p", "replacement": False}
    assert kong("5p") in game.legal_actions(1)
    mark = len(game.events)
    game.act(1, kong("5p"))
    assert since(game, mark) == [
        {"type": "kong", "seat": 1, "tile": "5p", "kind": "added", "from": None, "late": False},
        {"type": "payment", "payer": 0, "payee": 1, "amount": 1, "reason": "kong"},
        {"type": "payment", "payer": 2, "payee": 1, "amount": 1, "reason": "kong"},
        {"type": "payment", "payer": 3, "payee": 1, "amount": 1, "reason": "kong"},
        {"type": "draw", "seat": 1, "tile": "1s", "replacement": True},
    ]
    assert game.melds(1) == [{"kind": "kong", "tile": "5p", "from": 0, "kong": "added", "late": False}]


def test_concealed_kong_paid_twice_by_each_seat_not_won():
    hands = ["123456789m123p9s", "555p1122m7788p34p", "2244668p345678s", "4455667788m999p"]
    game = position("xuezhan", hands, "5p1s2s3s4s6s", voids=["s", "s", "m", "s"], first_draw=1)
    game.act(1, kong("5p"))
    assert payments(game.events) == [(0, 1, 2, "kong"), (2, 1, 2, "kong"), (3, 1, 2, "kong")]
    assert game.melds(1) == [{"kind": "kong", "tile": "5p", "from": None, "kong": "concealed", "late": False}]
    assert game.hand(1) == ["1m", "1m", "2m", "2m", "3p", "4p", "7p", "7p", "8p", "8p", "1s"]


def test_no_kong_of_the_void_suit_and_none_from_an_empty_wall():
    hands = ["123456789m123p9s", "555p1122m7788p34p", "2244668p345678s", "4455667788m999p"]
    game = position("xuezhan", hands, "5p1s2s3s4s6s", voids=["s", "p", "m", "s"], first_draw=1)
    assert kong("5p") not in game.legal_actions(1)
    game = position("xuezhan", hands, "5p", voids=["s", "s", "m", "s"], first_draw=1)
    assert game.wall_remaining == 0 and kinds(game.legal_actions(1)) == ["discard"]


ROB = dict(
    hands=["123456789m123p9s", "1122m7788p34p", "123456789m46p11p", "4455667788m999p"],
    melds=[[], ["555p"], [], []],
)


def test_robbing_an_added_kong():
    # chengdu: seat 2 waits on 5p (123m 456m 789m 46p 11p). Robbing: basic 1 + rob_kong 1 = 2 fan,
    # 6 x 2^(2-1) = 12, paid by the kong's owner; the kong is void (no payment), the pong stays.
    game = position(
        "chengdu", ROB["hands"], "5p1s2s3s4s6s", voids=["s", "s", "s", "s"], melds=ROB["melds"], first_draw=1
    )
    mark = len(game.events)
    game.act(1, kong("5p"))
    assert game.to_act() == [2] and game.legal_actions(2) == [WIN, PASS]
    assert game.hand(1) == ["1m", "1m", "2m", "2m", "3p", "4p", "7p", "7p", "8p", "8p"]
    game.act(2, WIN)
    new = since(game, mark)
    assert [e["type"] for e in new] == ["kong", "robbed", "win", "payment", "draw"]
    assert new[1] == {"type": "robbed", "seat": 1, "tile": "5p"}
    win = new[2]
    assert list(win) == ["type", "seat", "tile", "from", "kind", "hand", "score"]
    assert (win["seat"], win["tile"], win["from"], win["kind"]) == (2, "5p", 1, "robbed_kong")
    assert win["hand"] == ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "4p", "6p"]
    assert win["score"]["pattern"] == "basic" and win["score"]["bonuses"] == [
        {"name": "rob_kong", "count": 1, "fan": 1}
    ]
    assert win["score"]["points"] == 12
    assert payments(new) == [(1, 2, 12, "win")]
    assert game.melds(1) == [{"kind": "pong", "tile": "5p", "from": 0, "kong": None, "late": False}]
    # 血战: the robber leaves; the next seat after it draws
    assert new[-1] == {"type": "draw", "seat": 3, "tile": "1s", "replacement": False}


def test_passing_a_rob_lets_the_kong_stand():
    game = position(
        "chengdu", ROB["hands"], "5p1s2s3s4s6s", voids=["s", "s", "s", "s"], melds=ROB["melds"], first_draw=1
    )
    mark = len(game.events)
    game.act(1, kong("5p"))
    game.act(2, PASS)
    assert [e["type"] for e in since(game, mark)] == ["kong", "pass", "payment", "payment", "payment", "draw"]
    assert since(game, mark)[1] == {"type": "pass", "seat": 2, "on": "kong", "could": ["win"]}


def test_two_robbers_and_who_draws_next():
    # Seats 2 and 3 both wait on 5p: both rob (each basic 1 + 抢杠 1 = 12, paid by the owner), in turn
    # order from the owner; the next draw is after the robber farthest from the owner (seat 3): seat 0.
    hands = [ROB["hands"][0], ROB["hands"][1], ROB["hands"][2], "456s789s567s11s46p"]
    game = position("chengdu", hands, "5p1s2s3s4s6s", voids=["s", "s", "s", "m"], melds=ROB["melds"], first_draw=1)
    game.act(1, kong("5p"))
    assert game.to_act() == [2, 3]
    mark = len(game.events)
    game.act(3, WIN)
    game.act(2, WIN)
    new = since(game, mark)
    assert [e["type"] for e in new] == ["robbed", "win", "payment", "win", "payment", "draw"]
    assert payments(new) == [(1, 2, 12, "win"), (1, 3, 12, "win")]
    assert new[-1] == {"type": "draw", "seat": 0, "tile": "1s", "replacement": False}


ROB_CONCEALED_HANDS = ["123456789m123p9s", "555p1122m7788p34p", "123456789m46p11p", "4455667788m999p"]


@pytest.mark.parametrize("kong_shot_on_rob, scores", [(True, [-4, 4, 0, 0]), (False, [4, 0, -2, -2])])
def test_robbing_an_add_kong_made_after_a_kong(kong_shot_on_rob, scores):
    # N9 (MIL ⑧ 「再次加杠的牌」): the dealer konges its dealt 9999m (2 from each), adds the 5p
    # replacement to pong(555p), and seat 1 robs it: 平和 + 抢杠 + 杠上炮 = 2 fan (4) and the 9m
    # kong's 6 goes back to its payers; without the option 抢杠 alone, 2, and the kong is kept.
    hands = ["12345679999m", "111234567m3499p", "1122334455667s", "66778899p23456s"]
    game = position(
        "mil_sbr_2025",
        hands,
        "5p1s2s3s4s6s",  # no kong from an empty wall: tiles behind the replacement
        voids=["s", "s", "m", "m"],
        melds=[["555p"], [], [], []],
        kong_shot_on_rob=kong_shot_on_rob,
        win_reveal="immediate",  # the win paid at once, to read its points now
    )
    game.act(0, kong("9m"))
    game.act(0, kong("5p"))
    assert game.to_act() == [1] and game.legal_actions(1) == [WIN, PASS]
    game.act(1, WIN)
    (win,) = [e for e in game.events if e["type"] == "win"]
    bonuses = {b["name"] for b in win["score"]["bonuses"]}
    assert bonuses == ({"rob_kong", "kong_shot"} if kong_shot_on_rob else {"rob_kong"})
    assert game.scores == scores


def test_concealed_kong_robbed_only_with_rob_concealed_kong():
    # dashiyou: rob_concealed_kong true, rob_kong_scoring as_basic (basic 3, linear x1) -> 3 points.
    game = position("dashiyou", ROB_CONCEALED_HANDS, "5p1s2s3s4s6s", voids=["s", "s", "s", "s"], first_draw=1)
    game.act(1, kong("5p"))
    assert game.to_act() == [2] and game.legal_actions(2) == [WIN, PASS]
    game.act(2, WIN)
    win = of_type(game.events, "win")[0]
    assert win["kind"] == "robbed_kong" and win["score"]["pattern"] == "basic" and win["score"]["points"] == 3
    assert payments(game.events) == [(1, 2, 3, "win")]
    assert game.melds(1) == [] and game.hand(1).count("5p") == 3  # the other three stay in hand
    # chengdu: a concealed kong cannot be robbed; it stands and is paid
    game = position("chengdu", ROB_CONCEALED_HANDS, "5p1s2s3s4s6s", voids=["s", "s", "s", "s"], first_draw=1)
    game.act(1, kong("5p"))
    assert game.to_act() == [1] and game.events[-1]["replacement"] is True


# --- 6. wins on a discard, several winners, 血战 end (P§2, P§3, P§4) ------------------------------


MULTI = ["123456789m5p1239s", "123m456m789m46p11p", "2233m1p55p778899s", "456s789s567s11s46p"]


def test_several_winners_on_one_discard():
    # chengdu: seats 1 and 3 wait on 5p (basic, 1 fan = 6 each); seat 2's pong loses to the wins.
    game = position("chengdu", MULTI, "1m1s2s3s4s6s", voids=["p", "s", "m", "m"])
    game.act(0, discard("5p"))
    assert game.to_act() == [1, 2, 3]
    assert game.legal_actions(1) == [WIN, PASS]
    assert game.legal_actions(2) == [PONG, PASS]
    assert game.legal_actions(3) == [WIN, PASS]
    mark = len(game.events)
    game.act(3, WIN)
    game.act(2, PONG)
    assert since(game, mark) == []
    game.act(1, WIN)
    new = since(game, mark)
    assert [e["type"] for e in new] == ["beaten", "win", "payment", "win", "payment", "draw"]
    assert new[0] == {"type": "beaten", "seat": 2, "claim": "pong"}
    assert [(w["seat"], w["from"], w["kind"]) for w in of_type(new, "win")] == [(1, 0, "discard"), (3, 0, "discard")]
    assert payments(new) == [(0, 1, 6, "win"), (0, 3, 6, "win")]
    # the next draw: after the winner farthest from the discarder (seat 3) -> seat 0
    assert new[-1] == {"type": "draw", "seat": 0, "tile": "1m", "replacement": False}
    assert game.discards(0) == []


def test_response_order_does_not_matter():
    logs = []
    for order in itertools.permutations([1, 2, 3]):
        game = position("chengdu", MULTI, "1m1s2s3s4s6s", voids=["p", "s", "m", "m"])
        game.act(0, discard("5p"))
        choice = {1: WIN, 2: PONG, 3: PASS}
        for seat in order:
            game.act(seat, choice[seat])
        logs.append(json.dumps(game.events))
    assert len(set(logs)) == 1


def test_three_winners_end_a_xuezhan_hand_at_once():
    hands = ["123456789m5p1239s", "123m456m789m46p11p", "234m567m999p46p33p", "456s789s567s11s46p"]
    game = position("chengdu", hands, "1m1s2s3s4s6s", voids=["p", "s", "s", "m"])
    game.act(0, discard("5p"))
    for seat in (1, 2, 3):
        game.act(seat, WIN)
    assert [e["type"] for e in game.events[-7:]] == ["win", "payment", "win", "payment", "win", "payment", "end"]
    assert game.events[-1] == {"type": "end", "reason": "three_won", "scores": [-18, 6, 6, 6]}
    assert game.is_over and game.phase == "over" and game.to_act() == []
    with pytest.raises(IllegalActionError):
        game.act(0, discard("1m"))


# --- 7. 血流: locked hands (P§6) -------------------------------------------------------------------


XUELIU = ["123456789m6p1239s", "123m456m789p11p45p", "1199m2288s3377s5s", "4455m99p8p1s44s66s9s"]


@pytest.mark.parametrize("drawn,expected", [("3p", [WIN, discard("3p")]), ("9s", [discard("9s")])])
def test_xueliu_winner_keeps_playing_locked(drawn, expected):
    # Seat 1 wins on 6p, stays (血流), its 13 tiles locked; seats 2, 3, 0 discard what they draw.
    wall = "5p2p8m" + drawn + "7m"
    game = position("chengdu_xueliu", XUELIU, wall, voids=["p", "s", "p", "p"])
    game.act(0, discard("6p"))
    game.act(1, WIN)
    assert game.hand(1) == ["1m", "2m", "3m", "4m", "5m", "6m", "1p", "1p", "4p", "5p", "7p", "8p", "9p"]
    assert game.events[-1] == {"type": "draw", "seat": 2, "tile": "5p", "replacement": False}
    play_defaults_until(game, 1)
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": drawn, "replacement": False}
    assert game.legal_actions(1) == expected
    if drawn == "3p":
        game.act(1, WIN)  # a second win, self-drawn, paid by every seat that has not won: this is also
        # seat 1's first draw with no pong or kong before, so it is 地胡 (READINGS 13): 6 fan = 192.
        assert payments(game.events)[-3:] == [
            (0, 1, 192, "self_draw"),
            (2, 1, 192, "self_draw"),
            (3, 1, 192, "self_draw"),
        ]
        assert len(game.hand(1)) == 13


def test_xueliu_locked_kong_only_when_waits_stay():
    # 123m456m777p11p45p waits 3p/6p; a 7p kong leaves 123m456m11p45p + kong: still 3p/6p.
    hands = ["123456789m6p1239s", "123m456m777p11p45p", "1199m2288s3377s5s", "4455m99p8p1s44s66s9s"]
    game = position("chengdu_xueliu", hands, "5p2p8m7p7m2m", voids=["p", "s", "p", "p"])
    game.act(0, discard("6p"))
    game.act(1, WIN)
    play_defaults_until(game, 1)
    assert game.legal_actions(1) == [kong("7p"), discard("7p")]
    # 123m456m789m2223p waits 1p/3p/4p; a 2p kong would leave 3p alone: not allowed.
    hands = ["123456789m4p1239s", "123m456m789m2223p", "1199m2288s3377s5s", "4455m99p8p1s44s66s9s"]
    game = position("chengdu_xueliu", hands, "5p7p8m2p7m2m", voids=["p", "s", "p", "p"])
    game.act(0, discard("4p"))
    game.act(1, WIN)
    play_defaults_until(game, 1)
    assert game.legal_actions(1) == [discard("2p")]


def test_xueliu_winner_can_only_win_or_pass_on_discards():
    hands = ["123456789m6p1239s", "123m456m789p11p45p", "1199m2288s3377s5s", "4455m99p8p1s44s66s9s"]
    game = position("chengdu_xueliu", hands, "1p2p8m", voids=["p", "s", "p", "p"])
    game.act(0, discard("6p"))
    game.act(1, WIN)
    # seat 2 draws 1p and must discard it (void p); seat 1 holds 11p but is locked: no pong
    assert game.legal_actions(2) == [discard("1p")]
    game.act(2, discard("1p"))
    assert game.to_act() == [3]


# --- 8. late kongs (P§5) ---------------------------------------------------------------------------


LATE = ["123456789m5p1239s", "555p1122m7788p34p", "2244668p346789s", "4455667788m999p"]


@pytest.mark.parametrize(
    "late_kong,allowed,paid",
    [
        ("full", True, True),
        ("root_only", True, False),
        ("kept_fourth_forbidden", True, True),
        ("forbidden", False, False),
    ],
)
def test_pong_with_three_then_kong_later(late_kong, allowed, paid):
    # Seat 1 pongs 5p holding three (so the fourth is already in hand), then on its next turn adds it.
    game = position("chengdu", LATE, "1s2s3s9m1p2p3p", voids=["p", "s", "m", "s"], late_kong=late_kong)
    game.act(0, discard("5p"))
    assert game.legal_actions(1) == [kong("5p"), PONG, PASS]
    game.act(1, PONG)
    assert kong("5p") not in game.legal_actions(1)  # after a pong: discard only
    game.act(1, discard("1m"))
    play_defaults_until(game, 1)
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "9m", "replacement": False}
    assert (kong("5p") in game.legal_actions(1)) == allowed
    if allowed:
        mark = len(game.events)
        game.act(1, kong("5p"))
        new = since(game, mark)
        assert new[0] == {"type": "kong", "seat": 1, "tile": "5p", "kind": "added", "from": None, "late": True}
        expected = [(0, 1, 6, "kong"), (2, 1, 6, "kong"), (3, 1, 6, "kong")] if paid else []
        assert payments(new) == expected


@pytest.mark.parametrize(
    "late_kong,allowed",
    [
        ("full", True),
        ("root_only", True),
        ("kept_fourth_forbidden", False),
        ("forbidden", False),
    ],
)
def test_kept_fourth_not_konged_at_once(late_kong, allowed):
    # Seat 1 has a pong of 5p, draws the fourth (turn 1), keeps it, and tries on turn 2.
    hands = ["123456789m1239p", "1122m7788p34p", "2244668p346789s", "4455667788m111s"]
    game = position(
        "chengdu",
        hands,
        "5p1s2s3s9m1p",
        voids=["p", "s", "m", "s"],
        melds=[[], ["555p"], [], []],
        first_draw=1,
        late_kong=late_kong,
    )
    assert kong("5p") in game.legal_actions(1)  # at once: never late
    game.act(1, discard("1m"))
    play_defaults_until(game, 1)
    assert game.events[-1]["tile"] == "9m"
    assert (kong("5p") in game.legal_actions(1)) == allowed
    if allowed:
        game.act(1, kong("5p"))
        kong_event = of_type(game.events, "kong")[-1]
        assert kong_event["late"] is True
        assert bool(payments(game.events)) == (late_kong == "full")


def test_concealed_kept_fourth_and_dealt_four():
    # A dealt four arrives on the first turn: konging then is not late; later it is.
    hands = ["123456789m1239p", "5555p1122m7788p3p", "2244668p346789s", "4455667788m111s"]
    game = position("chengdu", hands, "1s2s3s9m1p4s", voids=["p", "s", "m", "s"], first_draw=1, late_kong="forbidden")
    assert kong("5p") in game.legal_actions(1)
    game.act(1, discard("1s"))
    play_defaults_until(game, 1)
    assert kong("5p") not in game.legal_actions(1)
    # Seeds 001 §三.3 / 003 §3: kept_fourth_forbidden forbids only the added kong, not this 暗杠.
    game = position(
        "chengdu", hands, "1s2s3s9m1p4s", voids=["p", "s", "m", "s"], first_draw=1, late_kong="kept_fourth_forbidden"
    )
    game.act(1, discard("1s"))
    play_defaults_until(game, 1)
    assert kong("5p") in game.legal_actions(1)
    # root_only (chengdu): seed 002 計分規則 12 names two cases, both about a pong (R§6); this late
    # 暗杠 is a full 下雨, 2 x 6 from each other seat.
    game = position("chengdu", hands, "1s2s3s9m1p4s", voids=["p", "s", "m", "s"], first_draw=1)
    game.act(1, discard("1s"))
    play_defaults_until(game, 1)
    mark = len(game.events)
    game.act(1, kong("5p"))
    new = since(game, mark)
    assert new[0]["late"] is True and payments(new) == [(0, 1, 12, "kong"), (2, 1, 12, "kong"), (3, 1, 12, "kong")]


def test_a_replacement_after_an_own_turn_kong_continues_the_turn():
    # P§10: seat 1 draws the fourth 7m, konges its dealt 5555p first, and konges 7m after the
    # replacement: the same turn, so the 7m kong is not late (a new turn would make it late).
    hands = ["22s33s44s55s66s77s8s", "5555p777m123p99p4m", "11m55m11p44p66p88s9s", "88p99p22p33p6p7s8s9s9s"]
    game = position("xuezhan", hands, "7m9m8m6m5m3m", voids=["m", "s", "s", "m"], first_draw=1)
    game.act(1, kong("5p"))
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "9m", "replacement": True}
    mark = len(game.events)
    game.act(1, kong("7m"))
    assert since(game, mark)[0] == {
        "type": "kong",
        "seat": 1,
        "tile": "7m",
        "kind": "concealed",
        "from": None,
        "late": False,
    }


def test_root_only_kong_scores_as_a_root():
    # chengdu root_only: seat 1 (pong 5p) draws the fourth 5p on turn 1 and keeps it; on turn 2 it
    # draws 9m and konges 5p (late: root-only, no payment), then the replacement 9m completes
    # 123m 456m 789m 99m + 5555p: basic 1 + one 根 (not exposed_kong) 1 + 杠上花 1 = 3 fan = 24.
    hands = ["123456789m1239p", "123m456m789m4p", "2244668p346789s", "4455667788m111s"]
    game = position(
        "chengdu", hands, "5p1s2s3s9m9m", voids=["p", "s", "m", "s"], melds=[[], ["555p"], [], []], first_draw=1
    )
    game.act(1, discard("4p"))  # keeps the fourth 5p
    play_defaults_until(game, 1)
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "9m", "replacement": False}
    mark = len(game.events)
    game.act(1, kong("5p"))
    assert since(game, mark) == [
        {"type": "kong", "seat": 1, "tile": "5p", "kind": "added", "from": None, "late": True},
        {"type": "draw", "seat": 1, "tile": "9m", "replacement": True},
    ]
    game.act(1, WIN)
    score = of_type(game.events, "win")[0]["score"]
    assert score["pattern"] == "basic"
    assert (
        score["bonuses"] == [{"name": "root", "count": 1, "fan": 1}, {"name": "kong_flower", "count": 1, "fan": 1}]
        and score["fan"] == 3
        and score["points"] == 24
    )


# --- 9. 过胡 (P§7) ---------------------------------------------------------------------------------


LOCK = ["123456789m4p1239s", "1122m556677889s", "123m789m111p99p23p", "445566778m3456s"]


@pytest.mark.parametrize(
    "lock,second,expected",
    [
        # 4p wins basic (1 fan); 1p wins 带幺九 with a 根 (3 + 1 = 4 fan); seat 2 holds 111p: kong/pong too.
        ("until_draw_unless_higher", "1p", [WIN, kong("1p"), PONG, PASS]),
        ("until_draw", "1p", [kong("1p"), PONG, PASS]),
        ("none", "1p", [WIN, kong("1p"), PONG, PASS]),
        ("until_draw_unless_higher", "4p", None),  # 1 fan is not more than the declined 1 fan
        ("none", "4p", [WIN, PASS]),
    ],
)
def test_pass_win_lock(lock, second, expected):
    game = position("chengdu", LOCK, second + "5m6m8m1s2s", voids=["p", "p", "s", "p"], pass_win_lock=lock)
    game.act(0, discard("4p"))
    assert game.to_act() == [2] and game.legal_actions(2) == [WIN, PASS]
    game.act(2, PASS)
    assert game.events[-2] == {"type": "pass", "seat": 2, "on": "discard", "could": ["win"]}
    game.act(1, discard(second))  # seat 1 drew it and (void p) must discard it
    if expected is None:
        assert game.events[-1] == {"type": "draw", "seat": 2, "tile": "5m", "replacement": False}  # not asked
    else:
        assert game.to_act() == [2] and game.legal_actions(2) == expected


@pytest.mark.parametrize("lock", ["until_draw_unless_higher", "none"])
def test_pass_win_lock_a_pong_chosen_over_a_win_declines_it(lock):
    # Seeds 002/003 打牌規則 12 「不能棄上一家而胡下一家。若加翻可胡牌」, R§6: any answer but win declines.
    # Seat 1 pongs 上家's 5m instead of winning (basic), discards 8m, waits on 5m/8m; 下家 seat 2
    # draws 8m and discards it: the same basic win, refused under the lock.
    hands = ["12345m7m11s234s567s", "55m678m123p456p99p", "1122334455667p", "1122334455667s"]
    game = position("chengdu", hands, "8m9m9m9m8s8s8s9s9s9s", voids=["p", "s", "s", "m"], pass_win_lock=lock)
    game.act(0, discard("5m"))
    assert game.to_act() == [1] and game.legal_actions(1) == [WIN, PONG, PASS]
    game.act(1, PONG)
    game.act(1, discard("8m"))
    game.act(2, discard("8m"))
    assert (game.to_act() == [1] and WIN in game.legal_actions(1)) == (lock == "none")


def test_pass_win_lock_lifts_on_own_draw():
    # until_draw: seat 2 declines 4p, then draws 5m (no win) and later 4p is a win again.
    game = position("chengdu", LOCK, "4p5m6m8m4p1s2s3s4s5s", voids=["p", "p", "s", "p"], pass_win_lock="until_draw")
    game.act(0, discard("4p"))
    game.act(2, PASS)
    game.act(1, discard("4p"))
    assert game.events[-1] == {"type": "draw", "seat": 2, "tile": "5m", "replacement": False}
    game.act(2, discard("5m"))
    play_defaults_until(game, 1)  # seat 3 draws 6m, seat 0 8m, seat 1 draws 4p
    game.act(1, discard("4p"))
    assert game.to_act() == [2] and game.legal_actions(2) == [WIN, PASS]


# --- 10. last_four and pong_last_discard (P§2) -------------------------------------------------


LAST = ["123456789m6p1239s", "123m456m789p11p45p", "1199m2288s3377s5s", "4455m99p8p1s44s66s9s"]
LAST_13 = ["123456789m1239s"] + LAST[1:]


@pytest.mark.parametrize(
    "preset,wall,forced",
    [
        ("xuezhan", "3p7m8m2m", True),  # self_draw_forced, wall held 4 before the draw
        ("xuezhan", "3p7m8m2m9m", False),  # held 5
        ("dashiyou", "3p7m8m2m", True),  # forced: both kinds
        ("chengdu", "3p7m8m2m", False),  # ron_forced: a self-draw may be declined
    ],
)
def test_last_four_self_draw(preset, wall, forced):
    game = position(preset, LAST_13, wall, voids=["p", "s", "p", "p"], first_draw=1)
    legal = game.legal_actions(1)
    assert WIN in legal
    assert (legal == [WIN]) == forced
    assert game.default_action(1) == (WIN if forced else discard("3p"))


@pytest.mark.parametrize(
    "preset,wall,forced",
    [
        ("chengdu", "7m8m2m9m", True),  # ron_forced: a discard made while the wall holds <= 4
        ("chengdu", "7m8m2m9m3p", False),
        ("dashiyou", "7m8m2m9m", True),
        ("xuezhan", "7m8m2m9m", False),  # self_draw_forced only
    ],
)
def test_last_four_discard(preset, wall, forced):
    game = position(preset, LAST, wall, voids=["p", "s", "p", "p"])
    game.act(0, discard("6p"))
    assert game.legal_actions(1) == ([WIN] if forced else [WIN, PASS])
    assert game.default_action(1) == (WIN if forced else PASS)


@pytest.mark.parametrize("allowed", [False, True])
def test_pong_last_discard(allowed):
    # Seat 1 draws the last tile (1s) and, void s, discards it; seat 2 holds 11s.
    hands = ["123456789m1239p", "123m456m789p11p45p", "11s2288s3377s66m9m", "4455m99p8p44s66s9s1s"]
    game = position("chengdu", hands, "1s", voids=["s", "s", "p", "p"], first_draw=1, pong_last_discard=allowed)
    game.act(1, discard("1s"))
    if not allowed:
        assert game.is_over and game.events[-1]["reason"] == "wall_empty"
        return
    assert game.to_act() == [2] and game.legal_actions(2) == [PONG, PASS]
    game.act(2, PONG)
    game.act(2, discard("9m"))
    assert game.is_over and game.events[-1]["reason"] == "wall_empty"


# --- 11. 天胡, 地胡, 杠上花, 点杠花, 杠上炮, 呼叫转移 (R§8, P§8) --------------------------------------------


def test_heavenly_win():
    # chengdu: the dealer's 14 = 123m 456m 789m 123p 55p; 天胡 6 fan replaces basic: 6 x 2^5 = 192,
    # settled as a self-draw; the winning tile is the highest-index tile (READINGS 5).
    hands = ["123456789m12355p", "123m456m789p11p44s", "1199m2288s3377s5s", "4455m99p8p44s66s9s1s"]
    game = position("chengdu", hands, "7m8m2m9m3s", voids=["s", "s", "p", "p"])
    assert WIN in game.legal_actions(0)
    game.act(0, WIN)
    win = of_type(game.events, "win")[0]
    assert (win["seat"], win["tile"], win["from"], win["kind"]) == (0, "5p", None, "self_draw")
    assert win["hand"] == ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p"]
    assert win["score"]["pattern"] == "heavenly" and win["score"]["points"] == 192
    assert payments(game.events) == [(1, 0, 192, "self_draw"), (2, 0, 192, "self_draw"), (3, 0, 192, "self_draw")]
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "7m", "replacement": False}


def test_earthly_win():
    # Seat 1's first draw (3p) completes it before any pong or kong: 地胡 6 fan = 192 from each other seat.
    hands = ["123456789m1239p9s", "123m456m789m11p45p", "2233s4466s7788s5s", "4455667788m999p"]
    game = position("chengdu", hands, "3p1m", voids=["s", "s", "m", "s"])
    game.act(0, discard("9s"))
    assert game.events[-1] == {"type": "draw", "seat": 1, "tile": "3p", "replacement": False}
    game.act(1, WIN)
    win = of_type(game.events, "win")[0]
    assert win["score"]["pattern"] == "earthly" and win["score"]["points"] == 192
    assert payments(game.events) == [(0, 1, 192, "self_draw"), (2, 1, 192, "self_draw"), (3, 1, 192, "self_draw")]


def test_no_earthly_after_a_pong():
    # Seat 2 pongs the dealer's 9s first; seat 1's first draw then wins as a plain basic hand (1 fan = 6).
    hands = ["123456789m1239p9s", "123m456m789m11p45p", "2233s4466s77s99s8s", "4455667788m999p"]
    game = position("chengdu", hands, "1s2s3p", voids=["s", "s", "m", "s"])
    game.act(0, discard("9s"))
    game.act(2, PONG)
    game.act(2, discard("8s"))
    play_defaults_until(game, 1)
    assert game.events[-1]["tile"] == "3p" and game.events[-1]["seat"] == 1
    game.act(1, WIN)
    win = of_type(game.events, "win")[0]
    assert win["score"]["pattern"] == "basic" and win["score"]["points"] == 6


FLOWER = ["123456789m1239p5s", "555s123m456m789m9s", "2244668p346789s", "4455667788m111p"]


@pytest.mark.parametrize(
    "mode,expected",
    [
        ("feeder_pays_all", [(0, 1, 72, "kong_flower_feeder")]),
        ("all_pay", [(0, 1, 24, "self_draw"), (2, 1, 24, "self_draw"), (3, 1, 24, "self_draw")]),
        ("as_discard_win", [(0, 1, 24, "win")]),
    ],
)
def test_kong_flower_after_a_direct_kong(mode, expected):
    # chengdu: seat 1 konged the dealer's 5s, the replacement 9s completes 123m 456m 789m 99s + 5555s:
    # basic 1 + exposed kong 1 + 杠上花 1 = 3 fan = 24 per payer; three payers.
    game = position("chengdu", FLOWER, "9s1m2m", voids=["s", "p", "m", "s"], kong_flower_after_direct_kong=mode)
    game.act(0, discard("5s"))
    game.act(1, kong("5s"))
    assert game.legal_actions(1)[0] == WIN
    mark = len(game.events)
    game.act(1, WIN)
    win = of_type(game.events, "win")[0]
    assert (
        win["score"]["bonuses"]
        == [{"name": "exposed_kong", "count": 1, "fan": 1}, {"name": "kong_flower", "count": 1, "fan": 1}]
        and win["score"]["points"] == 24
    )
    assert payments(since(game, mark)) == expected
    assert payments(game.events)[0] == (0, 1, 12, "kong")


SHOT = ["4455667788m199s", "555p123m456m789m9p", "123456789m11p78p", "223344667788s3p"]


@pytest.mark.parametrize(
    "transfer,expected",
    [
        ("none", [(1, 2, 12, "win")]),
        ("last_kong", [(1, 2, 12, "win"), (1, 2, 36, "kong_transfer")]),
        ("all_kongs", [(1, 2, 12, "win"), (1, 2, 36, "kong_transfer")]),
        ("kong_chain", [(1, 2, 12, "win"), (1, 2, 36, "kong_transfer")]),
        (
            "refund_to_payers",
            [(1, 2, 12, "win"), (1, 0, 12, "kong_transfer"), (1, 2, 12, "kong_transfer"), (1, 3, 12, "kong_transfer")],
        ),
    ],
)
def test_kong_shot_and_income_transfer(transfer, expected):
    # chengdu: seat 1 draws the fourth 5p, 暗杠 (2 x 6 from each of 0, 2, 3 = 36), draws 6p and
    # discards it; seat 2 wins 杠上炮: basic 1 + kong_shot 1 = 2 fan = 12.
    game = position(
        "chengdu", SHOT, "5p6p1s2s3s4s5s6s", voids=["p", "s", "s", "m"], first_draw=1, kong_income_transfer=transfer
    )
    game.act(1, kong("5p"))
    assert payments(game.events) == [(0, 1, 12, "kong"), (2, 1, 12, "kong"), (3, 1, 12, "kong")]
    game.act(1, discard("6p"))
    assert game.legal_actions(2) == [WIN, PASS]
    mark = len(game.events)
    game.act(2, WIN)
    win = of_type(game.events, "win")[0]
    assert win["score"]["bonuses"] == [{"name": "kong_shot", "count": 1, "fan": 1}] and win["score"]["points"] == 12
    assert payments(since(game, mark)) == expected


SHOT_TWO = ["4455667788m199s", "555p123m456m79m13p", "123456789m11p78p", "234s234s888s99s78p"]


@pytest.mark.parametrize(
    "transfer,expected",
    [
        ("last_kong", [(1, 2, 12, "win"), (1, 2, 36, "kong_transfer"), (1, 3, 12, "win"), (1, 3, 36, "kong_transfer")]),
        # T/TFMJ (ES §9): a chain of one kong, its 36 split between the two winners.
        (
            "kong_chain",
            [(1, 2, 12, "win"), (1, 2, 18, "kong_transfer"), (1, 3, 12, "win"), (1, 3, 18, "kong_transfer")],
        ),
        (
            "refund_to_payers",
            [
                (1, 2, 12, "win"),
                (1, 0, 12, "kong_transfer"),
                (1, 2, 12, "kong_transfer"),
                (1, 3, 12, "kong_transfer"),
                (1, 3, 12, "win"),
            ],
        ),
    ],
)
def test_kong_shot_with_two_winners(transfer, expected):
    # Seat 1's 暗杠 earned 36; its next discard 6p is won by seats 2 and 3 (each 1 + 杠上炮 1 = 12).
    # last_kong: each winner also gets the 36; kong_chain: ⌈36 / 2⌉ each; refund_to_payers: the
    # payers get theirs back once.
    game = position(
        "chengdu", SHOT_TWO, "5p6p1s2s3s4s5s6s", voids=["p", "s", "s", "m"], first_draw=1, kong_income_transfer=transfer
    )
    game.act(1, kong("5p"))
    game.act(1, discard("6p"))
    mark = len(game.events)
    game.act(3, WIN)
    game.act(2, WIN)
    assert payments(since(game, mark)) == expected


REFUND_ALL = [(1, 0, 12, "tax_refund"), (1, 2, 12, "tax_refund"), (1, 3, 12, "tax_refund")]


@pytest.mark.parametrize("transfer,refund", [("last_kong", []), ("none", REFUND_ALL)])
def test_tax_refund_skips_transferred_income_and_reaches_xuezhan_winners(transfer, refund):
    # The same kong and 杠上炮, but the replacement 6p is the last tile: the forced wins, then 流局.
    # Seat 0 waits on 1s for seven pairs (3 fan = 24); seat 1 is not ready and pays it (查叫).
    # 退税: seat 1's kong income was passed on (last_kong) -> nothing; without transfer it repays
    # all three payers, seats 2 and 3 too though they have won (血战): seed 004 §四.10
    # 「未下叫者（包括花猪）将退回所有刮风下雨的所得」, R§9.4.
    game = position(
        "chengdu", SHOT_TWO, "5p6p", voids=["p", "s", "s", "m"], first_draw=1, kong_income_transfer=transfer
    )
    game.act(1, kong("5p"))
    game.act(1, discard("6p"))
    assert game.legal_actions(2) == [WIN] and game.legal_actions(3) == [WIN]  # ron_forced, wall empty
    game.act(2, WIN)
    game.act(3, WIN)
    assert game.is_over and game.events[-1]["reason"] == "wall_empty"
    settlement = payments(game.events[[e["type"] for e in game.events].index("win") :])
    settlement = [p for p in settlement if p[3] in ("flower_pig", "not_ready", "ready_difference", "tax_refund")]
    assert settlement == [(1, 0, 24, "not_ready")] + refund


def test_xuezhan_winner_out_of_the_ready_check():
    # xuezhan: seat 1 won on the dealer's 6p; at 流局 it neither pays nor collects 查叫 or 补差价.
    # Seat 2 waits 5s (seven pairs 2 fan = 4); seat 3 is not ready and pays seat 2 only; seat 0 still
    # holds a 6p of its void p: a pig, paying 4 fan = 16 to every non-pig, the winner included.
    hands = ["123456789m66p129s", "123m456m789p11p45p", "1199m2288s3377s5s", "4455m134466789s"]
    game = position("xuezhan", hands, "7m", voids=["p", "s", "p", "p"])
    game.act(0, discard("6p"))
    game.act(1, WIN)
    assert game.events[-1] == {"type": "draw", "seat": 2, "tile": "7m", "replacement": False}
    game.act(2, discard("7m"))
    assert game.is_over
    assert payments(game.events) == [
        (0, 1, 1, "win"),
        (0, 1, 16, "flower_pig"),
        (0, 2, 16, "flower_pig"),
        (0, 3, 16, "flower_pig"),
        (3, 2, 4, "not_ready"),
    ]


# --- 12. payments: win_and_loss, self_draw_payers, 血战 leavers (R§9, P§8) ------------------------


WAL = dict(
    hands=["12345678m611p", "123m456m11p45p", "223344556677s8s", "22338899p1199s8s"],
    melds=[["[9999m]"], ["7777p"], [], []],
)


def test_win_and_loss_kong_fan():
    # RULES.md §9's dashiyou example: A (seat 1) wins a basic hand with one 明杠 (3 + 1 = 4 fan);
    # B (seat 0, the discarder) holds a 暗杠 and pays (4 + 2) x 1 = 6.
    game = position("dashiyou", WAL["hands"], "1m2s3s4s5s6s", voids=["s", "s", "m", "m"], melds=WAL["melds"])
    game.act(0, discard("6p"))
    game.act(1, WIN)
    win = of_type(game.events, "win")[0]
    assert win["score"]["fan"] == 4 and win["score"]["points"] == 4
    assert payments(game.events) == [(0, 1, 6, "win")]


def test_win_and_loss_on_a_self_draw():
    # The same A self-draws 6p: B pays 6, C and D pay 4 each.
    hands = ["12345678m11p", "123m456m11p45p", "223344556677s8s", "22338899p1199s8s"]
    game = position("dashiyou", hands, "6p1m2s3s4s5s", voids=["s", "s", "m", "m"], melds=WAL["melds"], first_draw=1)
    game.act(1, WIN)
    assert payments(game.events) == [(0, 1, 6, "self_draw"), (2, 1, 4, "self_draw"), (3, 1, 4, "self_draw")]


PAYERS = ["123456789m6p1239s", "123m456m789p11p45p", "1199m2288s3377s5s", "4455m99p8p1s44s66s9s"]


@pytest.mark.parametrize(
    "payers,expected",
    [
        ("not_won", [(0, 2, 192, "self_draw"), (3, 2, 192, "self_draw")]),
        ("all_others", [(0, 2, 192, "self_draw"), (1, 2, 192, "self_draw"), (3, 2, 192, "self_draw")]),
    ],
)
def test_self_draw_payers_in_xueliu(payers, expected):
    # chengdu_xueliu: seat 1 wins on 6p; seat 2 then self-draws 5s on its first draw, no pong or kong
    # before: 地胡 (6 fan = 192; it replaces the hand's seven pairs).
    game = position("chengdu_xueliu", PAYERS, "5s7m", voids=["p", "s", "p", "p"], self_draw_payers=payers)
    game.act(0, discard("6p"))
    game.act(1, WIN)
    mark = len(game.events)
    game.act(2, WIN)
    assert of_type(since(game, mark), "win")[0]["score"]["pattern"] == "earthly"
    assert payments(since(game, mark)) == expected


def test_xuezhan_winner_pays_no_kong():
    # chengdu (血战): seat 1 has won; seat 2's 暗杠 is paid by seats 0 and 3 only (2 x 6).
    hands = ["123456789m6p1239s", "123m456m789p11p45p", "1199m555s2288s37s", "4455m99p8p1s44s66s9s"]
    game = position("chengdu", hands, "5s7m", voids=["p", "s", "p", "p"])
    game.act(0, discard("6p"))
    game.act(1, WIN)
    mark = len(game.events)
    game.act(2, kong("5s"))
    assert payments(since(game, mark)) == [(0, 2, 12, "kong"), (3, 2, 12, "kong")]


# --- 13. 流局 (R§9, P§8) ---------------------------------------------------------------------------


def test_exhaustive_draw_xuezhan_all_four_steps():
    # xuezhan (base 1, exponential offset 0): seat 3 konged 5s (2 from each of 0, 1, 2), then the wall
    # ran out. Seat 0 still holds 9s of its void s: a pig. Seat 1 waits 3p/6p (basic 0 fan = 1);
    # seat 2 waits 2p/5p/8p, best 8p = 清七对 4 fan = 16; seat 3 is not ready.
    # 查花猪: 0 pays 4 fan = 16 to each non-pig (1, 2, 3). 查叫: 3 pays 1 to seat 1 and 16 to seat 2.
    # 补差价: 1 pays 2 the difference 15. 退税: 3 returns 2 to each of 0, 1, 2.
    hands = ["123456789m123p99s", "123m456m789p11p45p", "2233445566778p", "13579m555s12379s"]
    game = position("xuezhan", hands, "9m1s5s8m", voids=["s", "s", "m", "p"])
    game.act(0, discard("9s"))
    game.act(1, discard("9m"))
    game.act(2, discard("1s"))
    assert kong("5s") in game.legal_actions(3)
    game.act(3, kong("5s"))
    game.act(3, discard("8m"))
    assert game.is_over
    assert payments(game.events) == [
        (0, 3, 2, "kong"),
        (1, 3, 2, "kong"),
        (2, 3, 2, "kong"),
        (0, 1, 16, "flower_pig"),
        (0, 2, 16, "flower_pig"),
        (0, 3, 16, "flower_pig"),
        (3, 1, 1, "not_ready"),
        (3, 2, 16, "not_ready"),
        (1, 2, 15, "ready_difference"),
        (3, 0, 2, "tax_refund"),
        (3, 1, 2, "tax_refund"),
        (3, 2, 2, "tax_refund"),
    ]
    assert game.events[-1] == {"type": "end", "reason": "wall_empty", "scores": [-48, 2, 47, -1]}


def test_exhaustive_draw_dashiyou_pig_pays_double():
    # dashiyou (linear x1): seat 1 waits 3p/6p, 门清 4; seat 2 is a 1-9s nine-gates wait, 清一色 8;
    # seat 0 holds its void 9s (pig): pays each ready player twice its value: 8 and 16.
    # Seat 3 is not ready: pays 4 and 8.
    hands = ["123456789m123p9s", "123m456m789p11p45p", "1112345678999s", "223357m2244668s"]
    game = position("dashiyou", hands, "9p", voids=["s", "s", "m", "p"], first_draw=3)
    assert game.legal_actions(3) == [discard("9p")]
    game.act(3, discard("9p"))
    assert game.is_over
    assert payments(game.events) == [
        (0, 1, 8, "flower_pig"),
        (0, 2, 16, "flower_pig"),
        (3, 1, 4, "not_ready"),
        (3, 2, 8, "not_ready"),
    ]
    assert game.scores == [-24, 12, 24, -12]


# --- 14. default actions, views, illegal actions ---------------------------------------------


def test_default_discards():
    # P§2: a void tile if any must go (the one just drawn if it is void, else the lowest), else the
    # tile just drawn.
    hands = ["123456789m1239p", "123m456m789m116p4s", "2244668p346789s", "4455667788m111s"]
    game = position("chengdu", hands, "5s1m", voids=["p", "s", "m", "s"], first_draw=1)
    assert game.default_action(1) == discard("5s")  # holds 4s and drew 5s: the drawn void tile
    game = position("chengdu", hands, "2p1m", voids=["p", "s", "m", "s"], first_draw=1)
    assert game.default_action(1) == discard("4s")  # drew 2p (not void): the lowest void tile 4s
    game = position("chengdu", hands, "2p1m", voids=["p", "m", "m", "s"], first_draw=1)
    assert game.default_action(1) == discard("1m")  # void m: the lowest m tile
    game = position("chengdu", hands, "2p1m", voids=["p", "p", "m", "s"], first_draw=1)
    assert game.default_action(1) == discard("2p")  # void p: the drawn 2p is void
    hands[1] = "123m456m789m116p4p"
    game = position("chengdu", hands, "3p1m", voids=["p", "s", "m", "s"], first_draw=1)
    assert game.default_action(1) == discard("3p")  # no void tile: the tile just drawn


def test_events_for_hides_other_seats_secrets():
    game = Game("chengdu_xueliu", 17)
    for seat in range(4):
        game.act(seat, game.default_action(seat))
    for seat in range(4):
        game.act(seat, game.default_action(seat))
    while not game.is_over and not of_type(game.events, "win"):
        s = game.to_act()[0]
        game.act(s, game.default_action(s))
    for seat in range(4):
        view = game.events_for(seat)
        # Other seats' passes are left out: what a seat could claim reveals its tiles.
        shown = [e for e in game.events if not (e["type"] == "pass" and e["seat"] != seat)]
        assert len(view) == len(shown) and any(e["type"] == "pass" for e in game.events)
        for mine, full in zip(view, shown):
            if full["type"] == "start":
                assert mine["seed"] is None and mine["rules"] == full["rules"]
            elif full["type"] == "deal":
                if full["seat"] == seat:
                    assert mine == full
                else:
                    assert mine == {"type": "deal", "seat": full["seat"], "tiles": None, "count": len(full["tiles"])}
            elif full["type"] == "exchange":
                assert mine["given"][seat] == full["given"][seat]
                assert all(mine["given"][s] is None and mine["received"][s] is None for s in range(4) if s != seat)
            elif full["type"] == "draw" and full["seat"] != seat:
                assert mine["tile"] is None and mine["replacement"] == full["replacement"]
            elif full["type"] == "win" and full["seat"] != seat:
                assert mine["hand"] is None and mine["tile"] == full["tile"]
            else:
                assert mine == full


def test_illegal_actions_raise_and_change_nothing():
    game = position("chengdu", PONG_HANDS, "3m9m1s", voids=["s", "m", "m", "s"])
    snapshot = json.dumps([game.events, [game.hand(s) for s in range(4)], game.wall, game.scores])
    bad = [
        (1, discard("1p")),  # not this seat's turn
        (0, discard("1m")),  # must discard the void 9s
        (0, discard("5s")),  # not held
        (0, WIN),
        (0, PONG),
        (0, kong("9s")),
        (0, {"kind": "discard"}),
        (0, {"kind": "discard", "tile": "x"}),
        (0, "discard 9s"),
        (0, {"kind": "discard", "tile": "9s", "extra": 1}),
    ]
    for seat, action in bad:
        with pytest.raises(IllegalActionError):
            game.act(seat, action)
        assert json.dumps([game.events, [game.hand(s) for s in range(4)], game.wall, game.scores]) == snapshot
    assert issubclass(IllegalActionError, ValueError)
    game.act(0, discard("9s"))
    with pytest.raises(IllegalActionError):
        game.act(1, kong("9s"))  # only two 9s
    game.act(1, PASS)


def test_wild_games_need_xuezhan_and_a_cap():
    # P§11: Game refuses wilds in 血流 and without cap_fan; the yaoji games are in
    # test_reference_yaoji.py.
    with pytest.raises(ValueError, match="xuezhan"):
        Game(get_preset("yaoji", mode="xueliu"), 1)
    with pytest.raises(ValueError, match="cap_fan"):
        Game(get_preset("yaoji", cap_fan=None), 1)


# --- 15. invariants over random games ------------------------------------------------------------


def _keep_score(hand, t):
    s = t // 9
    score = 3 * (hand[t] - 1)
    for d, w in ((1, 2), (2, 1)):
        for u in (t - d, t + d):
            if 0 <= u < 27 and u // 9 == s:
                score += w * hand[u]
    return score + 0.1 * sum(hand[9 * s : 9 * s + 9])


def policy(game, seat, rnd):
    """Random but purposeful: usually take wins and claims, discard loose tiles, sometimes anything."""
    actions = game.legal_actions(seat)
    by = collections.defaultdict(list)
    for a in actions:
        by[a["kind"]].append(a)
    if by["exchange"] or by["void"]:
        return game.default_action(seat) if rnd.random() < 0.7 else rnd.choice(actions)
    if by["win"] and rnd.random() < 0.9:
        return by["win"][0]
    if by["kong"] and rnd.random() < 0.6:
        return rnd.choice(by["kong"])
    if by["pong"] and rnd.random() < 0.5:
        return by["pong"][0]
    if by["discard"]:
        if rnd.random() < 0.15:
            return rnd.choice(by["discard"])
        hand = [0] * 27
        for t in game.hand(seat):
            hand[parse_tiles(t)[0]] += 1
        return min(by["discard"], key=lambda a: (_keep_score(hand, parse_tiles(a["tile"])[0]), rnd.random()))
    if by["pass"]:
        return by["pass"][0]
    return rnd.choice(actions)


def check_wins(game, events):
    """Each win's tiles are a winning hand of its seat, none of its void suit."""
    for event in events:
        if event["type"] == "win":
            w = event["seat"]
            tiles = event["hand"] + [event["tile"]]
            void = game.void(w)
            assert void is None or all(t[1] != void for t in tiles)
            melds = [m["tile"][0] * (3 if m["kind"] == "pong" else 4) + m["tile"][1] for m in game.melds(w)]
            assert is_win("".join(tiles), melds=melds, void=void, seven_pairs=game.rules["allow_seven_pairs"])


def random_game(rules, seed, rnd):
    """One game by ``policy``, the invariants and each win checked after every step."""
    return play_checked(rules, seed, rnd, policy, after=check_wins)


@pytest.mark.parametrize("preset", PLAYABLE)
def test_random_games_keep_the_invariants(preset):
    rnd = random.Random(preset)
    seen = collections.Counter()
    for seed in range(200):
        game, _ = random_game(preset, seed, rnd)
        for e in game.events:
            seen[e["type"]] += 1
    assert seen["win"] > 50 and seen["kong"] > 20 and seen["pong"] > 100


@pytest.mark.parametrize("preset", PLAYABLE)
def test_same_seed_and_actions_same_events(preset):
    rnd = random.Random(7)
    for seed in range(5):
        game, actions = random_game(preset, seed, rnd)
        again = Game.replay(preset, seed, actions)
        assert again.events == game.events and again.scores == game.scores


OPTION_VARIANTS = [
    dict(exchange="opposite", exchange_redeal_if_unchanged=True),
    dict(exchange=None, declare_void=False),
    dict(kong_draw_from="back", pong_last_discard=True),
    dict(late_kong="forbidden", pass_win_lock="until_draw"),
    dict(late_kong="root_only", rob_concealed_kong=True),
    dict(last_four="forced", self_draw_payers="all_others"),
    dict(kong_flower_after_direct_kong="as_discard_win", kong_income_transfer="refund_to_payers"),
    dict(kong_income_transfer="all_kongs", cap_fan=3),
    dict(flower_pig_penalty="cap", cap_fan=4, flower_pig_payees="ready_or_won", ready_difference=True),
    dict(kong_fan="win_and_loss", gen_counts_kongs=True, first_dealer="dice"),
]


@pytest.mark.parametrize("variant", range(len(OPTION_VARIANTS)))
@pytest.mark.parametrize("preset", ["chengdu", "chengdu_xueliu"])
def test_random_games_with_options(preset, variant):
    rules = get_preset(preset, **OPTION_VARIANTS[variant])
    rnd = random.Random(variant)
    for seed in range(40):
        random_game(rules, seed, rnd)
