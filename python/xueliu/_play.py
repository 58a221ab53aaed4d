"""A hand played in the terminal, for ``xueliu play``: one person against bots.

:func:`play_hand` plays one hand to its end and returns, so a match is a loop around it. What the
person sees comes only from ``game.events_for(seat)`` and the table (RULES.md §12): the events as
they happen, then at each decision the table — seats that have won marked with their winning
tiles, every river in order with the latest discard marked, the person's hand with the tile just
drawn apart and wilds (幺鸡) marked — and the choices, a win with what it is worth. A typed move
the engine refuses is answered with the engine's own reason.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import _terminal as term
from ._ready import Wait, Waits
from ._xueliu import Action, Bot, Game, Rules, XueliuError
from .events import Event

WILDS_NOTE = (
    "幺鸡: the four 1s are wilds, shown 1s*: each stands for any tile (a fifth copy too) and for no suit.\n"
    "A wild is never discarded or exchanged; pongs and kongs may hold one (幺鸡换 swaps it back\n"
    "for the natural tile); four wilds win at once."
)

Ask = Callable[[str], str]


class Screen:
    """The person's side of the table: the console, the seats' names and what was shown."""

    def __init__(self, out: Console, seat: int, names: Sequence[str], plain: bool, ask: Ask = input):
        self.out, self.seat, self.names, self.plain, self.ask = out, seat, names, plain, ask
        self.shown = 0
        self.rules: dict[str, Any] = {}  # the hand's rules (its start event's), set by play_hand

    def show_events(self, game: Game) -> None:
        """Prints the events the seat may see that were not printed yet."""
        events = game.events_for(self.seat)
        for event in events[self.shown :]:
            self.out.print(term.describe(event, self.names, viewer=self.seat, wilds=self.rules["wilds"]))
        self.shown = len(events)


def play_hand(game: Game, screen: Screen, bots: dict[int, Bot]) -> None:
    """Plays ``game`` to its end: ``screen.seat`` decides through the screen, ``bots`` the rest."""
    start = game.events[0]
    assert start["type"] == "start"  # every log opens with its hand's start
    screen.rules, screen.shown = start["rules"], 0
    if screen.rules["wilds"]:
        screen.out.print(WILDS_NOTE)
    while not game.is_over:
        for s in list(game.to_act()):
            screen.show_events(game)
            action = choose(game, screen) if s == screen.seat else bots[s].choose(game, s)
            game.act(s, action)
    screen.show_events(game)


def choose(game: Game, screen: Screen) -> Action:
    """Shows the table and the seat's choices and reads one; re-asks with the reason on a refusal."""
    seat, legal = screen.seat, game.legal_actions(screen.seat)
    screen.out.print(table_view(game, screen))
    if game.phase == "exchange":
        return _choose_exchange(game, screen)
    ready = Waits(Rules.from_dict(screen.rules)).of(game, seat)
    if ready:
        screen.out.print(ready_line(ready, screen.rules["wilds"]))
    if len(legal) == 1:
        screen.out.print(f"Only one choice: {legal[0]}{_why_only(game, seat, legal[0])}")
        return legal[0]
    for n, action in enumerate(legal, 1):
        line = Text(f"  {n:>2}) {action}")
        if action.kind == "win":
            line.append("  ")
            line.append(win_value(game, seat), "bold")
        screen.out.print(line)
    while True:
        answer = _read(screen, f"Your move [1-{len(legal)}]: ")
        if not answer or answer.isdigit():
            if answer and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            screen.out.print(f"Please type a number from 1 to {len(legal)}, or a move such as `{legal[0]}`.")
            continue
        typed, reason = _typed(game, seat, answer, Action.parse)
        if typed is not None:
            return typed
        screen.out.print(
            f"Not possible: {reason}. Type a number from 1 to {len(legal)}, or a move such as `{legal[0]}`."
        )


def ready_line(ready: Sequence[Wait], wilds: bool) -> Text:
    """听牌: ``Ready 听牌, waiting on 3m (2 unseen: basic, 1 fan, 6 pts), …``."""
    line = Text("Ready 听牌, waiting on ")
    for i, w in enumerate(ready):
        if i:
            line.append(", ")
        line.append_text(term.tile(w.tile, wilds))
        line.append(f" ({w.unseen} unseen: {w.score.pattern}, {term.count(w.score.capped_fan, 'fan', 'fan')}, ")
        line.append(f"{term.count(w.score.points, 'pt')})")
    return line


def _why_only(game: Game, seat: int, action: Action) -> str:
    """Why a lone choice is forced, when the table does not say: a win's value, the void suit."""
    if action.kind == "win":
        return f" (the rules force it: the wall's last four, or four wilds), {win_value(game, seat)}"
    if action.kind == "discard" and action.tile is not None and action.tile.suit == game.void(seat):
        return " (tiles of your void suit go first)"
    return ""


