"""One table: a match, four seats, decision numbers, clocks, 托管 and leaving — no transport.

The table turns seat actions and the passing of time into messages for each seat and for the
spectators (docs/server.md). It never does I/O: the server drains :attr:`Table.outbox` and the
accepted decisions after each call, commits them, then sends the messages.

Decisions are taken in *steps*. A step asks a set of seats at once, with one decision number and
one deadline; answers are kept until every asked seat has answered, then handed to the engine in
seat order. Every discard (and every kong that could be robbed) opens a claim step for *every*
other seat still in the hand — a seat with no claim is offered only ``pass`` — and what follows
the discard is held back until that step closes, so that neither the messages nor their timing
tell anyone whether some other seat could claim (issue 14, docs/server.md §Information).
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator, Mapping, Optional

import orjson

from .. import _xueliu as engine
from ..events import Event, ScoreDict
from .clock import Clock

SPECTATORS = 4  # the outbox recipient for every spectator
AUTO_STEPS = 64  # steps bots and 托管 seats close in one call before the table yields (resume_due)
PROTOCOL = 1  # docs/server.md: the "v" of every message
KINDS = ("exchange", "void", "turn", "claim", "rob")


class TableError(Exception):
    """A refused request; ``code`` is the protocol's error code (docs/server.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class TableConfig:
    """A table's settings, as the create-table request gives them (docs/server.md)."""

    preset: str = "xuezhan"
    options: dict[str, Any] = field(default_factory=dict)
    hands: int = 8
    seats: list[str] = field(default_factory=lambda: ["person"] * 4)
    seed: Optional[int] = None
    # seconds per decision; exchange and claim from seed 000 (15 s, 10 s), void and turn our choice
    clocks: dict[str, float] = field(
        default_factory=lambda: {"exchange": 15.0, "void": 15.0, "turn": 15.0, "claim": 10.0, "rob": 10.0}
    )
    auto_after: int = 2  # consecutive expiries before 托管
    grace: float = 60.0  # seconds a seat may be gone before it counts as left
    on_leave: str = "auto"  # "auto" (托管 for the rest of the match) or "abandon" (逃跑)
    spectator_delay: float = 0.0
    next_hand_delay: float = 5.0
    # seconds the session (盘) lasts from its first deal, by the server's clock; when they pass,
    # the hand in play is the last (Match.call_time) and placement points are given; None: no limit
    time_limit: Optional[float] = None

    @staticmethod
    def parse(data: Any) -> "TableConfig":
        """Checks a create-table request; raises :class:`TableError` ("bad_config") naming the field."""
        if not isinstance(data, dict):
            raise TableError("bad_config", "the table settings must be a JSON object")
        known = set(TableConfig.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise TableError("bad_config", f"unknown setting(s) {unknown}; known: {sorted(known)}")
        config = TableConfig(**{k: v for k, v in data.items() if k != "clocks"})
        config.clocks = {**TableConfig().clocks, **_dict(data.get("clocks", {}), "clocks")}
        config._check()
        return config

    def _check(self) -> None:
        if not isinstance(self.preset, str):
            raise TableError("bad_config", f"preset must be the name of a preset, one of {engine.Rules.presets()}")
        _dict(self.options, "options")
        try:
            self.rules()
        except (engine.XueliuError, TypeError) as e:
            raise TableError("bad_config", f"rules: {e}") from None
        if not (_integer(self.hands) and 1 <= self.hands <= 64):
            raise TableError("bad_config", "hands must be an integer from 1 to 64")
        if not (isinstance(self.seats, list) and len(self.seats) == 4):
            raise TableError("bad_config", 'seats must list four entries, each "person" or a bot name')
        for name in self.seats:
            if name != "person":
                try:
                    engine.Bot(name)
                except (engine.XueliuError, TypeError) as e:
                    raise TableError("bad_config", f"seats: {e}") from None
        if self.seed is not None and not (_integer(self.seed) and 0 <= self.seed < 2**63):
            raise TableError("bad_config", "seed must be an integer from 0 to 2**63 - 1")
        if set(self.clocks) != set(KINDS) or not all(_seconds(v) and v > 0 for v in self.clocks.values()):
            raise TableError("bad_config", f"clocks must give positive seconds for {list(KINDS)}")
        if not (_integer(self.auto_after) and self.auto_after >= 1):
            raise TableError("bad_config", "auto_after must be a positive integer")
        if self.on_leave not in ("auto", "abandon"):
            raise TableError("bad_config", 'on_leave must be "auto" or "abandon"')
        for name in ("grace", "spectator_delay", "next_hand_delay"):
            if not (_seconds(getattr(self, name)) and getattr(self, name) >= 0):
                raise TableError("bad_config", f"{name} must be a number of seconds, 0 or more")
        if self.time_limit is not None and not (_seconds(self.time_limit) and self.time_limit > 0):
            raise TableError("bad_config", "time_limit must be null (no limit) or seconds, more than 0 and under a day")

    def rules(self) -> engine.Rules:
        return engine.Rules.preset(self.preset, **self.options)

    def people(self) -> int:
        """How many seats people play: a chosen seed is fair only for one, with bots."""
        return self.seats.count("person")


def _dict(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TableError("bad_config", f"{name} must be a JSON object")
    return value


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # JSON's true is no number


def _seconds(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value < 86_400


def commitment(seed: int, salt: str) -> str:
    """SHA-256 of the salt's bytes then the seed's eight bytes (big-endian), in hex: published
    when a table is created, checked by players against the seed and salt revealed at the end
    (docs/server.md, "Fair deals")."""
    return hashlib.sha256(bytes.fromhex(salt) + seed.to_bytes(8, "big")).hexdigest()


MAX_NAME = 24  # characters of a display name


def display_name(name: Any) -> Optional[str]:
    """A person's display name as shown at the table: trimmed, 1-24 printable characters; None
    for none given. :class:`TableError` ("bad_name") for anything else."""
    if name is None or name == "":
        return None
    if not isinstance(name, str):
        raise TableError("bad_name", "name must be a string")
    shown = " ".join(name.split())
    if not shown or len(shown) > MAX_NAME or not shown.isprintable():
        raise TableError("bad_name", f"a name is 1-{MAX_NAME} printable characters")
    return shown


def hash_token(token: str) -> str:
    """Tokens are kept only as SHA-256 digests: a stolen database grants no seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Request:
    """One seat's part of the open step."""

    actions: list[str]
    default: str
    engine: bool  # False: a seat with no claim, offered only "pass" so that it is asked like the rest


class Table:
    """One match at one table (see the module docstring). All methods run on one thread."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        clock: Clock,
        *,
        seed: Optional[int] = None,
        salt: Optional[str] = None,
    ) -> None:
        self.id = table_id
        self.config = config
        self.clock = clock
        # the server's CSPRNG unless the creator chose the seed (Server.create allows that only
        # for one person with bots)
        self.seed = config.seed if config.seed is not None else (seed if seed is not None else secrets.randbits(63))
        self.salt = salt if salt is not None else secrets.token_hex(16)
        self.commitment = commitment(self.seed, self.salt)
        self.match: Optional[engine.Match] = None
        self.status = "waiting"  # waiting (for people to join), playing, between (hands), over; or expired
        self.expires_at: Optional[float] = None  # when a table still waiting expires (the server sets it)
        self.resume_due = False  # bots yielded after AUTO_STEPS steps: the server calls resume() soon
        self.ended_at: list[float] = []  # when each ended hand ended: the lobby shows it spectator_delay later
        self.tokens: list[Optional[str]] = [None] * 4  # token digests of joined person seats
        self.names: list[Optional[str]] = [None] * 4  # the display names people chose at join
        self.auto = [name != "person" for name in config.seats]
        self.expiries = [0] * 4
        self.left = [False] * 4
        self.connected = [False] * 4
        self.gone_since: list[Optional[float]] = [None] * 4
        self.step = 0  # the decision number of the open step (0: none yet)
        self.kind: Optional[str] = None
        self.requests: dict[int, Request] = {}
        self.answers: dict[int, str] = {}
        self.deadline: Optional[float] = None
        self.next_hand_at: Optional[float] = None
        self.session_ends_at: Optional[float] = None  # the first deal + config.time_limit, if any
        self.windows_published = 0  # window-opening events sent in this hand
        self.windows_closed = 0  # claim steps closed in this hand
        self.window: Optional[Mapping[str, Any]] = None  # the last window-opening event sent
        self.sent = [0] * 5  # events published to each seat and to the spectators, this hand
        self._read = 0  # where in the hand's full log the next events to publish begin
        # Caches of what the game gives, each kept with the `_moved` count it was read at: the
        # count goes up whenever the game moves or a step closes.
        self._moved = 0
        self._published: tuple[int, Optional[tuple[Mapping[str, Any], bool]]] = (-1, None)
        self._hand = 0  # the number of the hand in play (len(match.dealers) - 1, which is dearer)
        self.outbox: list[tuple[int, dict[str, Any]]] = []
        self.accepted: list[dict[str, Any]] = []  # decisions taken since the server last committed
        self.moves: list[tuple[int, int, str]] = []  # (hand, seat, action) the engine took since then
        self.ended: list[tuple[int, str]] = []  # (hand, its event log as the engine wrote it) of hands ended since then
        self.scoring: list[tuple[int, int]] = []  # (seat, step): requests held back for their win score
        self._config_dict = asdict(config)
        # `requests` as to_dict stores it, kept with the dict it was built from: a step's requests
        # are set once when it opens (a new dict), and to_dict runs at every commit
        self._stored_requests: tuple[dict[int, Request], dict[str, Any]] = ({}, {})

    # ---------------------------------------------------------------- seats and presence

    def join(self, seat: int, name: Any = None) -> str:
        """Gives a person seat its secret token, and the display ``name`` shown to all (optional,
        :func:`display_name`); the match starts when every person seat is taken."""
        shown = display_name(name)
        if not 0 <= seat < 4:
            raise TableError("bad_seat", "seat must be 0, 1, 2 or 3")
        if self.status == "expired":
            raise TableError("expired", "this table expired waiting for players; create another")
        if self.config.seats[seat] != "person":
            raise TableError("seat_taken", f"seat {seat} is played by the bot {self.config.seats[seat]!r}")
        if self.tokens[seat] is not None:
            raise TableError("seat_taken", f"seat {seat} is taken")
        token = secrets.token_urlsafe(24)
        self.tokens[seat] = hash_token(token)
        self.names[seat] = shown
        self.begin()
        return token

    def begin(self) -> None:
        """Starts the match once every person seat is taken (at once when there is none)."""
        if self.status == "waiting" and all(
            t is not None or name != "person" for t, name in zip(self.tokens, self.config.seats)
        ):
            self._start()

    def seat_of(self, token: Any) -> int:
        """The seat a token opens; :class:`TableError` ("unauthorized") if none."""
        digest = hash_token(token) if isinstance(token, str) else ""
        found = -1
        for seat, known in enumerate(self.tokens):
            if known is not None and hmac.compare_digest(known, digest):
                found = seat
        if found < 0:
            raise TableError("unauthorized", "no seat of this table has that token")
        return found

    def connect(self, seat: int) -> None:
        self.connected[seat] = True
        self.gone_since[seat] = None
        self.left[seat] = False
        self._status_changed(seat)

    def disconnect(self, seat: int) -> None:
        self.connected[seat] = False
        self.gone_since[seat] = self.clock.now()
        self._status_changed(seat)

    def leave(self, seat: int) -> None:
        """The seat quits: treated as gone past its grace period."""
        self._left(seat)
        self._advance()

    def set_auto(self, seat: int, on: bool) -> None:
        """A seat asks for 托管 (auto-play) or takes its seat back."""
        self.auto[seat] = on
        self.expiries[seat] = 0
        self._status_changed(seat)
        if on:
            self._advance()

    # ---------------------------------------------------------------- decisions and time

    def act(self, seat: int, decision: Any, text: Any) -> None:
        """A seat's answer to its request; :class:`TableError` for a stale or illegal one, which
        changes nothing (but acting ends the seat's 托管)."""
        if self.auto[seat] and self.config.seats[seat] == "person":
            self.set_auto(seat, False)
        request = self.requests.get(seat)
        if decision != self.step or request is None or seat in self.answers:
            raise TableError(
                "stale", f"decision {decision!r} is not open for seat {seat} (open: {self._open_for(seat)})"
            )
        if not isinstance(text, str):
            raise TableError("malformed", 'the action must be a string such as "discard 5m" or "pass"')
        # an action sent as offered is the engine's own text: only the engine's act parses it
        action = text if text in request.actions else self._canonical(text)
        if action not in request.actions:
            raise TableError("illegal", self._refusal(seat, action, request))
        self.expiries[seat] = 0
        self._answer(seat, action, "seat")
        self._advance()

    @staticmethod
    def _canonical(text: str) -> str:
        """An action as the engine writes it (as offered), however the seat spelled it."""
        try:
            return str(engine.Action.parse(text))
        except engine.XueliuError as e:
            raise TableError("illegal", str(e)) from None

    def resume(self) -> None:
        """Plays on where the bots yielded (:attr:`resume_due`)."""
        self.resume_due = False
        self._advance()

    def wake_at(self) -> Optional[float]:
        """When :meth:`wake` next has something to do (asked at every commit: no list is built)."""
        due = self.deadline
        expires = self.expires_at if self.status == "waiting" else None
        ends = self.session_ends_at if self.match is not None and not self.match.time_called else None
        for time in (self.next_hand_at, expires, ends):
            if time is not None and (due is None or time < due):
                due = time
        grace = self.config.grace
        for since, left in zip(self.gone_since, self.left):
            if since is not None and not left and (due is None or since + grace < due):
                due = since + grace
        return due

    def wake(self) -> None:
        """Plays what the clock makes due: expired decisions, seats gone too long, the next hand."""
        now = self.clock.now()
        if self.status == "waiting" and self.expires_at is not None and now >= self.expires_at:
            self.status = "expired"  # nobody can join it now; the server then closes its sockets
            self._broadcast("expired")
            return
        for seat, since in enumerate(self.gone_since):
            if since is not None and not self.left[seat] and now >= since + self.config.grace:
                self._left(seat)
        self._call_time(now)
        if self.deadline is not None and now >= self.deadline:
            self._expire()
        if self.next_hand_at is not None and now >= self.next_hand_at:
            self.next_hand_at = None
            assert self.match is not None
            self.match.next_hand()
            self._new_hand()
        self._advance()

    # ---------------------------------------------------------------- views

    def welcome(self, seat: Optional[int], hand: Any = None, start: Any = 0) -> dict[str, Any]:
        """Everything a (re)connecting seat, or a spectator (``seat=None``), needs: the table, the
        current hand's events from ``start`` (all of them unless ``hand`` is the hand in play),
        and the pending request with its time left."""
        viewer = SPECTATORS if seat is None else seat
        number = self.hand_number()
        if hand != number or not isinstance(start, int) or not 0 <= start <= self.sent[viewer]:
            start = 0
        events: list[Any] = []
        if self.match is not None:
            events = self._events(viewer)[start : self.sent[viewer]]
        message = self._message(
            "welcome",
            table=self.public(),
            seat=seat,
            hand=number,
            n=start,
            events=events,
            request=None if seat is None else self._request_message(seat),
            hands=self._revealed(),
        )
        return message

    def settlement(self) -> list[dict[str, Any]]:
        """The end messages again, for a (re)connecting seat or spectator: the last hand's
        ``hand_over`` between hands and once the match is over, then ``match_over`` if it is. A
        seat away at the end, or a server killed between the last commit and its sending, would
        otherwise never hear them."""
        match = self.match
        if match is None or self.status not in ("between", "over"):
            return []
        over = self.status == "over"
        game = match.game  # the ended hand's until the next one is dealt
        hand_over = self._message(
            "hand_over",
            hand=self.hand_number(),
            scores=game.scores,
            totals=match.totals,
            next_dealer=None if over else match.next_dealer,
            hands=self._revealed(),
        )
        messages = [hand_over]
        if over:
            messages.append(
                self._message(
                    "match_over", totals=match.totals, placement=match.placement_points, seed=self.seed, salt=self.salt
                )
            )
        return messages

    def _revealed(self) -> Optional[list[list[str]]]:
        """摊牌: every seat's concealed tiles once the hand in play is over (shown to all, as at a
        real table), else None: while a hand is played no seat's tiles leave the engine."""
        if self.match is None or not self.match.game.is_over:
            return None
        return [[str(t) for t in self.match.game.hand(s)] for s in range(4)]

    def public(self) -> dict[str, Any]:
        """What anyone may know of the table (the lobby's view)."""
        c = self.config
        match = self.match
        return {
            "id": self.id,
            "status": self.status,
            "preset": c.preset,
            "options": c.options,
            "hands": c.hands,
            "hands_played": 0 if match is None else match.hands_played,
            "totals": match.totals if match is not None else [0, 0, 0, 0],
            "results": [] if match is None else match.results,
            "seats": [self._seat_status(s) for s in range(4)],
            "clocks": c.clocks,
            "auto_after": c.auto_after,
            "grace": c.grace,
            "on_leave": c.on_leave,
            "spectator_delay": c.spectator_delay,
            "next_hand_delay": c.next_hand_delay,
            "time_limit": c.time_limit,
            "session_ends_at": self.session_ends_at,
            "seed_chosen": c.seed is not None,
            "seed_commitment": self.commitment,
            "seed_revealed": {"seed": self.seed, "salt": self.salt} if self.status == "over" else None,
        }

    def lobby(self) -> dict[str, Any]:
        """:meth:`public` as late as the spectators see it: a hand's result (and the status it
        leads to, and the seed it reveals) shows only ``spectator_delay`` seconds after the hand ended."""
        view = self.public()
        shown = bisect.bisect_right(self.ended_at, self.clock.now() - self.config.spectator_delay)
        if shown < len(self.ended_at):
            results = view["results"][:shown]
            totals = [sum(scores[seat] for scores in results) for seat in range(4)]
            view.update(status="playing", hands_played=shown, results=results, totals=totals, seed_revealed=None)
        return view

    def finished_hand(self, hand: Any) -> list[Event]:
        """The events of finished hand ``hand`` (from 0) as the spectators saw them, for the
        replay viewer; shown as late as :meth:`lobby` shows its result. The full log waits for
        the match's end (a hand's log holds its seed: docs/server.md, "Fair deals")."""
        shown = len(self.lobby()["results"])
        if not (_integer(hand) and 0 <= hand < shown) or self.match is None:
            raise TableError("not_over", f"hand {hand!r} is not a finished hand of this table ({shown} shown so far)")
        events = self.match.log()["games"][hand]
        return engine.Game.from_events(events).public_events()

    def hand_number(self) -> int:
        """The number of the hand in play, from 0 (or of the last hand, once the match is over)."""
        return self._hand

    # ---------------------------------------------------------------- snapshots

    def to_dict(self) -> dict[str, Any]:
        """The table's state less its match, as JSON-able data: a few hundred bytes, written at
        every commit. The match is kept as storage keeps it (:meth:`from_dict`)."""
        return {
            "id": self.id,
            "config": self._config_dict,
            "seed": self.seed,
            "salt": self.salt,
            "hand": self.hand_number(),
            "status": self.status,
            "tokens": self.tokens,
            "names": self.names,
            "auto": self.auto,
            "expiries": self.expiries,
            "left": self.left,
            "step": self.step,
            "kind": self.kind,
            "requests": self._requests_state(),
            "answers": {str(s): a for s, a in self.answers.items()},
            "windows_published": self.windows_published,
            "windows_closed": self.windows_closed,
            "window": self.window,
            "sent": self.sent,
            "between": self.next_hand_at is not None,
            "ended_at": self.ended_at,
            "session_ends_at": self.session_ends_at,
        }

    def _requests_state(self) -> dict[str, Any]:
        """``requests`` as :meth:`to_dict` stores them, built once per step."""
        if self._stored_requests[0] is not self.requests:
            self._stored_requests = (self.requests, {str(s): vars(r) for s, r in self.requests.items()})
        return self._stored_requests[1]

    def match_json(self) -> Optional[str]:
        """The match's verified snapshot (``Match.to_json``), for comparisons; storage keeps less."""
        return None if self.match is None else self.match.to_json()

    @staticmethod
    def from_dict(data: dict[str, Any], ended: list[str], moves: list[tuple[int, str]], clock: Clock) -> "Table":
        """Restores a table from its state, the event logs of its ended hands (``ended``) and the
        moves the engine took in the hand in play: the match is replayed (seed and moves give the
        same game, byte for byte; ``Match.from_log`` verifies the ended hands). Every open
        decision gets its full time again, and every seat counts as gone since now (so the grace
        period starts over)."""
        config = TableConfig(**data["config"])
        table = Table(data["id"], config, clock, seed=data["seed"], salt=data.get("salt"))  # older rows: none
        if data["status"] != "waiting":
            table.match = table._replay(ended, data["hand"], moves)
            table._hand = data["hand"]
            table._read = engine._read_place(table.match.game, data["sent"])
        for name in (
            "status",
            "tokens",
            "auto",
            "expiries",
            "left",
            "step",
            "kind",
            "windows_published",
            "windows_closed",
            "window",
            "sent",
        ):
            setattr(table, name, data[name])
        table.names = data.get("names", table.names)  # (absent from tables saved before names)
        table.requests = {int(s): Request(**r) for s, r in data["requests"].items()}
        table.answers = {int(s): a for s, a in data["answers"].items()}
        now = clock.now()
        if table.requests and table.kind is not None:
            table.deadline = now + config.clocks[table.kind]
        if data["between"]:
            table.next_hand_at = now + config.next_hand_delay
        table.gone_since = [None if name != "person" or left else now for name, left in zip(config.seats, table.left)]
        table.ended_at = data.get("ended_at", [0.0] * len(ended))  # schema 2's first rows lack it: long ended
        table.resume_due = table.status == "playing"  # the bots may have yielded just before the stop
        table.session_ends_at = data.get("session_ends_at")  # (absent from tables saved before limits)
        table._call_time(now)  # a limit that passed while the server was down holds all the same
        return table

    def _replay(self, ended: list[str], hand: int, moves: list[tuple[int, str]]) -> engine.Match:
        """The match after ``ended`` hands, then ``moves`` in hand ``hand`` if it has not ended."""
        match = engine.Match(self.config.rules(), seed=self.seed, hands=self.config.hands)
        if ended:
            log = match.log()
            log["games"] = [orjson.loads(text) for text in ended]  # each hand a JSON value of its own
            match = engine.Match.from_log(log)
        if hand == len(ended) > 0:  # the hand after the last ended one is dealt
            match.next_hand()
        if hand != len(match.dealers) - 1:
            raise RuntimeError(f"table {self.id}: hand {hand} is in play, but {len(ended)} hand(s) ended")
        if hand == len(ended):
            game = match.game
            for seat, action in moves:
                if action == "abandon":
                    game.abandon(seat)
                else:
                    game.act(seat, action)
        return match

    # ---------------------------------------------------------------- the engine loop

    def _start(self) -> None:
        self.match = engine.Match(self.config.rules(), seed=self.seed, hands=self.config.hands)
        self.status = "playing"
        now = self.clock.now()
        self.gone_since = [None if name != "person" or c else now for name, c in zip(self.config.seats, self.connected)]
        if self.config.time_limit is not None:
            self.session_ends_at = now + self.config.time_limit
        self._new_hand()
        self._advance()

    def _new_hand(self) -> None:
        assert self.match is not None
        self._hand = len(self.match.dealers) - 1
        self.status = "playing"
        self.windows_published = self.windows_closed = 0
        self.window = None
        self.sent = [0] * 5
        self._read = 0
        self._moved += 1

    def _advance(self) -> None:
        """Publishes what may be published, then opens steps and lets bots and 托管 seats answer
        until a person must decide or the match waits for the clock. After :data:`AUTO_STEPS`
        automatic steps it yields (:attr:`resume_due`), so that an all-bot match is played a
        few milliseconds at a time between the server's other work."""
        steps = 0
        while self.match is not None and self.status == "playing":
            window = self._publish()
            if self.requests:
                if steps == AUTO_STEPS:
                    self.resume_due = True
                    return
                if not self._auto_answer():
                    return
                steps += 1
                continue
            game = self.match.game
            if window is None and game.is_over:
                self._hand_over()
                continue  # on into the next hand when it is dealt at once (no next_hand_delay)
            self._open(window)

    def _publish(self) -> Optional[tuple[Mapping[str, Any], bool]]:
        """:meth:`_send_new_events`, run again only once the game has moved or a step has closed:
        nothing else changes what it sends or finds."""
        if self._published[0] != self._moved:
            self._published = (self._moved, self._send_new_events())
        return self._published[1]

    def _send_new_events(self) -> Optional[tuple[Mapping[str, Any], bool]]:
        """Sends each viewer its new events, up to and including the next window-opening event
        (a discard, a kong that may be robbed), after which nothing goes out until its claim step
        closes. Returns that open window's event and whether the engine waits on its answers.
        The events go out as the engine wrote them, all five viewers' from one engine call (JSON
        text embedded in the message): read into Python and written again, they cost a quarter
        of the table's instructions per decision."""
        assert self.match is not None
        views, window, held, read = engine._events_to_window(self.match.game, self._read)
        if self.windows_published == self.windows_closed:
            hand = self.hand_number()
            sent, table_id, outbox = self.sent, self.id, self.outbox
            for viewer, (text, count) in enumerate(views):
                if count:
                    events = orjson.Fragment(text)
                    message = {
                        "v": PROTOCOL,
                        "type": "events",
                        "table": table_id,
                        "hand": hand,
                        "n": sent[viewer],
                        "events": events,
                    }
                    outbox.append((viewer, message))
                    sent[viewer] += count
            self._read = read
            if window is None:
                return None
            self.windows_published += 1
            self.window = orjson.loads(window)
        else:  # a window still open: what the engine wrote since is held, and says it moved on
            held = views[SPECTATORS][1] > 0
        assert self.window is not None
        return self.window, not held  # the engine waits on the window's answers unless it moved on

    def _events(self, viewer: int, start: int = 0) -> list[Event]:
        assert self.match is not None
        game = self.match.game
        return game.public_events(start=start) if viewer == SPECTATORS else game.events_for(viewer, start=start)

    def _open(self, window: Optional[tuple[Mapping[str, Any], bool]]) -> None:
        """Opens the next step: the engine says whom the table asks and what it offers each
        (``_step_requests``; in a claim window every other seat still in the hand)."""
        assert self.match is not None
        game = self.match.game
        if window is None:
            kind = {"exchange": "exchange", "void": "void"}.get(game.phase, "turn")
            asked = engine._step_requests(game, None, False)
        else:
            event, waiting = window
            kind = "claim" if event["type"] == "discard" else "rob"
            asked = engine._step_requests(game, event["seat"], waiting)
        self.step += 1
        self.kind = kind
        self.answers = {}
        self.requests = {seat: Request(actions, default, by_engine) for seat, actions, default, by_engine in asked}
        self.deadline = self.clock.now() + self.config.clocks[kind]
        for seat, request in self.requests.items():
            if not self.auto[seat]:
                if "win" in request.actions:
                    self.scoring.append((seat, self.step))  # its score is worked out after the commit
                else:
                    self.outbox.append((seat, self._request(seat)))
        if window is not None and not self.requests:  # nobody left to ask (cannot happen in play)
            self._close()

    def _auto_answer(self) -> bool:
        """Bots and 托管 seats answer; closes the step when all have. False if a person must."""
        for seat, request in self._unanswered():
            if self.auto[seat]:
                self._answer(seat, self._bot_choice(seat, request), "bot")
        return not self.requests

    def _unanswered(self) -> Iterator[tuple[int, Request]]:
        """The open step's seats still to answer, one by one, until the step closes."""
        step = self.step
        for seat, request in list(self.requests.items()):
            if self.step != step or not self.requests:
                return
            if seat not in self.answers:
                yield seat, request

    def _bot_choice(self, seat: int, request: Request) -> str:
        if not request.engine:
            return "pass"
        assert self.match is not None
        name = self.config.seats[seat]
        bot = engine.Bot("greedy" if name == "person" else name, seed=(self.seed + 4 * self.step + seat) % 2**63)
        return str(bot.choose(self.match.game, seat))

    def _answer(self, seat: int, action: str, by: str) -> None:
        self.answers[seat] = action
        self.accepted.append(
            {"hand": self.hand_number(), "decision": self.step, "seat": seat, "action": action, "by": by}
        )
        if by != "bot" or self.config.seats[seat] == "person":
            message = {
                "v": PROTOCOL,
                "type": "accepted",
                "table": self.id,
                "decision": self.step,
                "action": action,
                "by": by,
            }
            self.outbox.append((seat, message))
        if len(self.answers) == len(self.requests):
            self._close()

    def _close(self) -> None:
        assert self.match is not None
        game = self.match.game
        hand = self.hand_number()
        for seat in sorted(self.answers):
            if self.requests[seat].engine:
                game.act(seat, self.answers[seat])
                self.moves.append((hand, seat, self.answers[seat]))
        if self.kind in ("claim", "rob"):
            self.windows_closed += 1
        self.requests, self.answers, self.deadline, self.kind = {}, {}, None, None
        self._moved += 1

    def _expire(self) -> None:
        for seat, request in self._unanswered():
            self.expiries[seat] += 1
            if self.expiries[seat] >= self.config.auto_after and not self.auto[seat]:
                self.auto[seat] = True
                self._status_changed(seat)
            self._answer(seat, request.default, "clock")

    def _left(self, seat: int) -> None:
        self.left[seat] = True
        self.auto[seat] = True
        self._status_changed(seat)
        match = self.match
        if self.config.on_leave == "abandon" and match is not None and self.status == "playing":
            game = match.game
            if not game.is_over and game.in_hand(seat):
                # the open step is void: the hand ends here
                self.requests, self.answers, self.deadline, self.kind = {}, {}, None, None
                self.accepted.append(
                    {
                        "hand": self.hand_number(),
                        "decision": self.step,
                        "seat": seat,
                        "action": "abandon",
                        "by": "leave",
                    }
                )
                game.abandon(seat)
                self.moves.append((self.hand_number(), seat, "abandon"))
                self.windows_closed = self.windows_published  # hold nothing more
                self._moved += 1

    def _call_time(self, now: float) -> None:
        """The session's time is up: the hand in play is the last (between hands, the one just
        ended was, and the match is over now)."""
        match = self.match
        if match is None or match.time_called or self.session_ends_at is None or now < self.session_ends_at:
            return
        match.call_time()
        if self.status == "between" and match.is_over:
            self.status, self.next_hand_at = "over", None
            for message in self.settlement()[1:]:  # match_over: the hand_over went out already
                for viewer in range(5):
                    self.outbox.append((viewer, message))

    def _hand_over(self) -> None:
        assert self.match is not None
        match, game = self.match, self.match.game
        self.ended.append((self.hand_number(), engine._events_json(game)))  # the log as the engine wrote it
        self.ended_at.append(self.clock.now())
        if match.is_over:
            self.status = "over"
        else:
            self.status = "between"
        for message in self.settlement():
            for viewer in range(5):
                self.outbox.append((viewer, message))
        if not match.is_over:
            self.next_hand_at = self.clock.now() + self.config.next_hand_delay
            if self.config.next_hand_delay == 0:
                self.next_hand_at = None
                match.next_hand()
                self._new_hand()

    # ---------------------------------------------------------------- messages

    def _message(self, type_: str, **fields: Any) -> dict[str, Any]:
        return {"v": PROTOCOL, "type": type_, "table": self.id, **fields}

    def _send(self, viewer: int, type_: str, **fields: Any) -> None:
        self.outbox.append((viewer, self._message(type_, **fields)))

    def _broadcast(self, type_: str, **fields: Any) -> None:
        for viewer in range(5):
            self._send(viewer, type_, **fields)

    def _request(self, seat: int) -> dict[str, Any]:
        """The open step's request to ``seat`` (a dict literal: one goes out at every decision)."""
        request = self.requests[seat]
        assert self.deadline is not None
        return {
            "v": PROTOCOL,
            "type": "request",
            "table": self.id,
            "decision": self.step,
            "kind": self.kind,
            "actions": request.actions,
            "default": request.default,
            "deadline": self.deadline,
            "seconds_left": max(0.0, self.deadline - self.clock.now()),
            "win_score": self._win_score(seat) if "win" in request.actions else None,
            "waits": self._waits(seat),
        }

    def scored_requests(self) -> list[tuple[int, dict[str, Any]]]:
        """The requests that offer a win, with its score, for the seats still asked. They are held
        out of :attr:`outbox` because the score takes time (``Game.offered_win``; it took a trial
        game, 25-40 µs, before): worked out before the commit, it delayed the acknowledgement of
        whoever's answer opened the step (the discarder), and so told them that someone could win. The server sends these once the
        rest of the turn is out (docs/server.md, "Information")."""
        held, self.scoring = self.scoring, []
        return [
            (seat, self._request(seat))
            for seat, step in held
            if step == self.step and seat in self.requests and seat not in self.answers
        ]

    def _waits(self, seat: int) -> list[dict[str, Any]]:
        """听牌: the seat's waits while its hand is ready and others discard, from what it may see
        (the engine's ``_ready_waits``); none in the exchange, the void or on its own turn."""
        if self.kind not in ("claim", "rob") or self.match is None:
            return []
        return [
            {"tile": tile, "unseen": unseen, "pattern": pattern, "fan": fan, "points": points}
            for tile, unseen, pattern, fan, points in engine._ready_waits(self.match.game, seat)
        ]

    def _win_score(self, seat: int) -> Optional[ScoreDict]:
        """The score of the win on offer (its pattern, fan and points), shown before the seat
        chooses; the engine's, from the seat's own hand and what everyone sees."""
        assert self.match is not None
        score = self.match.game.offered_win(seat)
        return None if score is None else score.to_dict()

    def _refusal(self, seat: int, action: str, request: Request) -> str:
        """Why ``action`` is refused: the engine's own reason when the engine is asking the seat."""
        if request.engine:
            assert self.match is not None
            try:
                self.match.game.check(seat, action)
            except engine.XueliuError as e:
                return str(e)
        return f"{action!r} is not legal now; legal: {', '.join(request.actions)}"

    def _request_message(self, seat: int) -> Optional[dict[str, Any]]:
        if seat not in self.requests or seat in self.answers:
            return None
        return self._request(seat)

    def _open_for(self, seat: int) -> Any:
        return self.step if seat in self.requests and seat not in self.answers else None

    def _seat_status(self, seat: int) -> dict[str, Any]:
        name = self.config.seats[seat]
        return {
            "seat": seat,
            "player": "person" if name == "person" else "bot",
            "bot": None if name == "person" else name,
            "taken": name != "person" or self.tokens[seat] is not None,
            "name": self.names[seat],
            "connected": self.connected[seat] if name == "person" else True,
            "auto": self.auto[seat],
            "left": self.left[seat],
        }

    def _status_changed(self, seat: int) -> None:
        self._broadcast("seat", **self._seat_status(seat))
