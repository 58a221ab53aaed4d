"""The web table in the player's language, in a real Chromium (the server and browser of
test_web.py): 简体 for a zh-CN browser, 繁體 for zh-TW, English for en-US; the switch redraws the
page in place (a table keeps its socket and its hand) and is remembered."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web import LiveServer, _page, advance_to, browser, check_view, create_table, live, shot  # noqa: F401 (test_web's fixtures, registered here by the import)
from test_web_strings import SIMPLIFIED_ONLY, TABLE, TRADITIONAL_ONLY

import xueliu
from xueliu._presets import DESCRIPTIONS


@pytest.fixture
def web(request: pytest.FixtureRequest) -> tuple[LiveServer, Any]:
    """test_web's server and browser (the fixtures by name: a parameter would shadow the import)."""
    return request.getfixturevalue("live"), request.getfixturevalue("browser")


LOCALES = {"zh-CN": "zh-Hans", "zh-TW": "zh-Hant", "en-US": "en"}

# the Latin words a Chinese page may show: the presets' and bots' own names, the project's, a key's
PROPER_NAMES = [*xueliu.Rules.presets(), "ismcts", "greedy", "random", "xueliu", "T/TFMJ", "Enter"]


def words(key: str, language: str, **params: Any) -> str:
    text = TABLE[key][language]
    return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), text)


READ_TEXT = """(where) => {
  const lang = document.querySelector("#lang");
  if (lang) lang.hidden = true;
  const text = document.querySelector(where).innerText;
  if (lang) lang.hidden = false;
  return text;
}"""


def assert_written_in(pg: Any, language: str, where: str = "body", *names: str) -> None:
    """No English word (beyond proper names and tiles such as 5m) on a Chinese page, and no
    character of the other Chinese script; the language switch, naming each in its own words, aside."""
    text = pg.evaluate(READ_TEXT, where)
    if language == "en":
        return
    for name in sorted([*PROPER_NAMES, *names], key=len, reverse=True):
        text = text.replace(name, "")
    latin = re.findall(r"[A-Za-z]{2,}", text)
    assert not latin, f"English words on the {language} page: {sorted(set(latin))}"
    other = TRADITIONAL_ONLY if language == "zh-Hans" else SIMPLIFIED_ONLY
    mixed = sorted(set(text) & set(other))
    assert not mixed, f"characters of the other script on the {language} page: {mixed}"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_lobby_speaks_the_browsers_language(web: tuple[LiveServer, Any], locale: str) -> None:
    server, chromium = web
    language = LOCALES[locale]
    pages = _page(chromium, locale=locale)
    pg = next(pages)
    pg.goto(server.url + "/")
    pg.wait_for_selector("input[name=preset]")
    shown = pg.evaluate("() => [document.documentElement.lang, document.title]")
    assert shown == [language, words("page.title", language)]
    assert pg.text_content("h1") == words("lobby.title", language)
    assert pg.text_content("#create-table") == words("lobby.create", language)
    assert pg.input_value("#lang") == language
    presets = xueliu.Rules.presets()
    described = pg.eval_on_selector_all(".preset span", "(xs) => xs.map((x) => x.textContent)")
    assert described == [words(f"preset.{p}", language, description=DESCRIPTIONS[p]) for p in presets]
    assert_written_in(pg, language)
    shot(pg, f"lobby-{language}")
    next(pages, None)


def test_a_table_in_chinese_switches_in_place(web: tuple[LiveServer, Any]) -> None:
    """A 简体 table: the log, the header and the buttons in Chinese; switched to 繁體 and then
    English, the same page object redraws (its socket stays open) and the log is said again."""
    server, chromium = web
    pages = _page(chromium, locale="zh-CN")
    pg = next(pages)
    table_id = create_table(pg, server, "xuezhan", hands=1, seed=3)
    advance_to(pg, server, table_id, lambda g: g.phase == "play" and len(g.discards(0)) >= 2)
    assert pg.text_content("#hand-no") == words("table.hand_of", "zh-Hans", hand=1, hands=1)
    log = pg.text_content("#log")
    assert "打出" in log and "discarded" not in log
    assert_written_in(pg, "zh-Hans", ".table-page", table_id)
    shot(pg, "table-zh-Hans")
    pg.evaluate("() => (window.before = window.xueliuPage)")
    pg.select_option("#lang", "zh-Hant")
    pg.wait_for_function("() => document.documentElement.lang === 'zh-Hant'")
    assert_written_in(pg, "zh-Hant", ".table-page", table_id)
    assert "打出" in pg.text_content("#log")
    pg.select_option("#lang", "en")
    pg.wait_for_function("() => document.querySelector('#log').textContent.includes('discarded')")
    assert pg.evaluate("() => window.before === window.xueliuPage && window.xueliuPage.state === 'open'")
    assert pg.text_content("#hand-no") == "Hand 1 of 1"
    check_view(pg, server.table(table_id).match.game, 0)  # the same hand, still in play
    next(pages, None)


def test_the_switch_is_remembered(web: tuple[LiveServer, Any]) -> None:
    """A zh-CN browser whose player chose English keeps English after a reload and on the replay
    page; choosing 繁體 later holds for a new page of the same browser."""
    server, chromium = web
    pages = _page(chromium, locale="zh-CN")
    pg = next(pages)
    pg.goto(server.url + "/")
    pg.wait_for_selector("#create-table")
    assert pg.text_content("#create-table") == words("lobby.create", "zh-Hans")
    pg.select_option("#lang", "en")
    pg.wait_for_function("() => document.querySelector('#create-table').textContent === 'Create table 开桌'")
    pg.reload()
    pg.wait_for_selector("#create-table")
    assert pg.text_content("#create-table") == words("lobby.create", "en")
    pg.click("#replay-link")
    pg.wait_for_selector("#dropzone")
    assert pg.text_content(".replay-page .tag") == words("replay.title", "en")
    pg.select_option("#lang", "zh-Hant")
    pg.wait_for_function("() => document.documentElement.lang === 'zh-Hant'")
    assert_written_in(pg, "zh-Hant")
    other = pg.context.new_page()
    other.goto(server.url + "/")
    other.wait_for_selector("#create-table")
    assert other.text_content("#create-table") == words("lobby.create", "zh-Hant")
    other.close()
    next(pages, None)
