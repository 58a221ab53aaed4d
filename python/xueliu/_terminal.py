"""How tiles, events and tables read in the terminal, for the ``xueliu`` command.

Two looks from the same functions: *fancy* colours each suit (万 red, 筒 blue, 条 green) for a
terminal, *plain* is the text form (``123m 45p``) with ASCII tables, for pipes, logs and tests.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence, Union

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ._xueliu import Tile

SUIT_STYLE = {"m": "bold red", "p": "bold blue", "s": "bold green"}
SUIT_NAME = {"m": "characters (万)", "p": "dots (筒)", "s": "bamboo (条)"}
MELD_COPIES = {"pong": 3, "kong": 4, "concealed_kong": 4}


def console(plain: bool) -> Console:
    """A console for stdout: no colour or markup tricks when ``plain``."""
    if plain:
        return Console(force_terminal=False, no_color=True, highlight=False, emoji=False, markup=False, width=160)
    return Console(highlight=False, emoji=False, markup=False)


def table(title: str, plain: bool, *columns: str) -> Table:
    """A table with ``columns``, drawn with ASCII lines when ``plain``."""
    t = Table(title=title, box=box.ASCII if plain else box.ROUNDED, title_justify="left")
    for i, c in enumerate(columns):
        t.add_column(c, no_wrap=i == 0, overflow="fold")
    return t


def tiles(items: Iterable[Union[Tile, int, str]]) -> Text:
    """Tiles grouped by suit, ranks in order: ``1234m 55p``, each suit in its colour."""
    by_suit: dict[str, list[int]] = {"m": [], "p": [], "s": []}
    for item in items:
        t = Tile(item) if not isinstance(item, Tile) else item
        by_suit[t.suit].append(t.rank)
    text = Text()
    for suit, ranks in by_suit.items():
        if ranks:
            if text:
                text.append(" ")
            text.append("".join(str(r) for r in sorted(ranks)), SUIT_STYLE[suit])
            text.append(suit)
    return text


def tile(item: Union[Tile, int, str]) -> Text:
    return tiles([item])


def melds(items: Iterable[Sequence[Any]]) -> Text:
    """Melds given as ``(kind, tile, wilds)``, shown ``[555m] [7777p] [99s+1s]*``: a star marks a
    concealed kong, ``+1s`` the wilds (幺鸡) it holds."""
    text = Text()
    for kind, t, wilds in items:
        if text:
            text.append(" ")
        text.append("[")
        text.append_text(tiles([t] * (MELD_COPIES[kind] - wilds)))
        if wilds:
            text.append("+")
            text.append_text(tiles([18] * wilds))
        text.append("]*" if kind == "concealed_kong" else "]")
    return text


def describe(event: dict[str, Any], names: Sequence[str]) -> Text:
    """One line saying what ``event`` (of ``game.events``) did, seats called by ``names``."""
    kind = event["type"]
    name = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
    line = Text()
    if kind == "start":
        seed = "hidden" if event["seed"] is None else event["seed"]
        preset = event["rules"].get("preset") or "custom"
        line.append(f"New hand: rules {preset}, seed {seed}, dealer {names[event['dealer']]}")
    elif kind == "dice":
        line.append(f"Dice ({event['purpose']}): {event['rolls']}")
    elif kind == "deal":
        count = len(event["tiles"]) if event["tiles"] is not None else event["count"]
        line.append(f"{name} is dealt {count} tiles")
    elif kind == "exchange":
        line.append(f"Exchange three (换三张), direction {event['direction']}")
    elif kind == "redeal":
        line.append("Redeal: every seat got back what it gave")
    elif kind == "void":
        line.append(f"{name} declares void (定缺): {SUIT_NAME[event['suit']]}")
    elif kind == "draw":
        line.append(f"{name} draws ")
        line.append_text(tile(event["tile"]) if event["tile"] else Text("a tile"))
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
    elif kind == "kong":
        line.append(f"{name} kongs ")
        line.append_text(tile(event["tile"]))
        line.append(f" ({event['kind']}{', late' if event['late'] else ''})")
        if event["from"] is not None:
            line.append(f" from {names[event['from']]}")
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
        line.append(f"Hand over ({event['reason']}): scores {event['scores']}")
    else:
        line.append(str(event))
    return line


def _win(event: dict[str, Any], name: str, names: Sequence[str]) -> Text:
    score = event["score"]
    line = Text()
    line.append(f"{name} WINS", "bold yellow")
    line.append(" on ")
    line.append_text(tile(event["tile"]))
    source = "self-drawn" if event["from"] is None else f"from {names[event['from']]}"
    line.append(f" ({event['kind']}, {source}): {score['pattern']}")
    for bonus in score["bonuses"]:
        line.append(f" + {bonus['name']}" + (f" x{bonus['count']}" if bonus["count"] > 1 else ""))
    line.append(f", {score['capped_fan']} fan, {score['points']} points")
    return line
