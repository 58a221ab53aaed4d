"""The bot protocol, v1: what a host and a bot say to each other, one JSON object per line.

docs/bot-protocol.md is the specification; this module is its one implementation on the host's
side, transport-free: it builds the lines a bot is sent and reads the lines a bot writes, and
knows nothing of processes or sockets (:mod:`xueliu.players` runs a bot process over it).

What a bot learns of the game is exactly ``game.events_for(seat)``, each event sent as it is
(already a JSON object with a ``"type"``): there is no second hiding logic. Around the events
the host sends ``hello``, ``request``, ``ack``, ``error``, ``totals`` and ``bye``.

At each decision the host sends the lines the engine writes (``_bot_lines``: the seat's new
events and its request, one call, no Python objects built); :func:`request` here is the
request's readable definition, and the tests check the engine's line against it.
"""

from __future__ import annotations

import json
import typing
from dataclasses import dataclass
from typing import Any, NamedTuple, Optional, Sequence, Union

from . import events
from ._xueliu import Action, Game, XueliuError

PROTOCOL = "xueliu-bot"
#: Versions this host speaks; a bot's hello picks one.
VERSIONS = (1,)

#: Every event type of the game log (docs/game-protocol.md §9, typed in :mod:`xueliu.events`): sent verbatim.
EVENT_TYPES = frozenset(
    typing.get_args(typing.get_type_hints(event)["type"])[0] for event in typing.get_args(events.Event)
)
#: What the host sends besides events.
HOST_TYPES = frozenset({"hello", "request", "ack", "error", "totals", "bye"})
#: What a bot may send.
BOT_TYPES = frozenset({"hello", "answer"})

# Ack statuses: how the host took an answer (or its absence).
ACCEPTED = "accepted"  # the answer is played
STALE = "stale"  # no open request has this id (late, repeated, unknown): ignored
DEFAULTED = "defaulted"  # no answer by the deadline: the default action is played
REJECTED = "rejected"  # the answer names an action that is not legal now: the default is played
UNPARSEABLE = "unparseable"  # the line is not JSON, or holds no readable action: the default is played
STATUSES = (ACCEPTED, STALE, DEFAULTED, REJECTED, UNPARSEABLE)

#: The longest line read from a bot; a longer one is unparseable (and the rest of it skipped).
MAX_LINE = 1 << 16


try:  # orjson (the server extra) writes and reads JSON several times faster; the output is the same
    import orjson

    def _dumps(message: Any) -> bytes:
        return orjson.dumps(message)

    _loads: Any = orjson.loads
except ImportError:  # pragma: no cover - the standard library's, when orjson is absent

    def _dumps(message: Any) -> bytes:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()

    _loads = json.loads


def encode(message: dict[str, Any]) -> bytes:
    """One message as a line of compact JSON (non-ASCII kept as UTF-8)."""
    return _dumps(message) + b"\n"


def decode(line: bytes) -> Any:
    """One line of JSON read (a line of the engine's own, trusted: see :func:`read_line` for a bot's)."""
    return _loads(line)


def hello(name: str, engine: str) -> dict[str, Any]:
    """The host's first line: the protocol, the versions it speaks, who it is."""
    return {"type": "hello", "protocol": PROTOCOL, "versions": list(VERSIONS), "host": name, "engine": engine}


def request_kind(game: Game, seat: int, last: Optional[dict[str, Any]]) -> dict[str, Any]:
    """What the seat is asked, from the phase and the last event it saw: ``exchange``, ``void``,
    ``turn``, ``claim`` (a discard by another seat: win, pong, kong or pass) or ``rob`` (an added or
    concealed kong it may win on), with the tile and the seat it came from for the last two."""
    phase = game.phase
    if phase in ("exchange", "void"):
        return {"kind": phase}
    if last is not None and last["type"] in ("discard", "kong") and last["seat"] != seat:
        return {"kind": "claim" if last["type"] == "discard" else "rob", "tile": last["tile"], "from": last["seat"]}
    return {"kind": "turn"}


