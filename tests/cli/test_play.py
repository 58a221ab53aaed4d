"""What `xueliu play` shows at each decision (xueliu._play), checked against the engine: the
table's rivers, marks and hands, a win's value before it is chosen, and the events in words."""

from __future__ import annotations

import io
import random
import re
import typing

import pytest
from rich.console import Console

import xueliu
from xueliu import _play, cli
from xueliu import _terminal as term
from xueliu._presets import PATTERNS
from xueliu._words import WORDS, Words, language_of


def screen(seat: int = 0) -> _play.Screen:
    out = Console(file=io.StringIO(), width=200, no_color=True, highlight=False, markup=False, emoji=False)
    return _play.Screen(out, seat, list(cli.WINDS), plain=True)


def render(game: xueliu.Game, s: _play.Screen) -> dict[str, list[str]]:
    """The table view's rows by seat name: [seat cell, void, tiles, melds, river, score]."""
    s.rules = game.events[0]["rules"]
    s.out.print(_play.table_view(game, s))
    text = s.out.file.getvalue()
    s.out.file.seek(0), s.out.file.truncate()
    rows = [
        [c.strip() for c in line.strip("|").split("|")]
        for line in text.splitlines()
        if re.match(r"^\| (East|South|West|North)", line)
    ]
    return {row[0].split()[0]: row for row in rows}


def decisions(rules: str, seed: int, claims: float = 0.6):
    """Yields the game at every decision of seat 0 in a random game with frequent claims."""
    game, rng = xueliu.Game(rules, seed=seed), random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        if seat == 0:
            yield game
        legal = game.legal_actions(seat)
        wanted = [a for a in legal if a.kind in ("win", "pong", "kong", "swap")]
        game.act(seat, rng.choice(wanted if wanted and rng.random() < claims else legal))


@pytest.mark.parametrize("rules", ["chengdu_xueliu", "xuezhan", "yaoji"])
def test_the_table_view_shows_what_the_seat_may_see(rules):
    """At every decision of seat 0 in random games: each river in discard order, the table's
    latest discard marked unless a pong or kong took it, won seats marked with their winning tiles, the hand with the
    tile just drawn apart and wilds starred, other hands hidden."""
    s, seen, wanted = screen(), set(), {"marked", "drawn", "won"} | ({"wild"} if rules == "yaoji" else set())
    for seed in range(20):
        if seed >= 2 and wanted <= seen:
            break
        for game in decisions(rules, seed, claims=0.9):
            rows = render(game, s)
            events = game.events_for(0)
            last = next(e for e in reversed(events) if e["type"] in ("discard", "pong", "kong", "draw", "deal"))
            taken = next(
                (
                    e
                    for e in reversed(events)
                    if e["type"] == "discard" or e["type"] in ("pong", "kong") and e["from"] is not None
                ),
                None,
            )
            for seat, name in enumerate(cli.WINDS):
                cell, _, held, _, river, score = rows[name]
                won = [str(w.tile) for w in game.wins if w.seat == seat]
                marks = [t if won.count(t) == 1 else f"{t}x{won.count(t)}" for t in dict.fromkeys(won)]
                assert cell == name + (" won " + " ".join(marks) if won else "")
                marked = taken is not None and taken["type"] == "discard" and taken["seat"] == seat
                expected = [str(t) for t in game.discards(seat)]
                if marked:
                    expected[-1] = f">{expected[-1]}<"
                    seen.add("marked")
                assert river.split() == expected
                assert score == str(game.scores[seat])
                if seat != 0:
                    assert held == f"{len(game.hand(seat))} hidden"
            held = rows["East"][2]
            drawn = last["tile"] if last["type"] == "draw" and last["seat"] == 0 else None
            if drawn:
                seen.add("drawn")
                assert held.endswith(f"+ {drawn}*" if rules == "yaoji" and drawn == "1s" else f"+ {drawn}")
            wild = sum(t.index == 18 for t in game.hand(0)) - (drawn == "1s")
            if rules == "yaoji" and wild:
                seen.add("wild")
                assert re.search(rf"(^| )1{{{wild}}}s\*", held), held
            seen.update("won" for w in game.wins)
    assert wanted == seen


