"""Players: the three kinds of bot a host seats, behind one interface, and the loop that plays a hand.

A player is built from what a user gives (:func:`player`): a built-in bot's name (``"greedy"``,
``"ismcts:100"``), any Python object with ``choose(game, seat) -> Action`` or a callable
``(game, seat) -> Action`` (in-process), or a :class:`ProcessBot`, a program in any language
speaking the bot protocol (:mod:`xueliu.bot_protocol`, docs/bot-protocol.md) over stdin/stdout.
:func:`play_hand` plays one hand with four of them; the arena (:mod:`xueliu._arena`) and
``simulate``/``compare_bots`` with Python bots build on it.

Every player fails closed: whatever a bot does — raise, hang, crash, write garbage, name an
illegal action — its seat gets ``game.default_action(seat)`` for that decision, the failure is
counted in :class:`Counts`, and the hand goes on. Every wait on a process has a deadline.
"""

from __future__ import annotations

import copy
import errno
import os
import select
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

from . import bot_protocol as proto
from ._version import __version__
from ._xueliu import Action, Bot, Game, XueliuError, _bot_lines
from .reference.rng import SplitMix64

_GAMMA = 0x9E3779B97F4A7C15
_BOT_SALT = 0xB075B075B075B075
_MASK = (1 << 64) - 1


def game_seed(seed: int, game: int) -> int:
    """Deal ``game``'s seed in a run seeded ``seed``, as ``simulate`` deals it (docs/bots.md, "Seeds")."""
    return SplitMix64((seed + game * _GAMMA) & _MASK).next_u64()


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s bot in the game dealt from ``game_seed``, as ``simulate`` seeds it."""
    return SplitMix64(((game_seed ^ _BOT_SALT) + seat * _GAMMA) & _MASK).next_u64()


@dataclass
class Counts:
    """What a player did: decisions, their wall times, and every way it failed."""

    decisions: int = 0
    seconds: list[float] = field(default_factory=list)
    defaulted: int = 0  # no answer in time (or the process was gone)
    rejected: int = 0  # an illegal action
    unparseable: int = 0  # not JSON, no action, or an exception raised by an in-process bot
    stale: int = 0  # answers to no open request
    errors: int = 0  # protocol errors outside answers (unknown types, bad hellos)
    restarts: int = 0  # processes started again after a crash

    @property
    def failures(self) -> int:
        """Decisions the bot did not make itself."""
        return self.defaulted + self.rejected + self.unparseable

    def merge(self, other: "Counts") -> "Counts":
        """These counts followed by ``other``'s."""
        merged = Counts(seconds=self.seconds + other.seconds)
        for name in ("decisions", "defaulted", "rejected", "unparseable", "stale", "errors", "restarts"):
            setattr(merged, name, getattr(self, name) + getattr(other, name))
        return merged


class Player:
    """One seat's bot for a run of hands. ``begin``/``end`` frame each hand; ``decide`` never
    raises for anything the bot does and always returns an action legal for the seat now."""

    name: str

    def __init__(self) -> None:
        self.counts = Counts()

    def begin(self, game: Game, seat: int) -> None:
        """A hand starts with this player in ``seat``."""

    def decide(self, game: Game, seat: int) -> Action:
        """The seat's action now (the default action if the bot fails), timed and counted."""
        start = time.perf_counter()
        action = self._decide(game, seat)
        self.counts.seconds.append(time.perf_counter() - start)
        self.counts.decisions += 1
        return action

    def _decide(self, game: Game, seat: int) -> Action:
        raise NotImplementedError

    def end(self, game: Game, seat: int) -> None:
        """The hand is over."""

    def close(self) -> None:
        """No more hands: release what the player holds (a process)."""

    def clone(self) -> "Player":
        """The same bot for another seat, with counts of its own (and a process of its own)."""
        twin = copy.copy(self)
        twin.counts = Counts()
        return twin


