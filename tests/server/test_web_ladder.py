"""The leaderboard page (static/ladder.html) in a real Chromium against a real server whose ladder
holds ranked sets recorded in its storage: the rows are the JSON endpoint's, best first, reference
bots marked, one preset at a time, and the page fits a phone's width. Skips as test_web.py does
without Chromium or Playwright (fails under CI=true)."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, Iterator

import pytest
from test_web import CHROMIUM, SHOTS, _missing, _need

create_app = pytest.importorskip("xueliu.server").create_app
from xueliu.server.ladder import Ladder, ratings  # noqa: E402
from xueliu.server.ladder_store import LadderStore, PlayedSet  # noqa: E402

SETS = [
    PlayedSet(["alpha", "random", "greedy", "ismcts:25"], [12.0, -30.0, 9.0, 9.0]),
    PlayedSet(["alpha", "beta", "random", "greedy"], [6.0, -3.0, -12.0, 9.0]),
    PlayedSet(["beta", "random", "greedy", "ismcts:25"], [-1.5, -24.0, 12.0, 13.5]),
]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if _missing:
        _need(_missing)
    import uvicorn

    db = str(tmp_path_factory.mktemp("ladder") / "tables.db")
    store = LadderStore(db)
    for n in range(1, len(SETS) + 1):
        fitted, counts = ratings(SETS[:n])
        store.record("chengdu", n, SETS[n - 1], fitted, counts)
    fitted, counts = ratings(SETS[:1])
    store.record("yaoji", 9, SETS[0], fitted, counts)
    app = create_app(db, ladder=Ladder(store))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    store.close()


@pytest.fixture(scope="module")
def browser(live: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def board(page: Any) -> list[list[str]]:
    page.wait_for_selector("body[data-ready=true]", timeout=20_000)
    return page.eval_on_selector_all(
        "#board tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent).concat(r.className))"
    )


def signed(x: float) -> str:
    return ("+" if x >= 0 else "−") + f"{abs(x):.2f}"


def test_the_leaderboard_shows_the_servers_ratings_best_first(browser: Any, live: str) -> None:
    import json
    import urllib.request

    with urllib.request.urlopen(live + "/api/ladder?preset=chengdu", timeout=10) as r:
        expected = json.loads(r.read())["ladder"]["chengdu"]
    page = browser.new_page()
    page.goto(live + "/")
    page.click("#ladder-link")  # the lobby links to the leaderboard
    page.wait_for_url("**/ladder.html")
    rows = board(page)
    assert [row[1] for row in rows] == [bot["name"] for bot in expected]
    ratings_shown = [bot["rating"] for bot in expected]
    assert ratings_shown == sorted(ratings_shown, reverse=True)
    for row, bot in zip(rows, expected):
        assert row[2] == signed(bot["rating"]) and row[4] == str(bot["sets"])
        assert (row[5] == "reference") == bot["reference"]
        if bot["name"] != "random":
            assert row[3] == f"{signed(bot['ci_low'])} … {signed(bot['ci_high'])}"
    assert {row[1] for row in rows if row[5] != "reference"} == {"alpha", "beta"}
    assert page.locator("#manifest li").count() == 4
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "ladder.png"))
    page.close()


def test_one_preset_at_a_time_chosen_in_the_select_and_kept_in_the_url(browser: Any, live: str) -> None:
    page = browser.new_page()
    page.goto(live + "/ladder.html?preset=yaoji")
    assert {row[1] for row in board(page)} == {"alpha", "random", "greedy", "ismcts:25"}
    page.select_option("#preset", "xuezhan")
    assert page.locator("#empty").is_visible() and page.locator("#board tbody tr").count() == 0
    assert page.url.endswith("?preset=xuezhan")
    page.select_option("#preset", "chengdu")
    assert len(board(page)) == 5
    page.close()


def test_the_leaderboard_fits_a_phone(browser: Any, live: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(live + "/ladder.html")
    board(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()
