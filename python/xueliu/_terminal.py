"""How tiles, events and tables read in the terminal, for the ``xueliu`` command.

Two looks from the same functions: *fancy* colours each suit (万 red, 筒 blue, 条 green) for a
terminal, *plain* is the text form (``123m 45p``) with ASCII tables, for pipes, logs and tests.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ._words import ENGLISH, Words
from ._xueliu import Tile

SUIT_STYLE = {"m": "bold red", "p": "bold blue", "s": "bold green"}
MELD_COPIES = {"pong": 3, "kong": 4, "concealed_kong": 4}
WILD = 18  # 1s: a wild (幺鸡) when the rules have wilds
WILD_STYLE = "bold magenta"


def console(plain: bool, stderr: bool = False, width: int = 160) -> Console:
    """A console for stdout (or stderr): no colour or markup tricks when ``plain``, and then
    ``width`` columns (a pipe has none of its own)."""
    if plain:
        return Console(
            force_terminal=False, no_color=True, highlight=False, emoji=False, markup=False, width=width, stderr=stderr
        )
    return Console(highlight=False, emoji=False, markup=False, stderr=stderr)


def table(title: str, plain: bool, *columns: str) -> Table:
    """A table with ``columns``, drawn with ASCII lines when ``plain``."""
    t = Table(title=title, box=box.ASCII if plain else box.ROUNDED, title_justify="left")
    for i, c in enumerate(columns):
        t.add_column(c, no_wrap=i == 0, overflow="fold")
    return t


LABEL_MIN = 24  # a row's label wraps over two or three lines at most


def keep_words(t: Table, narrow: int = 11) -> Table:
    """Fixes each value column's width at most ``narrow`` (never less than its longest word) and
    lets the first column take the rest, wrapping but never narrower than ``LABEL_MIN`` (or its
    longest line): a terminal of 120 columns then fits seven presets side by side, every cell
    wrapped between words, never inside one. A column already ``no_wrap`` keeps its cells whole."""
    for i, column in enumerate(t.columns):
        cells = [str(cell) for cell in [column.header, *column.cells]]
        longest_word = max(cell_len(w) for cell in cells for w in cell.split() or [""])
        if column.no_wrap and i > 0:
            continue
        if i == 0:
            longest = max(cell_len(c) for c in cells)
            column.no_wrap, column.min_width = False, max(longest_word, min(longest, LABEL_MIN))
        else:
            column.width = max(longest_word, min(max(cell_len(c) for c in cells), narrow))
    return t


def fits(out: Console, t: Table) -> bool:
    """True when ``t``, laid out by :func:`keep_words`, is drawn within ``out``'s width: its
    columns' set widths, each with a space either side and a line before it, and the last line."""
    return sum((c.width or c.min_width or 0) + 3 for c in t.columns) + 1 <= out.width


def split_evenly(items: Sequence[str], parts: int) -> list[Sequence[str]]:
    """``items`` in ``parts`` consecutive runs whose lengths differ by at most one."""
    size, extra = divmod(len(items), parts)
    bounds = [i * size + min(i, extra) for i in range(parts + 1)]
    return [items[a:b] for a, b in zip(bounds, bounds[1:])]


def tiles(items: Iterable[Union[Tile, int, str]], wilds: bool = False) -> Text:
    """Tiles grouped by suit, ranks in order: ``1234m 55p``, each suit in its colour. With
    ``wilds`` (幺鸡) the 1s are wilds, set apart at the end and starred: ``1234m 55p 11s*``."""
    by_suit: dict[str, list[int]] = {"m": [], "p": [], "s": []}
    wild = 0
    for item in items:
        t = Tile(item) if not isinstance(item, Tile) else item
        if wilds and t.index == WILD:
            wild += 1
        else:
            by_suit[t.suit].append(t.rank)
    text = Text()
    for suit, ranks in by_suit.items():
        if ranks:
            if text:
                text.append(" ")
            text.append("".join(str(r) for r in sorted(ranks)), SUIT_STYLE[suit])
            text.append(suit)
    if wild:
        if text:
            text.append(" ")
        text.append("1" * wild + "s*", WILD_STYLE)
    return text


def tile(item: Union[Tile, int, str], wilds: bool = False) -> Text:
    return tiles([item], wilds)


