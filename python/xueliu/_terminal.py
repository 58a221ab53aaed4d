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

from ._xueliu import Tile

SUIT_STYLE = {"m": "bold red", "p": "bold blue", "s": "bold green"}
SUIT_NAME = {"m": "characters (万)", "p": "dots (筒)", "s": "bamboo (条)"}
MELD_COPIES = {"pong": 3, "kong": 4, "concealed_kong": 4}
WILD = 18  # 1s: a wild (幺鸡) when the rules have wilds
WILD_STYLE = "bold magenta"


def console(plain: bool, stderr: bool = False) -> Console:
    """A console for stdout (or stderr): no colour or markup tricks when ``plain``, and 200 columns:
    wide enough for the nine presets side by side with each option on one line."""
    if plain:
        return Console(
            force_terminal=False, no_color=True, highlight=False, emoji=False, markup=False, width=200, stderr=stderr
        )
    return Console(highlight=False, emoji=False, markup=False, stderr=stderr)


def table(title: str, plain: bool, *columns: str) -> Table:
    """A table with ``columns``, drawn with ASCII lines when ``plain``."""
    t = Table(title=title, box=box.ASCII if plain else box.ROUNDED, title_justify="left")
    for i, c in enumerate(columns):
        t.add_column(c, no_wrap=i == 0, overflow="fold")
    return t


def keep_words(t: Table, narrow: int = 11) -> Table:
    """Fixes each value column's width at most ``narrow`` (never less than its longest word) and
    lets the first column take the rest, wrapping: a terminal of 120 columns then fits seven
    presets side by side, every cell wrapped between words, never inside one."""
    for i, column in enumerate(t.columns):
        cells = [str(cell) for cell in [column.header, *column.cells]]
        longest_word = max(cell_len(w) for cell in cells for w in cell.split() or [""])
        if i == 0:
            column.no_wrap, column.min_width = False, longest_word
        else:
            column.width = max(longest_word, min(max(cell_len(c) for c in cells), narrow))
    return t


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


def describe(event: Mapping[str, Any], names: Sequence[str], viewer: Optional[int] = None, wilds: bool = False) -> Text:
    """One line (two for an exchange seen by all) saying what ``event`` (of ``game.events``) did,
    seats called by ``names``; ``viewer`` is the seat reading, addressed as "you" in the exchange."""
    kind = event["type"]
    name = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
    line = Text()
    if kind == "start":
        preset = event["rules"].get("preset") or "custom rules"
        seed = "" if event["seed"] is None else f", seed {event['seed']}"
        line.append(f"New hand: {preset}{seed}, {names[event['dealer']]} deals")
    elif kind == "dice":
        line.append(_dice(event, names))
    elif kind == "deal":
        n = len(event["tiles"]) if event["tiles"] is not None else event["count"]
        line.append(f"{name} is dealt {n} tiles")
        if event["tiles"] is not None:
            line.append(": ")
            line.append_text(tiles(event["tiles"], wilds))
    elif kind == "exchange":
        line.append_text(_exchange(event, names, viewer))
    elif kind == "redeal":
        line.append("Redeal: every seat got back what it gave")
    elif kind == "void":
        line.append(f"{name} declares void (定缺): {SUIT_NAME[event['suit']]}")
    elif kind == "draw":
        line.append(f"{name} draws ")
        line.append_text(tile(event["tile"], wilds) if event["tile"] else Text("a tile"))
        if event["replacement"]:
            line.append(" (kong replacement)")
    elif kind == "discard":
        line.append(f"{name} discards ")
        line.append_text(tile(event["tile"]))
    elif kind == "pass":
        line.append(f"{name} passes on the {event['on']} (could {' or '.join(event['could'])})")
    elif kind == "pong":
        line.append(f"{name} pongs ")
        line.append_text(tile(event["tile"]))
        line.append(f" from {names[event['from']]}")
        if event.get("wilds"):
            line.append(f" with {count(event['wilds'], 'wild')}")
    elif kind == "kong":
        line.append(f"{name} kongs ")
        line.append_text(tile(event["tile"]))
        line.append(" " + KONG_KIND[event["kind"]].format(names[event["from"]] if event["from"] is not None else ""))
        if event.get("wilds"):
            line.append(f" with {count(event['wilds'], 'wild')}")
        if event["late"]:
            line.append(", a late kong")
    elif kind == "swap":
        line.append(f"{name} swaps ")
        line.append_text(tile(event["tile"]))
        line.append(" into its kong and takes a wild back (幺鸡换)")
    elif kind == "beaten":
        line.append(f"{name}'s {event['claim']} loses to a win")
    elif kind == "robbed":
        line.append(f"{name}'s kong of {event['tile']} is robbed")
    elif kind == "win":
        line.append_text(_win(event, name, names))
    elif kind == "payment":
        line.append(f"  {names[event['payer']]} pays {names[event['payee']]} ")
        line.append(str(event["amount"]), "bold")
        line.append(f" ({event['reason']})")
    elif kind == "end":
        scores = ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(event["scores"]))
        line.append(f"Hand over ({END_REASON.get(event['reason'], event['reason'])}): {scores}")
    else:
        line.append(str(event))
    return line


