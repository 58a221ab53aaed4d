"""``xueliu ladder-client``: connects any stdin/stdout bot (docs/bot-protocol.md) to a server's
ladder, so that a bot written in any language plays there unchanged (docs/ladder.md).

It starts the bot's program and relays lines both ways: the server's lines to the bot's stdin,
the bot's stdout lines to the server, adding to the bot's ``hello`` the account (``bot``,
``token``), the ``preset`` and the number of ``sets``. The ladder's own messages (``validation``,
``rated``) reach the bot too (a bot ignores types it does not know) and are collected for the
caller. When either side ends, so does the other. Needs ``websockets`` (the server extra brings it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import websockets

MAX_LINE = 1 << 16  # as the bot protocol's: a longer line from the bot is cut
CLOSE_SECONDS = 5.0  # the longest the client waits for the socket's close once the session is over
WRITE_SECONDS = 10.0  # a bot that reads none of its input for this long is stopped (as ProcessBot stops one)


@dataclass
class Session:
    """What a session brought: the validation report (if one was played), every ranked set's
    result, the errors the server sent, and how the socket closed."""

    validation: Optional[dict[str, Any]] = None
    rated: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    close_code: Optional[int] = None


async def play(
    url: str, command: Sequence[str], *, bot: str, token: str, preset: str = "chengdu", sets: Optional[int] = None
) -> Session:
    """Connects the bot ``command`` to the ladder at ``url`` (``ws://host:port/api/ladder/play``)
    as account ``bot``; returns when the session ends (the sets played, a failed validation, the
    bot's exit, or the server's close)."""
    session = Session()
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        start_new_session=True,
        limit=MAX_LINE * 2,
    )
    account = {"bot": bot, "token": token, "preset": preset, **({"sets": sets} if sets is not None else {})}
    try:
        ws = await websockets.connect(url, max_size=1 << 20, close_timeout=CLOSE_SECONDS)
        down = asyncio.ensure_future(_to_bot(ws, process, session))
        up = asyncio.ensure_future(_to_server(ws, process, account))
        await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
        _stop(process)  # whichever side ended, the other is done with: nothing below waits on the bot
        up.cancel()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(ws.close(), CLOSE_SECONDS)
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
            await asyncio.wait_for(down, CLOSE_SECONDS)
        session.close_code = ws.close_code
    finally:
        _stop(process)
        await _reap(process)
    return session


async def _to_bot(ws: Any, process: asyncio.subprocess.Process, session: Session) -> None:
    """The server's lines to the bot, noting the ladder's own messages."""
    assert process.stdin is not None
    with contextlib.suppress(websockets.exceptions.ConnectionClosed, ConnectionError):
        async for text in ws:
            line = text if isinstance(text, str) else text.decode()
            with contextlib.suppress(ValueError):
                message = json.loads(line)
                kind = message.get("type") if isinstance(message, dict) else None
                if kind == "validation":
                    session.validation = message
                elif kind == "rated":
                    session.rated.append(message)
                elif kind == "error":
                    session.errors.append(str(message.get("message")))
            process.stdin.write(line.encode() + b"\n")
            try:
                await asyncio.wait_for(process.stdin.drain(), WRITE_SECONDS)
            except asyncio.TimeoutError:
                _stop(process)  # its output ends, and with it the session
                return


async def _to_server(ws: Any, process: asyncio.subprocess.Process, account: dict[str, Any]) -> None:
    """The bot's lines to the server, its hello carrying the account; ends when the bot's output does."""
    assert process.stdout is not None
    greeted = False
    while True:
        try:
            line = await process.stdout.readline()
        except ValueError:  # a line past the reader's limit: cut, as the protocol cuts it
            line = (await process.stdout.read(MAX_LINE))[:MAX_LINE] + b"\n"
        if not line:
            return
        text = line.decode(errors="replace").rstrip("\n")[:MAX_LINE]
        if not greeted:
            with contextlib.suppress(ValueError, AttributeError):
                message = json.loads(text)
                if message.get("type") == "hello":
                    text, greeted = json.dumps({**message, **account}), True
        await ws.send(text)


async def _reap(process: asyncio.subprocess.Process) -> None:
    """Waits for the killed bot: its output read to the end first (a reader paused on a full
    buffer, a flood's, would never see the end of the pipe, and the wait would never return)."""
    assert process.stdout is not None

    async def drained() -> None:
        while await process.stdout.read(1 << 16):  # type: ignore[union-attr]
            pass

    with contextlib.suppress(asyncio.TimeoutError, ConnectionError):
        await asyncio.wait_for(drained(), CLOSE_SECONDS)
    await process.wait()


def _stop(process: asyncio.subprocess.Process) -> None:
    """Kills the bot's process group (it had its bye, or its server is gone)."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