def hand(items: Sequence[Union[Tile, int, str]], drawn: Optional[Union[Tile, str]] = None, wilds: bool = False) -> Text:
    """A concealed hand, the tile just ``drawn`` set apart after it: ``123m 456p + 9s``."""
    rest = [Tile(t) if not isinstance(t, Tile) else t for t in items]
    if drawn is None:
        return tiles(rest, wilds)
    rest.remove(drawn if isinstance(drawn, Tile) else Tile(drawn))
    text = tiles(rest, wilds)
    text.append("  + ")
    text.append_text(tile(drawn, wilds))
    return text


def river(items: Sequence[Union[Tile, int, str]], last: bool = False) -> Text:
    """A seat's discards in the order they were made; with ``last`` the final one is the latest
    discard at the table, marked ``>7p<``."""
    text = Text()
    for i, item in enumerate(items):
        if i:
            text.append(" ")
        marked = last and i == len(items) - 1
        if marked:
            text.append(">", "bold")
        text.append_text(tile(item))
        if marked:
            text.append("<", "bold")
            text.stylize("reverse", len(text) - 3, len(text) - 1)
    return text


def melds(items: Iterable[Sequence[Any]], wilds: bool = False) -> Text:
    """Melds given as ``(kind, tile, wilds)``, shown ``[555m] [7777p] [99s+1s*]c``: ``c`` marks a
    concealed kong, ``+1s*`` the wilds (幺鸡) it holds."""
    text = Text()
    for kind, t, held in items:
        if text:
            text.append(" ")
        text.append("[")
        text.append_text(tiles([t] * (MELD_COPIES[kind] - held)))
        if held:
            text.append("+")
            text.append_text(tiles([WILD] * held, wilds=True))
        text.append("]c" if kind == "concealed_kong" else "]")
    return text


def describe(
    event: Mapping[str, Any],
    names: Sequence[str],
    viewer: Optional[int] = None,
    wilds: bool = False,
    say: Words = ENGLISH,
) -> Text:
    """One line (two for an exchange seen by all) saying what ``event`` (of ``game.events``) did,
    seats called by ``names``, in ``say``'s language; ``viewer`` is the seat reading, addressed as
    "you" in the exchange."""
    kind = event["type"]
    name = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
    line = Text()
    if kind == "start":
        preset = event["rules"].get("preset") or say("start.custom")
        seed = "" if event["seed"] is None else say("start.seed", seed=event["seed"])
        line.append(say("start", preset=preset, seed=seed, dealer=names[event["dealer"]]))
    elif kind == "dice":
        line.append(_dice(event, names, say))
    elif kind == "deal":
        n = len(event["tiles"]) if event["tiles"] is not None else event["count"]
        line.append(say("deal", who=name, n=n))
        if event["tiles"] is not None:
            line.append(say("deal.tiles"))
            line.append_text(tiles(event["tiles"], wilds))
    elif kind == "exchange":
        line.append_text(_exchange(event, names, viewer, say))
    elif kind == "redeal":
        line.append(say("redeal"))
    elif kind == "void":
        line.append(say("void", who=name, suit=say(f"suit.{event['suit']}")))
    elif kind == "draw":
        line.append(say("draw", who=name))
        line.append_text(tile(event["tile"], wilds) if event["tile"] else Text(say("draw.hidden")))
        if event["replacement"]:
            line.append(say("draw.replacement"))
    elif kind == "discard":
        line.append(say("discard", who=name))
        line.append_text(tile(event["tile"]))
    elif kind == "pass":
        could = say("or").join(say.name("claim", c) for c in event["could"])
        line.append(say("pass.win" if "win" in event["could"] else "pass", who=name, on=event["on"], could=could))
    elif kind == "pong":
        line.append(say("pong", who=name))
        line.append_text(tile(event["tile"]))
        line.append(say("pong.from", seat=names[event["from"]]))
        line.append(_with_wilds(event, say))
    elif kind == "kong":
        line.append(say("kong", who=name))
        line.append_text(tile(event["tile"]))
        line.append(say(f"kong.{event['kind']}", seat=names[event["from"]] if event["from"] is not None else ""))
        line.append(_with_wilds(event, say))
        if event["late"]:
            line.append(say("kong.late"))
    elif kind == "swap":
        line.append(say("swap", who=name))
        line.append_text(tile(event["tile"]))
        line.append(say("swap.back"))
    elif kind == "beaten":
        line.append(say("beaten", who=name, claim=say.name("claim", event["claim"])))
    elif kind == "robbed":
        line.append(say("robbed", who=name, tile=event["tile"]))
    elif kind == "win":
        line.append_text(_win(event, name, names, say))
    elif kind == "reveal":
        line.append_text(_reveal(event, names, say))
    elif kind == "payment":
        line.append(say("payment", payer=names[event["payer"]], payee=names[event["payee"]]))
        line.append(str(event["amount"]), "bold")
        line.append(say("payment.why", reason=say.name("reason", event["reason"])))
    elif kind == "end":
        scores = ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(event["scores"]))
        line.append(say("end", reason=say.name("end", event["reason"]), scores=scores))
    else:
        line.append(str(event))
    return line


