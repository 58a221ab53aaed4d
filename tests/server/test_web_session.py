"""Sessions (issue 28, 盘) on the web table, in a real Chromium (the server and browser of
test_web.py): the lobby's time limit reaches the table and its header, and the settlement at the
match's end shows each seat's placement points as the engine gives them."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from test_web import REPLAY_SEATS, LiveServer, _page, browser, create_table, live, replay_state  # noqa: F401 (fixtures)
from test_web_strings import TABLE

import xueliu


@pytest.fixture
def web(request: pytest.FixtureRequest) -> tuple[LiveServer, Any]:
    """test_web's server and browser (the fixtures by name: a parameter would shadow the import)."""
    return request.getfixturevalue("live"), request.getfixturevalue("browser")


def _create(server: LiveServer, settings: dict[str, Any]) -> str:
    body = json.dumps(settings).encode()
    request = urllib.request.Request(server.url + "/api/tables", body, {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)["table"]["id"]


def _over(server: LiveServer, table_id: str) -> Any:
    deadline = time.monotonic() + 60
    while server.table(table_id).status != "over":
        assert time.monotonic() < deadline, "the bots' match did not end"
        time.sleep(0.05)
    return server.table(table_id).match


@pytest.mark.parametrize("locale, language", [("en-US", "en"), ("zh-CN", "zh-Hans")])
def test_the_settlement_shows_placement_points_at_the_match_end(web: tuple[LiveServer, Any], locale, language) -> None:
    server, chromium = web
    bots = {"seats": ["greedy"] * 4, "hands": 2, "next_hand_delay": 0, "seed": 4}
    table_id = _create(server, bots)
    match = _over(server, table_id)
    pages = _page(chromium, locale=locale)
    pg = next(pages)
    pg.goto(f"{server.url}/#/t/{table_id}/watch")
    pg.wait_for_selector("#placement-3")
    shown = [pg.text_content(f"#placement-{s}") for s in range(4)]
    assert shown == [f"{p:g}" for p in match.placement_points]
    assert [pg.text_content(f"#total-{s}") for s in range(4)] == [f"{p:+d}" if p else "0" for p in match.totals]
    assert pg.text_content(".totals th:last-child") == TABLE["settle.placement"][language]
    next(pages, None)


def test_a_time_limit_chosen_in_the_lobby_reaches_the_table(web: tuple[LiveServer, Any]) -> None:
    server, chromium = web
    pages = _page(chromium)
    pg = next(pages)
    before = time.time()
    table_id = create_table(pg, server, "xuezhan", hands=4, seed=3, time_limit="30")
    table = server.table(table_id)
    assert table.config.time_limit == 30 * 60
    assert before + 1800 <= table.session_ends_at <= time.time() + 1800
    assert pg.text_content("#session") == "Session: 30 min left"
    next(pages, None)


def test_every_hand_of_a_finished_match_replays_from_its_settlement(web: tuple[LiveServer, Any]) -> None:
    """The settlement of a finished match links to #/replay/ID: the table's published log, every
    hand in the viewer's hand list, each stepped to its end as the engine holds it."""
    server, chromium = web
    table_id = _create(server, {"seats": ["greedy"] * 4, "hands": 2, "next_hand_delay": 0, "seed": 6})
    log = _over(server, table_id).log()
    pages = _page(chromium)
    pg = next(pages)
    pg.goto(f"{server.url}/#/t/{table_id}/watch")
    pg.click("#replay-match")
    pg.wait_for_selector("#replay-hand")
    assert pg.eval_on_selector_all("#replay-hand option", "(xs) => xs.length") == len(log["games"]) == 2
    for n, events in enumerate(log["games"]):
        pg.select_option("#replay-hand", str(n))
        pg.keyboard.press("End")
        assert pg.text_content("#step") == f"{len(events)} / {len(events)}"
        shown = pg.evaluate(REPLAY_SEATS)
        assert [{**s, "hand": sorted(s["hand"])} for s in shown] == replay_state(xueliu.Game.from_events(events))
    next(pages, None)


def test_a_finished_hand_of_a_match_in_play_replays_as_the_spectators_saw_it(web: tuple[LiveServer, Any]) -> None:
    """Between the hands of a match still in play, the table page links each finished hand to
    #/replay/ID/N, which steps that hand's public events (GET /api/tables/ID/hands/N); a hand not
    finished is refused."""
    server, chromium = web
    table_id = _create(server, {"seats": ["greedy"] * 4, "hands": 2, "next_hand_delay": 600, "seed": 8})
    deadline = time.monotonic() + 60
    while server.table(table_id).status != "between":
        assert time.monotonic() < deadline, "the first hand did not end"
        time.sleep(0.05)
    public = xueliu.Game.from_events(server.table(table_id).match.log()["games"][0]).public_events()
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}/hands/0", timeout=10) as response:
        assert json.load(response)["events"] == public
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.url}/api/tables/{table_id}/hands/1", timeout=10)
    assert refused.value.code == 409
    pages = _page(chromium)
    pg = next(pages)
    pg.goto(f"{server.url}/#/t/{table_id}/watch")
    pg.click("#continue")  # the first hand's settlement, shown between the hands
    pg.click("#finished a[data-hand='0']")
    pg.wait_for_selector("#step")
    pg.keyboard.press("End")
    assert pg.text_content("#step") == f"{len(public)} / {len(public)}"
    rivers = pg.eval_on_selector_all(
        ".replay-seat", "(xs) => xs.map((x) => [...x.querySelectorAll('.river .tile')].map((t) => t.dataset.tile))"
    )
    game = xueliu.Game.from_events(server.table(table_id).match.log()["games"][0])
    assert rivers == [[str(t) for t in game.discards(s)] for s in range(4)]
    next(pages, None)