@pytest.mark.parametrize("rules", ["chengdu", "chengdu_xueliu", "yaoji", "dashiyou"])
def test_a_wins_value_shown_before_choosing_is_what_it_pays(rules):
    """The value offered with `win` (pattern, bonuses, fan, points and payers) is the value the
    engine settles when the win is taken."""
    checked = 0
    for seed in range(30):
        game, bot = xueliu.Game(rules, seed=seed), xueliu.Bot("greedy")
        while not game.is_over:
            seat = game.to_act()[0]
            if xueliu.Action.win() in game.legal_actions(seat):
                shown = _play.win_value(game, seat)
                before = len(game.events)
                game.act(seat, xueliu.Action.win())
                while not any(e["type"] == "win" and e["seat"] == seat for e in game.events[before:]):
                    other = game.to_act()[0]
                    game.act(
                        other,
                        xueliu.Action.pass_()
                        if xueliu.Action.pass_() in game.legal_actions(other)
                        else game.default_action(other),
                    )
                events = game.events[before:]
                at = next(i for i, e in enumerate(events) if e["type"] == "win" and e["seat"] == seat)
                paid = [e["amount"] for e in events[at + 1 :] if e["type"] == "payment" and e["payee"] == seat]
                assert shown == f"worth {term.score_words(events[at]['score'])}; {term.paid_words(paid)}"
                checked += 1
                break
            game.act(seat, bot.choose(game, seat))
    assert checked >= 10


def test_events_read_as_words():
    names = list(cli.WINDS)
    win = {
        "type": "win",
        "seat": 1,
        "tile": "5m",
        "from": None,
        "kind": "self_draw",
        "hand": None,
        "score": {"pattern": "basic", "bonuses": [], "fan": 0, "capped_fan": 0, "points": 1},
    }
    assert term.describe(win, names).plain == "South WINS on 5m by self-draw (自摸): basic, 0 fan, 1 point"
    rob = dict(win, kind="robbed_kong", **{"from": 2})
    assert "robbing West's kong (抢杠)" in term.describe(rob, names).plain
    start = {"type": "start", "seed": None, "rules": {"preset": "xuezhan"}, "dealer": 3}
    assert term.describe(start, names).plain == "New hand: xuezhan, North deals"
    dice = {"type": "dice", "purpose": "dealer", "seat": None, "rolls": [[1, 5], [4, 1], [2, 4, 3, 3], [6, 0]]}
    assert term.describe(dice, names).plain == "Dice for the dealer: East 1+5; South 4+1; West 2+4, then 3+3; North 6+0"
    exchange = {
        "type": "exchange",
        "direction": "clockwise",
        "given": [None, ["1m", "2m", "3m"], None, None],
        "received": [None, ["4p", "5p", "6p"], None, None],
    }
    assert (
        term.describe(exchange, names, viewer=1).plain.splitlines()[1]
        == "  You give 123m to East and receive 456p from West"
    )
    payment = {"type": "payment", "payer": 0, "payee": 2, "amount": 4, "reason": "not_ready"}
    assert term.describe(payment, names).plain == "  East pays West 4 (not ready at a drawn wall, 查叫)"
    assert all(f"reason.{r}" in WORDS for r in typing.get_args(xueliu.events.PaymentReason))
    assert term.paid_words([4, 4, 4]) == "12 points from 3 seats (4 each)"
    assert term.paid_words([1]) == "1 point from 1 seat"


def test_wilds_are_starred_in_hands_and_melds():
    assert term.tiles(["1s", "1s", "2s", "5m"], wilds=True).plain == "5m 2s 11s*"
    assert term.tiles(["1s", "2s"]).plain == "12s"
    assert (
        term.melds([("kong", xueliu.Tile("5m"), 1), ("concealed_kong", xueliu.Tile("9p"), 0)], wilds=True).plain
        == "[555m+1s*] [9999p]c"
    )


