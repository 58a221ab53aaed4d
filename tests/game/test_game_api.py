"""The Python API of a game: actions, illegal actions, clone, snapshots, replays, the per-seat
view of the log (RULES.md §12) and timeouts' default actions."""

import copy
import json
import pickle
import random

import pytest

import xueliu
from xueliu import Action, Game, IllegalActionError, SnapshotError, Tile, XueliuError


def play(game, rng, steps=10_000, until=None):
    """Random legal play; returns the (seat, action) pairs taken."""
    taken = []
    for _ in range(steps):
        if game.is_over or (until and until(game)):
            break
        s = game.to_act()[0]
        a = rng.choice(game.legal_actions(s))
        game.act(s, a)
        taken.append((s, a))
    return taken


def test_actions_construct_compare_hash_print_and_pickle():
    assert Action.discard("5m") == Action.discard(Tile("5m")) == Action.discard(4)
    assert Action.exchange("312m") == Action.exchange(["1m", "2m", "3m"])
    assert len({Action.pong(), Action.pong(), Action.pass_()}) == 2
    assert [
        str(a)
        for a in [
            Action.exchange("123m"),
            Action.void("p"),
            Action.discard("5m"),
            Action.pong(),
            Action.kong("9s"),
            Action.win(),
            Action.pass_(),
        ]
    ] == ["exchange 123m", "void p", "discard 5m", "pong", "kong 9s", "win", "pass"]
    assert [a.kind for a in [Action.win(), Action.pass_(), Action.void("m")]] == ["win", "pass", "void"]
    assert Action.kong("9s").tile == Tile("9s") and Action.void("s").suit == "s"
    assert Action.exchange("123m").tiles == [Tile("1m"), Tile("2m"), Tile("3m")]
    assert repr(Action.discard("5m")) == "Action.discard('5m')" and repr(Action.pass_()) == "Action.pass_()"
    for a in [Action.exchange("123m"), Action.discard("5m"), Action.pass_()]:
        assert pickle.loads(pickle.dumps(a)) == a and Action.parse(str(a)) == a
    for bad in [
        lambda: Action.void("x"),
        lambda: Action.discard("55m"),
        lambda: Action.exchange("12m"),
        lambda: Action.parse("draw 5m"),
    ]:
        with pytest.raises(XueliuError):
            bad()


def test_illegal_actions_raise_say_why_and_change_nothing():
    game = Game("chengdu", seed=9)
    for s in range(4):
        game.act(s, game.default_action(s))
    dealer = game.dealer
    other = (dealer + 1) % 4
    before = game.to_json()
    cases = [
        (other, Action.discard("5m"), "cannot act now"),
        (dealer, Action.void("m"), "not a decision"),
        (dealer, Action.pong(), "not a decision"),
    ]
    for seat in (7, -1):
        with pytest.raises(xueliu.ArgumentError, match="does not exist"):
            game.act(seat, Action.win())
    not_held = next(t for t in xueliu.parse_tiles("123456789m123456789p123456789s") if t not in game.hand(dealer))
    cases.append((dealer, Action.discard(not_held), "not in hand"))
    for seat, action, why in cases:
        with pytest.raises(IllegalActionError, match=why) as info:
            game.act(seat, action)
        if seat == dealer:
            assert "legal:" in str(info.value)
        assert game.to_json() == before
    with pytest.raises(TypeError):
        game.act(dealer, 5)


def test_to_act_members_always_have_a_legal_action_and_others_none():
    rng = random.Random(1)
    for seed in range(20):
        game = Game("chengdu_xueliu", seed=seed)
        while not game.is_over:
            acting = game.to_act()
            assert acting
            for s in range(4):
                assert bool(game.legal_actions(s)) == (s in acting)
            s = acting[0]
            game.act(s, rng.choice(game.legal_actions(s)))
        assert game.to_act() == [] and game.phase == "over"


def test_clone_is_independent_and_equal():
    game = Game("xuezhan", seed=4)
    play(game, random.Random(2), steps=30)
    twin = game.clone()
    assert twin.to_json() == game.to_json()
    play(twin, random.Random(3), steps=5)
    assert twin.to_json() != game.to_json()
    assert copy.deepcopy(game).to_json() == game.to_json()