class Builtin(Player):
    """A built-in Rust bot by name, seeded per hand as ``simulate`` seeds it, so a hand played
    here is the hand ``simulate`` plays."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = Bot(name).name  # an unknown name fails here, with the valid ones
        self._bot = Bot(self.name)

    def begin(self, game: Game, seat: int) -> None:
        self._bot = Bot(self.name, seed=bot_seed(game.seed, seat))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """A built-in pickles as its name (worker processes and Ray build their own)."""
        return Builtin, (self.name,)

    def _decide(self, game: Game, seat: int) -> Action:
        return self._bot.choose(game, seat)


class InProcess(Player):
    """A Python bot: an object with ``choose(game, seat)`` or a callable ``(game, seat)``. It is
    trusted code sharing the host's process: it is handed the live game and must read only what
    the seat may see (``events_for(seat)``, ``legal_actions(seat)``, ``observe(seat)``, …)."""

    def __init__(self, bot: Any, name: Optional[str] = None) -> None:
        super().__init__()
        choose = getattr(bot, "choose", None)
        self._choose: Callable[[Game, int], Any] = choose if callable(choose) else bot
        if not callable(self._choose):
            raise XueliuError(f"a bot is a name, a ProcessBot, or has choose(game, seat); got {bot!r}")
        self.bot = bot
        self.name = name or getattr(bot, "name", None) or type(bot).__name__

    def _decide(self, game: Game, seat: int) -> Action:
        try:
            choice = self._choose(game, seat)
            action = choice if isinstance(choice, Action) else Action.parse(str(choice))
        except Exception:  # a bot's bug is its failure, not the host's
            self.counts.unparseable += 1
            return game.default_action(seat)
        if action not in game.legal_actions(seat):
            self.counts.rejected += 1
            return game.default_action(seat)
        return action

    def __getstate__(self) -> dict[str, Any]:
        return {"bot": self.bot, "name": self.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["bot"], state["name"])  # type: ignore[misc]


def player(bot: Any) -> Player:
    """The player for what a user gives: a :class:`Player` as is, a name, or a Python bot."""
    if isinstance(bot, Player):
        return bot
    if isinstance(bot, str):
        return Builtin(bot)
    return InProcess(bot)


def play_hand(game: Game, seats: Sequence[Player], moved: Optional[Callable[[int, Action], None]] = None) -> None:
    """Plays ``game`` to its end with ``seats[s]`` deciding for seat ``s``, the first seat to act
    first (as ``simulate`` does). Each decision is checked: a bot's failure is its seat's.
    ``moved(seat, action)`` hears each action played (the server's ladder shows it at a table)."""
    for s, p in enumerate(seats):
        p.begin(game, s)
    while not game.is_over:
        seat = game.to_act()[0]
        action = seats[seat].decide(game, seat)
        game.act(seat, action)
        if moved is not None:
            moved(seat, action)
    for s, p in enumerate(seats):
        p.end(game, s)


# --------------------------------------------------------------------------------- processes


class LineBot(Player):
    """A bot at the other end of a line transport, speaking the bot protocol: the protocol's side
    of a decision (events, request, answer, ack, the counts and what went wrong), whatever carries
    the lines. :class:`ProcessBot` carries them over a process's stdin and stdout; the server's
    ladder (:mod:`xueliu.server.ladder`) over a WebSocket. A subclass gives the transport:
    :meth:`_connect`, :attr:`_gone`, :meth:`_write`, :meth:`_read_line` and :meth:`_drop`."""

    #: How many of the problems met (answers not accepted, protocol errors) :attr:`problems` keeps.
    MAX_PROBLEMS = 20

    def __init__(self, name: str, time_ms: int) -> None:
        super().__init__()
        self.name, self.time_ms = name, time_ms
        self.problems: list[str] = []  # what went wrong, in words, the first MAX_PROBLEMS of it
        self._next_id = 0
        self._read = 0  # where in this hand's log the events not yet sent begin
        self._outbox: list[bytes] = []  # acks and errors as lines, sent with the next lines
        self._total = 0
        self._hands = 0

    # ---- the transport

    def _connect(self) -> None:
        """Makes the bot reachable for a hand (a process started and greeted); may leave it gone."""

    @property
    def _gone(self) -> bool:
        """No bot to talk to."""
        raise NotImplementedError

    def _write(self, data: bytes, deadline: float) -> bool:
        """Writes ``data`` by ``deadline`` (time.monotonic); False if it could not."""
        raise NotImplementedError

    def _read_line(self, deadline: float) -> Optional[bytes]:
        """The next line the bot wrote, or None at the deadline or once it is gone."""
        raise NotImplementedError

    def _drop(self) -> None:
        """Cuts the bot off (a bot that does not read what it is sent)."""

    def _reachable(self) -> bool:
        """Whether the bot can play a hand as it is (else :meth:`_connect` is called first)."""
        return not self._gone

    # ---- the hand

    def begin(self, game: Game, seat: int) -> None:
        self._read = 0
        if not self._reachable():
            self._connect()

    def _decide(self, game: Game, seat: int) -> Action:
        if self._gone:
            self.counts.defaulted += 1
            return game.default_action(seat)
        self._next_id += 1
        rid = self._next_id
        # The seat's new events and its request as lines, and the texts of its legal actions.
        events, request, self._read, legal = _bot_lines(
            game, seat, self._read, request_id=rid, deadline_ms=self.time_ms
        )
        if not self._send(events, request):
            self.counts.defaulted += 1
            return game.default_action(seat)
        return self._await_answer(game, seat, rid, legal)

    def end(self, game: Game, seat: int) -> None:
        if self._gone:
            return
        self._hands += 1
        self._total += game.scores[seat]
        events, _, self._read, _ = _bot_lines(game, seat, self._read)
        self._send(events, proto.encode(proto.totals(self._hands, game.scores, seat, self._total)))

    def _problem(self, text: str) -> None:
        if len(self.problems) < self.MAX_PROBLEMS:
            self.problems.append(text)

    def _await_answer(self, game: Game, seat: int, rid: int, legal: list[str]) -> Action:
        deadline = time.monotonic() + self.time_ms / 1000
        replies = 0  # stale and error replies in this decision: bounded, so a flood cannot stall us
        while True:
            line = self._read_line(deadline)
            if line is None:
                self.counts.defaulted += 1
                default = game.default_action(seat)
                reason = "the bot is gone" if self._gone else "no answer in time"
                self._problem(f"request {rid}: {reason}")
                self._reply(proto.ack(rid, proto.DEFAULTED, default, f"{reason}; the default is played"))
                return default
            message = proto.read_line(line)
            if isinstance(message, proto.Answer) and message.request_id in (rid, None):
                return self._take(game, seat, rid, message, legal)
            if isinstance(message, proto.Answer):
                self.counts.stale += 1
                reply = proto.ack(message.request_id, proto.STALE, None, f"no open request has id {message.request_id}")
            else:
                self.counts.errors += 1
                reply = proto.error(message.problem if isinstance(message, proto.Unexpected) else "a second hello")
            self._problem(f"request {rid}: {reply.get('reason') or reply.get('message')}")
            replies += 1
            if replies <= 8:
                self._reply(reply)

    def _take(self, game: Game, seat: int, rid: int, answer: proto.Answer, legal: list[str]) -> Action:
        """The action an answer plays: its own if the request listed it, else the default."""
        action = answer.action
        if action is None:
            self.counts.unparseable += 1
            default = game.default_action(seat)
            self._problem(f"request {rid}: unparseable: {answer.problem}")
            self._reply(proto.ack(rid, proto.UNPARSEABLE, default, answer.problem))
            return default
        text = str(action)
        if text not in legal:
            self.counts.rejected += 1
            default = game.default_action(seat)
            self._problem(f"request {rid}: rejected: {text} is not legal now")
            self._reply(proto.ack(rid, proto.REJECTED, default, f"{text} is not legal now"))
            return default
        self._reply(proto.ack(rid, proto.ACCEPTED, text))
        return action

    def _reply(self, message: dict[str, Any]) -> None:
        """An ack or error, sent with the next lines (one write a decision)."""
        self._outbox.append(proto.encode(message))

    def _send(self, *lines: bytes) -> bool:
        """Writes the waiting acks and errors, then ``lines``, in one write within ``time_ms``; a
        bot that does not read what it is sent is dropped."""
        if self._gone:
            return False
        outbox = self._outbox
        outbox.extend(lines)
        data = b"".join(outbox)
        outbox.clear()
        if self._write(data, time.monotonic() + self.time_ms / 1000):
            return True
        self._drop()
        return False


class ProcessBot(LineBot):
    """A bot in another process, speaking the bot protocol over its stdin and stdout.

    ``command`` is the program and its arguments (``["python", "mybot.py"]``). Limits:
    ``time_ms`` of wall time per decision, ``start_ms`` to start and answer the hello,
    ``cpu_seconds`` of CPU time and ``memory_mb`` of address space for the process (rlimits; a
    bot over them is killed by the kernel and restarted for the next hand). Its stderr goes to
    ``stderr`` (a path) or nowhere. The process starts at its first hand and is reused for the
    next; :meth:`close` (or the end of a ``with`` block) stops it.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: Optional[str] = None,
        time_ms: int = 1000,
        start_ms: int = 10_000,
        cpu_seconds: Optional[int] = None,
        memory_mb: Optional[int] = 2048,
        stderr: Optional[str] = None,
        cwd: Optional[str] = None,
    ) -> None:
        if isinstance(command, str) or not command:
            raise XueliuError(f"a ProcessBot's command is a list such as ['python', 'bot.py']; got {command!r}")
        self.command = [str(c) for c in command]
        super().__init__(name or " ".join(self.command), time_ms)
        self.start_ms = start_ms
        self.cpu_seconds, self.memory_mb = cpu_seconds, memory_mb
        self.stderr, self.cwd = stderr, cwd
        self._process: Optional[subprocess.Popen[bytes]] = None
        self._buffer = bytearray()
        self._skipping = False  # inside a line already cut at MAX_LINE
        self._readable = select.poll()  # the process's stdout, registered when it starts

    def __getstate__(self) -> dict[str, Any]:
        """A ProcessBot pickles as its command and options (worker processes start their own)."""
        keep = ("command", "name", "time_ms", "start_ms", "cpu_seconds", "memory_mb", "stderr", "cwd")
        return {k: self.__dict__[k] for k in keep}

    def __setstate__(self, state: dict[str, Any]) -> None:
        command = state.pop("command")
        self.__init__(command, **state)  # type: ignore[misc]

    def __enter__(self) -> "ProcessBot":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ProcessBot({self.command!r}, time_ms={self.time_ms})"

    def close(self) -> None:
        """Says ``bye``, gives the process ``start_ms`` / 10 to exit, then kills its process group."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            data = b"".join([*self._outbox, proto.encode(proto.bye())])
            _write_pipe(process, data, time.monotonic() + 0.1)
            _close_quietly(process.stdin)
            try:
                process.wait(self.start_ms / 10_000)
            except subprocess.TimeoutExpired:
                pass
        _kill(process)
        _close_quietly(process.stdout)

    # ---- the process

    def _connect(self) -> None:
        if self._process is not None:
            self.counts.restarts += 1
            _kill(self._process)
        self._buffer.clear()
        self._outbox.clear()
        self._skipping = False
        stderr: Any = open(self.stderr, "ab") if self.stderr else subprocess.DEVNULL  # noqa: SIM115
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                cwd=self.cwd,
                start_new_session=True,  # its own process group: killing it kills its children
                preexec_fn=self._limits,
            )
        except OSError as e:
            raise XueliuError(f"bot {self.name!r} cannot start: {e}") from None
        finally:
            if stderr is not subprocess.DEVNULL:
                stderr.close()
        assert self._process.stdin is not None and self._process.stdout is not None
        os.set_blocking(self._process.stdin.fileno(), False)
        os.set_blocking(self._process.stdout.fileno(), False)
        self._readable = select.poll()  # one registration a process, not an fd set built per wait
        self._readable.register(self._process.stdout.fileno(), select.POLLIN)
        if not self._handshake():
            _kill(self._process)

    def _limits(self) -> None:
        """Runs in the child before the bot's program: the CPU and memory rlimits."""
        import resource

        if self.cpu_seconds is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (self.cpu_seconds, self.cpu_seconds + 1))
        if self.memory_mb is not None:
            size = self.memory_mb << 20
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

    def _handshake(self) -> bool:
        """Sends the hello and waits ``start_ms`` for the bot's; anything else in between is an error."""
        if not self._send(proto.encode(proto.hello("xueliu", __version__))):
            return False
        deadline = time.monotonic() + self.start_ms / 1000
        while True:
            line = self._read_line(deadline)
            if line is None:
                self.counts.errors += 1
                return False
            message = proto.read_line(line)
            if isinstance(message, proto.Hello):
                return True
            problem = message.problem if isinstance(message, proto.Unexpected) else "expected a hello first"
            self.counts.errors += 1
            self._send(proto.encode(proto.error(problem)))

    @property
    def _gone(self) -> bool:
        """No process to talk to: never started, killed, or seen to exit (a closed pipe)."""
        return self._process is None or self._process.returncode is not None

    def _reachable(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def _drop(self) -> None:
        if self._process is not None:
            _kill(self._process)

    def _write(self, data: bytes, deadline: float) -> bool:
        assert self._process is not None
        return _write_pipe(self._process, data, deadline)

    def _read_line(self, deadline: float) -> Optional[bytes]:
        """The next line the bot wrote, or None at the deadline or its exit. A line longer than
        MAX_LINE comes back cut (it reads as unparseable)."""
        assert self._process is not None and self._process.stdout is not None
        fd = self._process.stdout.fileno()
        while True:
            end = self._buffer.find(b"\n")
            if self._skipping and end >= 0:  # the rest of a cut line ends here
                del self._buffer[: end + 1]
                self._skipping = False
                continue
            if self._skipping:
                self._buffer.clear()
            elif end >= 0 or len(self._buffer) > proto.MAX_LINE:
                self._skipping = end < 0
                cut = end if end >= 0 else proto.MAX_LINE
                line = bytes(self._buffer[:cut])
                del self._buffer[: cut + 1 if end >= 0 else cut]
                return line
            left = deadline - time.monotonic()
            if left <= 0 or not self._readable.poll(left * 1000):
                return None
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            except OSError as e:
                if e.errno == errno.EINTR:
                    continue
                return None
            if not chunk:  # the bot closed its output: it has exited or soon will
                _kill(self._process)
                return None
            self._buffer += chunk


def _write_pipe(process: subprocess.Popen[bytes], data: bytes, deadline: float) -> bool:
    """Writes ``data`` to the process's stdin (non-blocking) by ``deadline``; False on a closed pipe or the deadline."""
    assert process.stdin is not None
    fd = process.stdin.fileno()
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
            continue
        except BlockingIOError:
            pass
        except OSError:  # a closed pipe: the bot is gone
            return False
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([], [fd], [], left)[1]:
            return False
    return True


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kills the process's group (the bot and anything it started) and reaps it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        pass
    _close_quietly(process.stdin)


def _close_quietly(stream: Any) -> None:
    try:
        if stream is not None:
            stream.close()
    except OSError:
        pass


BotLike = Union[str, Player, Any]
