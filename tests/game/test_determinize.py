"""Game.determinize: a copy with every tile hidden from one seat dealt again, for search over
hidden information (RULES.md §12). The seat sees the same game; the tiles are conserved; the copy
plays on; the seed alone fixes the deal."""

import json
import random
from collections import Counter

import pytest
from helpers import PLAY_PRESETS

from xueliu import Game, Tile, XueliuError

PRESETS = PLAY_PRESETS


def positions(per_preset=3, every=9):
    """(game, seat to act) along random hands of each preset, every few steps."""
    rng = random.Random(11)
    for p, preset in enumerate(PRESETS):
        for seed in range(per_preset):
            game = Game(preset, seed=100 * p + seed)
            step = 0
            while not game.is_over:
                seats = game.to_act()
                if step % every == 0:
                    yield game.clone(), seats[0]
                s = seats[0]
                game.act(s, rng.choice(game.legal_actions(s)))
                step += 1


def hidden(game, seat):
    """The tiles `seat` cannot see: the other concealed hands and the wall."""
    snap = json.loads(game.to_json())
    tiles = Counter(snap["wall"])
    for s, info in enumerate(snap["seats"]):
        if s != seat:
            tiles.update(info["hand"])
    return tiles


def seen_win(game, seat, w):
    """A win as `seat` sees it: under win_reveal = "hand_end" another seat's score, and its
    self-drawn tile, stay hidden until the hand ends (N18), so a copy may deal them anew."""
    hidden = w.seat != seat and not game.is_over
    hidden = hidden and json.loads(game.to_json())["rules"]["win_reveal"] == "hand_end"
    if not hidden:
        return (w.seat, w.tile, w.from_seat, w.kind, w.score.to_dict())
    return (w.seat, None if w.kind == "self_draw" else w.tile, w.from_seat, w.kind, None)


def view(game, seat):
    return (
        game.phase,
        game.scores,
        game.wall_remaining,
        game.hand(seat),
        game.legal_actions(seat),
        [(game.melds(s), game.discards(s), game.void(s)) for s in range(4)],
        [seen_win(game, seat, w) for w in game.wins],
        game.observe(seat).tobytes(),
        game.action_mask(seat).tobytes(),
    )


def test_the_seat_sees_the_same_game_and_the_hidden_tiles_are_conserved():
    checked = 0
    for i, (game, seat) in enumerate(positions()):
        copy = game.determinize(seat, i)
        assert view(copy, seat) == view(game, seat)
        assert hidden(copy, seat) == hidden(game, seat)
        Game.from_json(copy.to_json(), trusted=True)  # every invariant holds, 108 tiles among them
        checked += 1
    assert checked > 50


def test_the_copy_keeps_no_event_log_since_the_true_one_gives_the_deal_away():
    for i, (game, seat) in enumerate(positions(per_preset=1)):
        copy = game.determinize(seat, i)
        assert game.events and copy.events == [] and copy.events_for(seat) == []
        assert json.loads(copy.to_json())["logging"] is False


def test_the_hidden_tiles_move_and_the_seed_alone_fixes_them():
    moved = 0
    for game, seat in positions(per_preset=1):
        a, b = game.determinize(seat, 5), game.determinize(seat, 5)
        assert a.to_json() == b.to_json()
        if game.wall_remaining > 20:
            moved += a.to_json() != game.determinize(seat, 6).to_json()
            others = [s for s in range(4) if s != seat]
            moved += [a.hand(s) for s in others] != [game.hand(s) for s in others]
    assert moved > 10


def test_copies_play_to_the_end_and_leave_the_original_alone():
    rng = random.Random(3)
    for i, (game, seat) in enumerate(positions(per_preset=1, every=20)):
        before = game.to_json()
        copy = game.determinize(seat, i)
        while not copy.is_over:
            s = copy.to_act()[0]
            copy.act(s, rng.choice(copy.legal_actions(s)))
        assert sum(copy.scores) == 0
        assert game.to_json() == before


def test_the_three_tiles_passed_stay_in_the_receiving_hand():
    game = Game("xuezhan", seed=3)
    for s in range(4):
        game.act(s, game.default_action(s))
    exchange = next(e for e in game.events if e["type"] == "exchange")
    given = Counter(exchange["given"][0])
    [receiver] = [s for s in range(1, 4) if Counter(exchange["received"][s]) == given]
    for seed in range(30):
        held = Counter(str(t) for t in game.determinize(0, seed).hand(receiver))
        assert all(held[t] >= n for t, n in given.items())


def test_hidden_wilds_are_dealt_again_and_the_seats_own_stay():
    """In 幺鸡 the wilds (written 1s) hidden from the seat move between the other hands and the
    wall; the seat's own do not, and none is lost."""
    moved = 0
    for seed in range(6):
        game = Game("yaoji", seed=seed)
        while game.phase != "play":  # the exchange, if any, and the void picks
            for s in game.to_act():
                game.act(s, game.default_action(s))
        seat = game.to_act()[0]

        def wilds(g):
            return [g.hand(s).count(Tile("1s")) for s in range(4)] + [json.loads(g.to_json())["wall"].count("1s")]

        before = wilds(game)
        for k in range(5):
            after = wilds(game.determinize(seat, k))
            assert after[seat] == before[seat] and sum(after) == sum(before)
            moved += after != before
    assert moved > 10


def test_bad_arguments_raise_typed_errors():
    game = Game("chengdu", seed=1)
    with pytest.raises(XueliuError, match="seat"):
        game.determinize(4, 0)
    with pytest.raises(XueliuError, match="seed"):
        game.determinize(0, -1)