DIRECTION = {"counterclockwise": 1, "clockwise": 3, "opposite": 2}  # a seat gives to seat + this


def _with_wilds(event: Mapping[str, Any], say: Words) -> str:
    n = event.get("wilds") or 0
    return "" if not n else say("with_wilds" if n == 1 else "with_wilds.many", n=n)


def _dice(event: Mapping[str, Any], names: Sequence[str], say: Words = ENGLISH) -> str:
    rolls = event["rolls"]
    if event["purpose"] == "dealer":
        # rolls[seat]: every die the seat rolled, two a throw, rerolls of ties appended (protocol §9).
        then = say("dice.then")
        throws = [
            "+".join(map(str, r[:2])) + "".join(f"{then}{a}+{b}" for a, b in zip(r[2::2], r[3::2])) for r in rolls
        ]
        return say("dice.dealer", throws=say("dice.sep").join(f"{names[s]} {t}" for s, t in enumerate(throws)))
    values = say("dice.and").join(str(v) for v in rolls)
    return say(f"dice.{event['purpose']}", who=names[event["seat"]], values=values)


def _exchange(event: Mapping[str, Any], names: Sequence[str], viewer: Optional[int], say: Words) -> Text:
    step = DIRECTION[event["direction"]]
    text = Text(say("exchange", direction=say(f"direction.{event['direction']}")))
    for s, (given, received) in enumerate(zip(event["given"], event["received"])):
        if given is None:
            continue
        mine = s == viewer
        text.append(say("exchange.give") if mine else say("exchange.gives", who=names[s]))
        text.append_text(tiles(given))
        text.append(say("exchange.receive" if mine else "exchange.receives", seat=names[(s + step) % 4]))
        text.append_text(tiles(received))
        text.append(say("exchange.from", seat=names[(s - step) % 4]))
    return text


def score_words(score: Mapping[str, Any], say: Words = ENGLISH) -> str:
    """A score (``Score.to_dict()``) in words: ``full_flush + root, 4 fan (6 uncapped), 48 points``."""
    bonuses = [say.name("bonus", b["name"]) + (f" x{b['count']}" if b["count"] > 1 else "") for b in score["bonuses"]]
    fan = say("fan", n=score["capped_fan"])
    if score["fan"] != score["capped_fan"]:
        fan += say("capped", fan=score["fan"])
    parts = " + ".join([say.name("pattern", score["pattern"]), *bonuses])
    return say("score", parts=parts, fan=fan, points=say.count(score["points"], "point"))


def paid_words(amounts: Sequence[int], say: Words = ENGLISH) -> str:
    """Who pays a win, in words: ``96 points from 2 seats (48 each)``."""
    if len(amounts) == 1:
        return say("paid.one", points=say.count(amounts[0], "point"))
    each = say("paid.each", n=amounts[0]) if len(set(amounts)) == 1 else " + ".join(map(str, amounts))
    return say("paid.many", points=say.count(sum(amounts), "point"), n=len(amounts), each=each)


def count(n: int, word: str, plural: Optional[str] = None) -> str:
    """``1 point``, ``2 points``."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _win(event: Mapping[str, Any], name: str, names: Sequence[str], say: Words) -> Text:
    """A win; under ``win_reveal = "hand_end"`` another seat's shows no score (nor a self-draw's
    tile) until the ``reveal``."""
    line = Text()
    line.append(say("wins", who=name), "bold yellow")
    if event["tile"] is not None:
        line.append(say("wins.on"))
        line.append_text(tile(event["tile"]))
    source = names[event["from"]] if event["from"] is not None else ""
    kind = say(f"win.{event['kind']}", seat=source)
    if event["score"] is None:
        line.append(say("win.unshown", kind=kind))
    else:
        line.append(say("win.score", kind=kind, score=score_words(event["score"], say)))
    return line


def _reveal(event: Mapping[str, Any], names: Sequence[str], say: Words) -> Text:
    """The wins a ``reveal`` shows, one line each."""
    line = Text(say("reveal"))
    for w in event["wins"]:
        line.append("\n  ")
        line.append_text(_win(w, names[w["seat"]], names, say))
    return line