KONG_KIND = {"direct": "on {}'s discard (直杠)", "added": "onto its pong (补杠)", "concealed": "concealed (暗杠)"}
WIN_KIND = {"discard": "on {}'s discard", "self_draw": "by self-draw (自摸)", "robbed_kong": "robbing {}'s kong (抢杠)"}
END_REASON = {"three_won": "three have won", "wall_empty": "the wall is empty"}
DIRECTION = {"counterclockwise": 1, "clockwise": 3, "opposite": 2}  # a seat gives to seat + this


def _dice(event: Mapping[str, Any], names: Sequence[str]) -> str:
    rolls = event["rolls"]
    if event["purpose"] == "dealer":
        # rolls[seat]: every die the seat rolled, two a throw, rerolls of ties appended (protocol §9).
        throws = [
            "+".join(map(str, r[:2])) + "".join(f", then {a}+{b}" for a, b in zip(r[2::2], r[3::2])) for r in rolls
        ]
        return "Dice for the dealer: " + "; ".join(f"{names[s]} {t}" for s, t in enumerate(throws))
    who = names[event["seat"]]
    values = " and ".join(str(v) for v in rolls)
    if event["purpose"] == "wall":
        return f"{who} rolls {values} to break the wall"
    return f"{who} rolls {values} for the exchange's direction"


def _exchange(event: Mapping[str, Any], names: Sequence[str], viewer: Optional[int]) -> Text:
    step = DIRECTION[event["direction"]]
    text = Text(f"Exchange three (换三张), {event['direction'].replace('counterclockwise', 'counter-clockwise')}")
    for s, (given, received) in enumerate(zip(event["given"], event["received"])):
        if given is None:
            continue
        who, verb = ("You", "give") if s == viewer else (names[s], "gives")
        text.append(f"\n  {who} {verb} ")
        text.append_text(tiles(given))
        text.append(f" to {names[(s + step) % 4]} and {'receive' if s == viewer else 'receives'} ")
        text.append_text(tiles(received))
        text.append(f" from {names[(s - step) % 4]}")
    return text


def score_words(score: Mapping[str, Any]) -> str:
    """A score (``Score.to_dict()``) in words: ``full_flush + root, 4 fan (6 uncapped), 48 points``."""
    parts = [score["pattern"]] + [b["name"] + (f" x{b['count']}" if b["count"] > 1 else "") for b in score["bonuses"]]
    fan = f"{count(score['capped_fan'], 'fan', 'fan')}"
    if score["fan"] != score["capped_fan"]:
        fan += f" (capped, {score['fan']} uncapped)"
    return f"{' + '.join(parts)}, {fan}, {count(score['points'], 'point')}"


def paid_words(amounts: Sequence[int]) -> str:
    """Who pays a win, in words: ``96 points from 2 seats (48 each)``."""
    if len(amounts) == 1:
        return f"{count(amounts[0], 'point')} from 1 seat"
    each = f"{amounts[0]} each" if len(set(amounts)) == 1 else " + ".join(map(str, amounts))
    return f"{count(sum(amounts), 'point')} from {len(amounts)} seats ({each})"


def count(n: int, word: str, plural: Optional[str] = None) -> str:
    """``1 point``, ``2 points``."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _win(event: Mapping[str, Any], name: str, names: Sequence[str]) -> Text:
    line = Text()
    line.append(f"{name} WINS", "bold yellow")
    line.append(" on ")
    line.append_text(tile(event["tile"]))
    source = names[event["from"]] if event["from"] is not None else ""
    line.append(f" {WIN_KIND[event['kind']].format(source)}: {score_words(event['score'])}")
    return line
