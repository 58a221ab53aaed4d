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
from ._ready import Wait, waits
from ._words import ENGLISH, Words
from ._xueliu import Action, Bot, Game, XueliuError
from .events import Event

Ask = Callable[[str], str]


class Screen:
    """The person's side of the table: the console, the seats' names, the words (``say``, in the
    person's language) and what was shown."""

    def __init__(
        self, out: Console, seat: int, names: Sequence[str], plain: bool, ask: Ask = input, say: Words = ENGLISH
    ):
        self.out, self.seat, self.names, self.plain, self.ask, self.say = out, seat, names, plain, ask, say
        self.shown = 0
        self.rules: dict[str, Any] = {}  # the hand's rules (its start event's), set by play_hand

    def show_events(self, game: Game) -> None:
        """Prints the events the seat may see that were not printed yet."""
        events = game.events_for(self.seat)
        for event in events[self.shown :]:
            self.out.print(term.describe(event, self.names, viewer=self.seat, wilds=self.rules["wilds"], say=self.say))
        self.shown = len(events)


def play_hand(game: Game, screen: Screen, bots: dict[int, Bot]) -> None:
    """Plays ``game`` to its end: ``screen.seat`` decides through the screen, ``bots`` the rest."""
    start = game.events[0]
    assert start["type"] == "start"  # every log opens with its hand's start
    screen.rules, screen.shown = start["rules"], 0
    if screen.rules["wilds"]:
        screen.out.print(screen.say("wilds_note"))
    while not game.is_over:
        for s in list(game.to_act()):
            screen.show_events(game)
            action = choose(game, screen) if s == screen.seat else bots[s].choose(game, s)
            game.act(s, action)
    screen.show_events(game)


def choose(game: Game, screen: Screen) -> Action:
    """Shows the table and the seat's choices and reads one; re-asks with the reason on a refusal."""
    seat, legal, say = screen.seat, game.legal_actions(screen.seat), screen.say
    screen.out.print(table_view(game, screen))
    if game.phase == "exchange":
        return _choose_exchange(game, screen)
    ready = waits(game, seat)
    if ready:
        screen.out.print(ready_line(ready, screen.rules["wilds"], say))
    if len(legal) == 1:
        screen.out.print(say("only_choice", action=legal[0], why=_why_only(game, seat, legal[0], say)))
        return legal[0]
    for n, action in enumerate(legal, 1):
        line = Text(f"  {n:>2}) {action}")
        if action.kind == "win":
            line.append("  ")
            line.append(win_value(game, seat, say), "bold")
        screen.out.print(line)
    while True:
        answer = _read(screen, say("your_move", n=len(legal)))
        if not answer or answer.isdigit():
            if answer and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            screen.out.print(say("type_a_number", n=len(legal), example=legal[0]))
            continue
        typed, reason = _typed(game, seat, answer, Action.parse, say)
        if typed is not None:
            return typed
        screen.out.print(say("not_possible", reason=reason, n=len(legal), example=legal[0]))


def ready_line(ready: Sequence[Wait], wilds: bool, say: Words = ENGLISH) -> Text:
    """听牌: ``Ready 听牌, waiting on 3m (2 unseen: basic, 1 fan, 6 pts), …``."""
    line = Text(say("ready"))
    for i, w in enumerate(ready):
        if i:
            line.append(say("ready.comma"))
        line.append_text(term.tile(w.tile, wilds))
        fan, points = say("fan", n=w.fan), say.count(w.points, "pt")
        line.append(say("ready.wait", unseen=w.unseen, pattern=say.name("pattern", w.pattern), fan=fan, points=points))
    return line


def _why_only(game: Game, seat: int, action: Action, say: Words) -> str:
    """Why a lone choice is forced, when the table does not say: a win's value, the void suit."""
    if action.kind == "win":
        return say("only_choice.win", value=win_value(game, seat, say))
    if action.kind == "discard" and action.tile is not None and action.tile.suit == game.void(seat):
        return say("only_choice.void")
    return ""