@pytest.mark.parametrize("preset", ["dashiyou", "sanxia", "chengdu", "chengdu_xueliu", "xuezhan"])
def test_snapshots_restore_exactly_at_every_step(preset):
    rng = random.Random(4)
    game = Game(preset, seed=8)
    while True:
        text = game.to_json()
        restored = Game.from_json(text)
        assert restored.to_json() == text and restored.events == game.events
        if game.is_over:
            break
        s = game.to_act()[0]
        a = rng.choice(game.legal_actions(s))
        game.act(s, a)
        restored.act(s, a)
        assert restored.to_json() == game.to_json()


def test_a_snapshot_keeps_hidden_decisions_and_the_rng():
    game = Game({"preset": "chengdu", "exchange": "random"}, seed=3)
    game.act(1, game.default_action(1))
    restored = Game.from_json(game.to_json())
    assert restored.to_act() == [0, 2, 3]
    for g in (game, restored):
        for s in (0, 2, 3):
            g.act(s, g.default_action(s))
    assert restored.to_json() == game.to_json()


@pytest.mark.parametrize(
    "edit, why",
    [
        (lambda d: d["seats"][0]["hand"].append("5m"), "copies of 5m|holds"),
        (lambda d: d["wall"].pop(), "copies"),
        (lambda d: d.update(scores=[1, 0, 0, 0]), "sum to zero"),
        (lambda d: d.update(version=9), "version"),
        (lambda d: d["seats"][1].update(void="x"), "suit"),
        (lambda d: d.update(dealer=4), "dealer"),
        (lambda d: d["rules"].update(late_kong="sometimes"), "late_kong"),
        (lambda d: d["pending"].update(phase="nap"), "phase"),
        (lambda d: d.pop("river"), "river is missing"),
    ],
)
def test_from_json_rejects_inconsistent_snapshots(edit, why):
    game = Game("chengdu", seed=5)
    play(game, random.Random(5), steps=25)
    data = json.loads(game.to_json())
    edit(data)
    with pytest.raises(SnapshotError, match=why):
        Game.from_json(json.dumps(data))
    for bad in ["", "{", "[]", "null", '{"version": 1}']:
        with pytest.raises(SnapshotError):
            Game.from_json(bad)


def test_replay_from_actions_and_from_the_log():
    rng = random.Random(6)
    for preset in ["chengdu", "dashiyou", "xuezhan"]:
        game = Game(preset, seed=12)
        taken = play(game, rng)
        again = Game.replay(preset, 12, taken)
        assert again.to_json() == game.to_json()
        from_log = Game.from_events(game.events)
        assert from_log.events == game.events and from_log.scores == game.scores
        assert Game.from_events(json.dumps(game.events)).to_json() == game.to_json()
    edited = game.events
    edited[-1]["scores"] = [0, 0, 0, 0] if edited[-1]["scores"] != [0, 0, 0, 0] else [1, -1, 0, 0]
    with pytest.raises(SnapshotError, match="different log"):
        Game.from_events(edited)


def test_events_for_a_seat_hide_what_it_may_not_see():
    game = Game({"preset": "chengdu_xueliu"}, seed=21)
    play(game, random.Random(7))
    full = game.events
    for viewer in range(4):
        view = game.events_for(viewer)
        assert view[0]["seed"] is None  # the seed would reveal the wall
        for e in view:
            if e["type"] == "deal":
                assert (e["tiles"] is None) == (e["seat"] != viewer)
                if e["seat"] != viewer:
                    assert e["count"] in (13, 14)
            if e["type"] == "draw" and e["seat"] != viewer:
                assert e["tile"] is None
            if e["type"] == "exchange":
                assert [x is None for x in e["given"]] == [s != viewer for s in range(4)]
            if e["type"] == "win" and e["seat"] != viewer:
                assert e["hand"] is None and e["score"] and e["tile"]
            if e["type"] == "pass":
                assert e["seat"] == viewer
        public = [e for e in full if e["type"] in ("discard", "pong", "kong", "void", "payment", "end")]
        assert [e for e in view if e["type"] in ("discard", "pong", "kong", "void", "payment", "end")] == public


def test_the_public_view_hides_every_seats_tiles():
    game = Game({"preset": "chengdu_xueliu"}, seed=22)
    play(game, random.Random(8))
    public = game.public_events()
    assert public[0]["seed"] is None
    for e in public:
        assert e["type"] != "pass"
        if e["type"] == "deal":
            assert e["tiles"] is None and e["count"] in (13, 14)
        if e["type"] == "draw":
            assert e["tile"] is None
        if e["type"] == "exchange":
            assert e["given"] == e["received"] == [None] * 4
        if e["type"] == "win":
            assert e["hand"] is None and e["score"] and e["tile"]
    # every seat sees all the spectator sees: its view less its own passes, hidden fields aside
    shown = [e for e in game.events_for(1) if not (e["type"] == "pass")]
    assert [e["type"] for e in shown] == [e["type"] for e in public]