def request(
    game: Game,
    seat: int,
    request_id: int,
    deadline_ms: int,
    last: Optional[dict[str, Any]],
    actions: Sequence[Action],
    texts: Optional[Sequence[str]] = None,
) -> dict[str, Any]:
    """The request for the seat's decision now (``last``: the last event the seat was sent;
    ``actions``: its legal actions, ``texts`` theirs if the caller has them): the actions as
    text and their ids. (The host sends the engine's line, which equals this one encoded.)"""
    message = {"type": "request", "id": request_id, "seat": seat, **request_kind(game, seat, last)}
    message["actions"] = [str(a) for a in actions] if texts is None else list(texts)
    if message["kind"] == "exchange":  # the tiles that may be picked (docs/encoding.md §1)
        message["mask"] = game.action_mask(seat).nonzero()[0].tolist()
    else:  # the actions' ids, as the mask holds them, without building the mask
        message["mask"] = sorted(a.id for a in actions)
    message["deadline_ms"] = deadline_ms
    return message


def ack(request_id: Optional[int], status: str, played: Union[Action, str, None], reason: str = "") -> dict[str, Any]:
    """How an answer to ``request_id`` was taken, and the action played for it."""
    message: dict[str, Any] = {"type": "ack", "id": request_id, "status": status}
    if played is not None:
        message["played"] = str(played)
    if reason:
        message["reason"] = reason
    return message


def error(message: str) -> dict[str, Any]:
    """A protocol error that is not an answer's (an unknown type, a bad hello, a line with no request open)."""
    return {"type": "error", "message": message}


def totals(hands: int, scores: Sequence[int], seat: int, total: int) -> dict[str, Any]:
    """Sent after each hand's ``end``: the hand's scores, the bot's seat in it, its running total."""
    return {"type": "totals", "hands": hands, "scores": list(scores), "seat": seat, "total": total}


def bye() -> dict[str, Any]:
    """The last line of a session: the bot should exit."""
    return {"type": "bye"}


class Answer(NamedTuple):
    """A bot's answer as read: the request it answers and the action it names (or why none).
    (A named tuple, not a frozen dataclass: one is read per decision, and a frozen dataclass
    costs several times as much to build.)"""

    request_id: Optional[int]
    action: Optional[Action]
    problem: str = ""


@dataclass(frozen=True)
class Hello:
    """A bot's hello: the version it chose and its name."""

    version: int
    name: str


@dataclass(frozen=True)
class Unexpected:
    """A line that is neither an answer nor a hello: the host tells the bot with an ``error``."""

    problem: str


def read_line(line: bytes) -> Union[Answer, Hello, Unexpected]:
    """One line from a bot, read without trusting it: nothing in it raises. Whether the action
    it names is legal is the host's to check, against the request's texts."""
    try:
        message = _loads(line)
    except (ValueError, RecursionError):
        return Answer(None, None, "the line is not JSON")
    if not isinstance(message, dict):
        return Answer(None, None, f"a message is a JSON object, got {type(message).__name__}")
    kind = message.get("type")
    if kind == "hello":
        version = message.get("version")
        name = message.get("name")
        if version not in VERSIONS:
            return Unexpected(f"hello names version {version!r}; this host speaks {list(VERSIONS)}")
        return Hello(version, name if isinstance(name, str) else "")
    if kind != "answer":
        return Unexpected(f"unknown message type {kind!r}; a bot sends one of {sorted(BOT_TYPES)}")
    request_id = message.get("id")
    if not isinstance(request_id, int) or isinstance(request_id, bool):
        return Answer(None, None, f"an answer's id is the request's integer id, got {request_id!r}")
    return _answer(request_id, message)


def _answer(request_id: int, message: dict[str, Any]) -> Answer:
    text, ids = message.get("action"), message.get("ids")
    try:
        if isinstance(text, str):
            return Answer(request_id, Action.parse(text))
        if isinstance(ids, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            return Answer(request_id, Action.from_id(ids[0]) if len(ids) == 1 else Action.from_ids(ids))
    except (XueliuError, OverflowError, IndexError) as e:
        return Answer(request_id, None, f"unreadable action: {e}")
    return Answer(request_id, None, 'an answer holds "action" (text such as "discard 5m") or "ids" (action ids)')
