"""The web table's one string table (static/strings.json) and the page code that reads it.

Every key is in all three languages with the same placeholders; the 繁體 set uses traditional
forms and the 简体 set simplified ones; the rule words are the ones Sichuan players say; every name
the engine emits has its words; and the page code (static/js) holds no user-facing literal of its
own: a Chinese character or an English phrase outside the table fails here.
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pytest

import xueliu
from xueliu import events
from xueliu._presets import PATTERNS

STATIC = Path(xueliu.__file__).parent / "server" / "static"
LANGUAGES = ("en", "zh-Hans", "zh-Hant")
TABLE: dict[str, dict[str, str]] = json.loads((STATIC / "strings.json").read_text(encoding="utf-8"))

# characters whose simplified and traditional forms differ, among the words the table uses
SIMPLIFIED_ONLY = "杠万条鸡风将龙钩罗猪税转补价点抢换门对带摊无张庄胜边开过后时针选择里给从来还总结种设计数标准宽长钟观间进链复制连断务线规则录铺关继续显尽随机鸟马这与凭浏览页别赔离确场发齐读个顶称昵钱联竞赛际国乐峡师当"
TRADITIONAL_ONLY = "槓萬條雞風將龍鉤羅豬稅轉補價點搶換門對帶攤無張莊勝邊開過後時針選擇裡給從來還總結種設計數標準寬長鐘觀間進鏈複製連斷務線規則錄鋪關繼續顯盡隨機鳥馬這與憑瀏覽頁別賠離確場發齊讀個頂稱暱錢聯競賽際國樂峽師當"

# the rule words as Sichuan players say them (seeds 000-004), simplified and traditional
RULE_WORDS = [
    ("刮风", "刮風"),
    ("下雨", "下雨"),
    ("查叫", "查叫"),
    ("花猪", "花豬"),
    ("退税", "退稅"),
    ("呼叫转移", "呼叫轉移"),
    ("杠上花", "槓上花"),
    ("杠上炮", "槓上炮"),
    ("抢杠胡", "搶槓胡"),
    ("定缺", "定缺"),
    ("换三张", "換三張"),
    ("过胡", "過胡"),
    ("自摸", "自摸"),
    ("点炮", "點炮"),
    ("托管", "託管"),
    ("流局", "流局"),
    ("摊牌", "攤牌"),
    ("听牌", "聽牌"),
    ("幺鸡", "幺雞"),
]


def _all(language: str) -> str:
    return "\n".join(entry[language] for entry in TABLE.values())


def test_every_key_is_in_all_three_languages() -> None:
    for key, entry in TABLE.items():
        assert set(entry) == set(LANGUAGES), f"{key}: has {sorted(entry)}, wants {LANGUAGES}"
        assert all(isinstance(text, str) and text for text in entry.values()), f"{key}: an empty text"
        holes = {lang: set(re.findall(r"\{(\w+)\}", text)) for lang, text in entry.items()}
        # the two Chinese sets fill the same holes; English may differ ("East 东" is "东家", 五万 is "5m")
        assert holes["zh-Hans"] == holes["zh-Hant"], f"{key}: {holes}"


def test_each_chinese_set_keeps_to_its_script() -> None:
    for key, entry in TABLE.items():
        hans, hant = entry["zh-Hans"], entry["zh-Hant"]
        assert not set(hans) & set(TRADITIONAL_ONLY), f"{key}: traditional form in 简体: {hans}"
        assert not set(hant) & set(SIMPLIFIED_ONLY), f"{key}: simplified form in 繁體: {hant}"


@pytest.mark.parametrize("simplified, traditional", RULE_WORDS)
def test_the_rule_words_are_the_players_words(simplified: str, traditional: str) -> None:
    assert simplified in _all("zh-Hans")
    assert traditional in _all("zh-Hant")


def test_every_name_the_engine_emits_has_its_words() -> None:
    names = {
        "pattern": list(PATTERNS),
        "reason": typing.get_args(events.PaymentReason),
        "end": typing.get_args(events.EndReason),
        "winkind": typing.get_args(events.WinKind),
        "kongkind": typing.get_args(events.KongKind),
        "direction": typing.get_args(events.Direction),
        "verb": typing.get_args(events.Claim),
        "preset": xueliu.Rules.presets(),
    }
    missing = [
        f"{prefix}.{name}"
        for prefix, all_names in names.items()
        for name in all_names
        if f"{prefix}.{name}" not in TABLE
    ]
    assert not missing, f"the string table lacks {missing}"


def test_every_key_the_page_asks_for_is_in_the_table() -> None:
    code = "\n".join(p.read_text(encoding="utf-8") for p in sorted((STATIC / "js").glob("*.js")))
    asked = set(re.findall(r"\bt\(\s*\"([\w.:-]+)\"", code)) | set(re.findall(r"\? \"([a-z]+\.[\w.]+)\" : \"", code))
    asked |= set(re.findall(r"\? \"[a-z]+\.[\w.]+\" : \"([a-z]+\.[\w.]+)\"", code))
    assert asked and not asked - set(TABLE), f"asked for but not in the table: {sorted(asked - set(TABLE))}"


# ---------------------------------------------------------------------- no literal outside the table


# the tokens that matter when looking for literals: comments, quoted strings, braces, backquotes
TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|[`{}]", re.S)
TEMPLATE_TEXT = re.compile(r"(?:\\.|[^`\\$]|\$(?!\{))*", re.S)


def literals(code: str) -> list[tuple[int, str]]:
    """The string literals of JavaScript ``code`` with their line numbers, comments skipped; a
    template's text parts joined by a NUL where a ${...} was."""
    out: list[tuple[int, str]] = []
    _code(code, 0, out)
    return out