def test_default_actions_play_a_whole_hand():
    for preset in ["chengdu", "dashiyou", "xuezhan", "chengdu_xueliu", "sanxia"]:
        game = Game(preset, seed=31)
        while not game.is_over:
            for s in game.to_act():
                a = game.default_action(s)
                assert a in game.legal_actions(s)
                game.act(s, a)
        assert sum(game.scores) == 0
    with pytest.raises(IllegalActionError, match="need not decide"):
        game.default_action(0)


def test_the_wildcard_variant_is_played_as_xuezhan_with_a_cap():
    Game("yaoji", seed=1)
    with pytest.raises(xueliu.RulesError, match="xuezhan"):
        Game({"preset": "yaoji", "mode": "xueliu"}, seed=1)
    with pytest.raises(xueliu.RulesError, match="cap_fan"):
        Game({"preset": "yaoji", "cap_fan": None}, seed=1)


def test_rules_objects_names_and_dicts_all_start_a_game_and_the_log_holds_to_dict():
    rules = xueliu.Rules.preset("chengdu", exchange="opposite")
    by_object = Game(rules, seed=3)
    by_dict = Game({"preset": "chengdu", "exchange": "opposite"}, seed=3)
    full_dict = Game(rules.to_dict(), seed=3)
    assert by_object.to_json() == by_dict.to_json() == full_dict.to_json()
    assert by_object.events[0]["rules"] == rules.to_dict()
    assert Game("chengdu", seed=3).events[0]["rules"] == xueliu.Rules.preset("chengdu").to_dict()
    with pytest.raises(xueliu.RulesError):
        Game("chengdoo", seed=1)


def test_win_scores_are_score_objects_matching_the_log():
    rng = random.Random(9)
    for seed in range(40):
        game = Game("chengdu_xueliu", seed=seed)
        play(game, rng)
        logged = [e["score"] for e in game.events if e["type"] == "win"]
        assert [w.score.to_dict() for w in game.wins] == logged
        if logged:
            assert isinstance(game.wins[0].score, xueliu.Score)
            return
    raise AssertionError("no win in 40 random hands")


@pytest.mark.parametrize("preset", ["xuezhan", "chengdu_xueliu"])
def test_in_hand_is_until_a_win_in_xuezhan_and_always_in_xueliu(preset):
    xueliu_mode = xueliu.Rules.preset(preset).mode == "xueliu"
    left = 0
    for seed in range(5):
        game, bot = xueliu.Game(preset, seed=seed), xueliu.Bot("greedy", seed=seed)
        while not game.is_over:
            won = {w.seat for w in game.wins}
            assert [game.in_hand(s) for s in range(4)] == [xueliu_mode or s not in won for s in range(4)]
            left += sum(not game.in_hand(s) for s in range(4))
            seat = game.to_act()[0]
            game.act(seat, bot.choose(game, seat))
    assert (left == 0) == xueliu_mode
    with pytest.raises(xueliu.ArgumentError, match="seat"):
        game.in_hand(4)


@pytest.mark.parametrize("preset", ["chengdu", "chengdu_xueliu", "yaoji"])
def test_check_says_what_act_would_and_changes_nothing(preset):
    # Every action id's text at every step: `check` raises exactly what `act` raises on a copy
    # (type and message), and the game's snapshot is the same before and after it.
    names = [xueliu.action_id_name(i) for i in range(xueliu.ACTION_COUNT)]
    for seed in range(2):
        game, bot = xueliu.Game(preset, seed=seed), xueliu.Bot("greedy", seed=seed)
        while not game.is_over:
            seat = game.to_act()[0]
            before = game.to_json()
            for text in names[::7] + [str(a) for a in game.legal_actions(seat)]:
                for s in (seat, (seat + 1) % 4):
                    try:
                        game.clone().act(s, text)
                        acted = None
                    except xueliu.XueliuError as e:
                        acted = (type(e), str(e))
                    try:
                        game.check(s, text)
                        checked = None
                    except xueliu.XueliuError as e:
                        checked = (type(e), str(e))
                    assert checked == acted, (s, text)
            assert game.to_json() == before
            game.act(seat, bot.choose(game, seat))
