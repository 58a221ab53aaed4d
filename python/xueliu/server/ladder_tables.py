"""Ranked ladder games shown at tables: watched, replayed and stored like any table's (docs/ladder.md).

A ranked game is played on a worker thread by :func:`xueliu.players.play_hand`, which waits on
the bots' sockets. Each game of a set also has a :class:`~.table.Table` of the server, its four
seats taken at once by the four bots' names (nobody else holds their tokens, so nobody can join
or act there), dealt from the same seed. Every action played is handed to the event loop and
played at that table as its seat's answer, so the table runs the same game: spectators watch it
through the usual socket with the table's ``spectator_delay``, the lobby lists it, and storage
keeps its moves and hands. Seats the table asks only to ``pass`` (a claim step asks every other
seat, docs/server.md) pass at once. The table's clocks are long: the ladder's own deadlines are
the bots'.

The four games of a set share one deal, so no table may end while another game of its set is
still to be played: its end shows every seat's concealed tiles, reveals the seed and publishes the
log, which would tell a bot the deal it is playing. Each table therefore holds its game's last
action until :meth:`LadderTable.finish`, called once the whole set is played. (What a table shows
before its end is public, and the bots of the set saw it all as they played.)

If a table ever disagrees with its game (it cannot: both are the engine's, dealt alike), or
storage refuses it, it stops following and the error is logged; the ranked game never waits on it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable, Optional

from .table import KINDS, Table, TableConfig, TableError

if TYPE_CHECKING:
    from .hub import Server

log = logging.getLogger("xueliu.server")

#: Seconds a ladder table's step may stay open: far past any bot's deadline (its answer comes from the game).
CLOCK = 3600.0


class LadderTable:
    """The table showing one ranked game: :meth:`play` is each action of the game, on the event loop."""

    def __init__(self, server: "Server", preset: str, seed: int, names: list[str], spectator_delay: float) -> None:
        config = TableConfig(
            preset=preset,
            hands=1,
            clocks=dict.fromkeys(KINDS, CLOCK),
            spectator_delay=spectator_delay,
            next_hand_delay=0.0,
        )
        self.server = server
        self.table: Table = server.create(config, seed=seed)
        self.broken = False
        self._held: Optional[tuple[int, str]] = None  # the last action played, not yet shown
        self._run(self._seat, names)

    @property
    def id(self) -> str:
        return self.table.id

    def play(self, seat: int, action: str) -> None:
        """The game's next action: played at the table once the next one comes (or at :meth:`finish`)."""
        held, self._held = self._held, (seat, action)
        if held is not None and not self.broken:
            self._run(self._act, *held)

    def finish(self) -> None:
        """The set is over: the last action is played, and the table ends."""
        held, self._held = self._held, None
        if held is not None and not self.broken:
            self._run(self._act, *held)

    def _run(self, op: Callable[..., None], *args: Any) -> None:
        try:
            self.server.run(self.table, op, *args)
        except TableError as e:  # storage failing, or (never) the table disagreeing: stop showing
            self.broken = True
            log.error("ladder table %s stops following its game: %s", self.table.id, e)

    def _seat(self, names: list[str]) -> None:
        for seat, name in enumerate(names):
            self.table.join(seat, name)  # its token is dropped: the seat is the ladder's alone
            self.table.connect(seat)  # present for good: no grace period runs out
        self._pass()

    def _act(self, seat: int, action: str) -> None:
        self.table.act(seat, self.table.step, action)
        self._pass()

    def _pass(self) -> None:
        """Answers ``pass`` for the seats the open step asks although the engine does not."""
        table = self.table
        while True:
            asked = [s for s, r in table.requests.items() if not r.engine and s not in table.answers]
            if not asked:
                return
            table.act(asked[0], table.step, "pass")