def _code(code: str, i: int, out: list[tuple[int, str]]) -> int:
    """Scans code from ``i`` to the end or past the "}" that closes a template's ${...}."""
    depth = 0
    while (m := TOKEN.search(code, i)) is not None:
        token, i = m.group(), m.end()
        if token == "{":
            depth += 1
        elif token == "}":
            if depth == 0:
                return i
            depth -= 1
        elif token == "`":
            i = _template(code, i, out)
        elif token[0] in "\"'":
            out.append((code.count("\n", 0, m.start()) + 1, token[1:-1]))
    return len(code)


def _template(code: str, i: int, out: list[tuple[int, str]]) -> int:
    line, parts = code.count("\n", 0, i) + 1, []
    while True:
        text = TEMPLATE_TEXT.match(code, i)
        assert text is not None  # the pattern matches the empty string
        parts.append(text.group())
        i = text.end()
        if not code.startswith("${", i):
            out.append((line, "".join(parts)))
            return i + 1
        parts.append("\0")
        i = _code(code, i + 2, out)


CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
PHRASE = re.compile(r"[A-Za-z]{2,}[,;:!?]? [A-Za-z]{2,}|^[A-Z][a-z]+[.!?…]?$")
KEY_NAMES = {"Enter"}  # a key's name as printed on the keyboard, in every language
SELECTOR = re.compile(r"^[#.\[]|\[data-|^[a-z0-9]+[.#]")


def stray(text: str) -> bool:
    """A literal a person would read: any Chinese, or English words that are not a CSS selector."""
    if CJK.search(text):
        return True
    if text in KEY_NAMES:
        return False
    return bool(PHRASE.search(text)) and not SELECTOR.search(text)


def test_the_page_code_holds_no_user_facing_literal() -> None:
    found = [
        f"{path.name}:{line}: {text!r}"
        for path in sorted((STATIC / "js").glob("*.js"))
        for line, text in literals(path.read_text(encoding="utf-8"))
        if stray(text)
    ]
    assert not found, "user-facing text belongs in static/strings.json:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "code, flagged",
    [
        ('h("p", "Not your turn yet.")', True),
        ('h("b", "Ready 听牌: ")', True),
        ("say(`Time ran out: played ${a} for you.`)", True),
        ('h("button", "Continue")', True),
        ('h("p", t("table.sent"))', False),
        ('q("#actions button[data-key=\\"x\\"]")', False),
        ("h(`span.chip${open}`, `${N.wind(s)} ${label}`)", False),
        ('// a comment in "plain English words"\nh("p", t("x"))', False),
    ],
)
def test_the_scan_finds_what_it_should(code: str, flagged: bool) -> None:
    assert any(stray(text) for _, text in literals(code)) == flagged