def test_exchanging_a_wild_is_refused_with_the_reason_and_the_wild_is_shown_as_one():
    """Issue 30, item 11: in `xueliu play --rules yaoji --seed 42` seat 0's 8th tile is a wild;
    its place list shows it as a wild, and picking it says a wild is never exchanged."""
    game = xueliu.Game("yaoji", seed=42)
    answers = iter(["8 9 10", ""])
    s = _play.Screen(screen().out, 0, list(cli.WINDS), plain=True, ask=lambda _: next(answers))
    s.rules = game.events[0]["rules"]
    assert str(game.hand(0)[7]) == "1s"
    action = _play._choose_exchange(game, s)
    text = s.out.file.getvalue()
    assert "8:1s*" in text and "A wild (1s*) is never given" in text
    assert "a wild (幺鸡, the 1s) is never passed in the exchange" in text
    assert action == game.default_action(0)


# ---------------------------------------------------------------------- the player's language (--lang)


def test_every_word_is_in_three_languages_and_every_engine_name_has_its_words():
    for key, texts in WORDS.items():
        assert len(texts) == 3 and all(texts), key
        holes = [set(re.findall(r"\{(\w+)\}", t)) for t in texts]
        assert holes[1] == holes[2] <= holes[0], f"{key}: {holes}"  # a translation never asks for more
    names = {
        "reason": typing.get_args(xueliu.events.PaymentReason),
        "end": typing.get_args(xueliu.events.EndReason),
        "win": typing.get_args(xueliu.events.WinKind),
        "kong": typing.get_args(xueliu.events.KongKind),
        "direction": typing.get_args(xueliu.events.Direction),
        "claim": typing.get_args(xueliu.events.Claim),
        "pattern": list(PATTERNS),
    }
    assert not [f"{p}.{n}" for p, ns in names.items() for n in ns if f"{p}.{n}" not in WORDS]


@pytest.mark.parametrize(
    "environ, language",
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh-Hans"),
        ({"LANG": "zh_TW.UTF-8"}, "zh-Hant"),
        ({"LANG": "zh_HK.UTF-8"}, "zh-Hant"),
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),  # LC_ALL first, as POSIX says
        ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "zh_SG"}, "zh-Hans"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_language_follows_the_locale(environ, language):
    assert language_of(environ) == language


# what a hand of chengdu (void, play, settlement) must say in each language, and must not
SAID = {
    "zh-Hans": (["新一局", "坐庄", "定缺", "打出", "结算", "你的选择"], ["New hand", "Settlement", "結算"]),
    "zh-Hant": (["新一局", "坐莊", "定缺", "打出", "結算", "你的選擇"], ["New hand", "Settlement", "结算"]),
    "en": (["New hand", "deals", "declares void", "discards", "Settlement", "Your move"], ["新一局", "结算"]),
}


@pytest.mark.parametrize("language", SAID)
def test_play_speaks_the_chosen_language(language):
    from click.testing import CliRunner

    args = ["play", "--rules", "chengdu", "--seed", "5", "--plain", "--lang", language]
    result = CliRunner().invoke(cli.cli, args, input="1\n" * 300, env={"LC_ALL": "", "LANG": "en_US.UTF-8"})
    assert result.exit_code == 0, result.output
    must, must_not = SAID[language]
    assert all(w in result.output for w in must), [w for w in must if w not in result.output]
    assert not any(w in result.output for w in must_not)


@pytest.mark.parametrize("locale, language", [("zh_TW.UTF-8", "zh-Hant"), ("zh_CN.UTF-8", "zh-Hans"), ("en_US", "en")])
def test_play_speaks_the_locales_language_without_lang(locale, language):
    from click.testing import CliRunner

    args = ["play", "--rules", "chengdu", "--seed", "5", "--plain"]
    result = CliRunner().invoke(cli.cli, args, input="1\n" * 300, env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": locale})
    assert result.exit_code == 0, result.output
    assert Words(language)("settlement") in result.output