def _choose_exchange(game: Game, screen: Screen) -> Action:
    """The exchange: three tiles typed (``159m``), picked by their places in the hand, or the suggestion."""
    seat, say = screen.seat, screen.say
    hand = game.hand(seat)
    suggestion = game.default_action(seat)
    wilds = screen.rules["wilds"]
    places = "  ".join(f"{n}:{term.tile(t, wilds).plain}" for n, t in enumerate(hand, 1))
    suggested = term.tiles(suggestion.tiles or []).plain
    one_suit = say("exchange.one_suit") if screen.rules["exchange_same_suit"] else ""
    never = say("exchange.never") if wilds else ""
    screen.out.print(say("exchange.ask", one_suit=one_suit, suggested=suggested, never=never))
    screen.out.print(f"  {places}")
    while True:
        answer = _read(screen, say("exchange.prompt", suggested=suggested))
        if not answer:
            return suggestion
        words = answer.split()
        if len(words) == 3 and all(w.isdigit() for w in words):
            if not all(1 <= int(w) <= len(hand) for w in words) or len(set(words)) < 3:
                screen.out.print(say("exchange.places", n=len(hand)))
                continue
            answer = " ".join(str(hand[int(w) - 1]) for w in words)
        action, reason = _typed(game, seat, answer, _parse_exchange, say)
        if action is not None:
            return action
        screen.out.print(say("not_possible.short", reason=reason))


def _parse_exchange(text: str) -> Action:
    """``159m``, ``1m 5m 9m`` or ``exchange 159m``: the tiles are read by ``Action.exchange``, whose
    refusal names the problem (``gives exactly three tiles, got 2``)."""
    text = text.strip()
    return Action.exchange(text[len("exchange") :] if text.startswith("exchange") else text)


def _typed(
    game: Game, seat: int, answer: str, parse: Callable[[str], Action], say: Words = ENGLISH
) -> tuple[Optional[Action], str]:
    """The typed move if the game takes it, else None and the engine's reason."""
    try:
        action = parse(answer)
    except XueliuError as e:
        return None, str(e)
    if action in game.legal_actions(seat):
        return action, ""
    try:
        game.check(seat, action)
    except XueliuError as e:
        return None, str(e)
    return None, say("not_a_choice", action=action)


def _read(screen: Screen, prompt: str) -> str:
    try:
        return screen.ask(prompt).strip()
    except EOFError:
        raise click.exceptions.Abort() from None


def win_value(game: Game, seat: int, say: Words = ENGLISH) -> str:
    """What winning now is worth: pattern, bonuses, fan and the points paid, as the engine would
    record and settle the win (``Game.offered_win``, ``Game.offered_payments``)."""
    score, paid = game.offered_win(seat), game.offered_payments(seat)
    assert score is not None and paid is not None, "win_value is asked only while a win is offered"
    amounts = [amount for _, amount, _ in paid]
    return say("worth", score=term.score_words(score.to_dict(), say), paid=term.paid_words(amounts, say))


def table_view(game: Game, screen: Screen) -> Table:
    """Everyone's melds, river, void, wins and score; only the seat's own concealed tiles, with
    the tile just drawn set apart."""
    seat, names, wilds, say = screen.seat, screen.names, screen.rules["wilds"], screen.say
    events = game.events_for(seat)
    last = _last_discard(events)
    drawn = _just_drawn(events, seat)
    t = term.table(
        say("view.title", phase=say.name("phase", game.phase), tiles=say.count(game.wall_remaining, "tile")),
        screen.plain,
        *(say(f"col.{c}") for c in ("seat", "void", "tiles", "melds", "river", "score")),
    )
    for s in range(4):
        won = [str(w.tile) for w in game.wins if w.seat == s]
        name = names[s] + (say("won") + " ".join(_times(w, won.count(w)) for w in dict.fromkeys(won)) if won else "")
        if s == seat:
            held = term.hand(game.hand(s), drawn=drawn, wilds=wilds)
        else:
            held = Text(say("hidden", n=len(game.hand(s))))
        melds = term.melds(((m.kind, m.tile, m.wilds) for m in game.melds(s)), wilds=wilds)
        river = term.river(game.discards(s), last=last == s)
        void = game.void(s)
        t.add_row(name, say.name("void", void) if void else "", held, melds, river, str(game.scores[s]))
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