def _choose_exchange(game: Game, screen: Screen) -> Action:
    """The exchange: three tiles typed (``159m``), picked by their places in the hand, or the suggestion."""
    seat = screen.seat
    hand = game.hand(seat)
    suggestion = game.default_action(seat)
    wilds = screen.rules["wilds"]
    places = "  ".join(f"{n}:{term.tile(t, wilds).plain}" for n, t in enumerate(hand, 1))
    suggested = term.tiles(suggestion.tiles or []).plain
    one_suit = " of one suit" if screen.rules["exchange_same_suit"] else ""
    never = " A wild (1s*) is never given." if wilds else ""
    screen.out.print(
        f"Exchange three (换三张): give three tiles{one_suit}. Type them (e.g. {suggested}), or "
        f"their places in your hand (e.g. 1 2 3), or press Enter for {suggested}.{never}"
    )
    screen.out.print(f"  {places}")
    while True:
        answer = _read(screen, f"Give three [{suggested}]: ")
        if not answer:
            return suggestion
        words = answer.split()
        if len(words) == 3 and all(w.isdigit() for w in words):
            if not all(1 <= int(w) <= len(hand) for w in words) or len(set(words)) < 3:
                screen.out.print(f"Please give three different places from 1 to {len(hand)}.")
                continue
            answer = " ".join(str(hand[int(w) - 1]) for w in words)
        action, reason = _typed(game, seat, answer, _parse_exchange)
        if action is not None:
            return action
        screen.out.print(f"Not possible: {reason}.")


def _parse_exchange(text: str) -> Action:
    """``159m``, ``1m 5m 9m`` or ``exchange 159m``: the tiles are read by ``Action.exchange``, whose
    refusal names the problem (``gives exactly three tiles, got 2``)."""
    text = text.strip()
    return Action.exchange(text[len("exchange") :] if text.startswith("exchange") else text)


def _typed(game: Game, seat: int, answer: str, parse: Callable[[str], Action]) -> tuple[Optional[Action], str]:
    """The typed move if the game takes it, else None and the engine's reason (asked of a copy)."""
    try:
        action = parse(answer)
    except XueliuError as e:
        return None, str(e)
    if action in game.legal_actions(seat):
        return action, ""
    try:
        game.clone().act(seat, action)
    except XueliuError as e:
        return None, str(e)
    return None, f"{action} is not among the choices"


def _read(screen: Screen, prompt: str) -> str:
    try:
        return screen.ask(prompt).strip()
    except EOFError:
        raise click.exceptions.Abort() from None


def win_value(game: Game, seat: int) -> str:
    """What winning now is worth: pattern, bonuses, fan and the points paid, from a copy of the
    game in which ``seat`` wins and every other seat asked passes (or takes its default)."""
    copy = game.clone()
    before = len(copy.events)
    copy.act(seat, Action.win())
    while not copy.is_over and not any(e["type"] == "win" and e["seat"] == seat for e in copy.events[before:]):
        s = copy.to_act()[0]
        legal = copy.legal_actions(s)
        copy.act(s, Action.pass_() if Action.pass_() in legal else copy.default_action(s))
    events = copy.events[before:]
    at, score = next((i, e["score"]) for i, e in enumerate(events) if e["type"] == "win" and e["seat"] == seat)
    paid = []
    for e in events[at + 1 :]:
        if e["type"] != "payment":
            break
        if e["payee"] == seat:
            paid.append(e["amount"])
    return f"worth {term.score_words(score)}; {term.paid_words(paid)}"


def table_view(game: Game, screen: Screen) -> Table:
    """Everyone's melds, river, void, wins and score; only the seat's own concealed tiles, with
    the tile just drawn set apart."""
    seat, names, wilds = screen.seat, screen.names, screen.rules["wilds"]
    events = game.events_for(seat)
    last = _last_discard(events)
    drawn = _just_drawn(events, seat)
    t = term.table(
        f"Phase {game.phase}, wall {term.count(game.wall_remaining, 'tile')}",
        screen.plain,
        "seat",
        "void",
        "tiles",
        "melds",
        "river (in order)",
        "score",
    )
    for s in range(4):
        won = [str(w.tile) for w in game.wins if w.seat == s]
        name = names[s] + (" won " + " ".join(_times(w, won.count(w)) for w in dict.fromkeys(won)) if won else "")
        if s == seat:
            held = term.hand(game.hand(s), drawn=drawn, wilds=wilds)
        else:
            held = Text(f"{len(game.hand(s))} hidden")
        melds = term.melds(((m.kind, m.tile, m.wilds) for m in game.melds(s)), wilds=wilds)
        river = term.river(game.discards(s), last=last == s)
        t.add_row(name, game.void(s) or "", held, melds, river, str(game.scores[s]))
    return t


def _times(tile: str, n: int) -> str:
    return tile if n == 1 else f"{tile}x{n}"


def _last_discard(events: Sequence[Event]) -> Optional[int]:
    """The seat whose latest discard is the table's latest, unless a pong or kong took it."""
    for e in events[::-1]:  # (mypy types `reversed` of a union's sequence as Any)
        if e["type"] == "pong" or (e["type"] == "kong" and e["from"] is not None):
            return None
        if e["type"] == "discard":
            return e["seat"]
    return None


def _just_drawn(events: Sequence[Event], seat: int) -> Optional[str]:
    """The tile ``seat`` just drew when its turn began with a draw and nothing since."""
    last = events[-1] if events else None
    if last and last["type"] == "draw" and last["seat"] == seat:
        return last["tile"]
    return None
