"""The ladder's HTTP and WebSocket routes (docs/ladder.md): bot accounts, the bot socket, the
leaderboard's JSON. :func:`routes` gives them to :func:`~xueliu.server.app.create_app`; the
ladder itself (:mod:`.ladder`) knows nothing of HTTP.

The bot socket, ``/api/ladder/play``: the server says the bot protocol's ``hello``; the bot
answers with its own, adding ``bot`` (its account's name), ``token`` and optionally ``preset``
and ``sets``. An account not yet validated under the preset plays its validation game first (the ``validation``
message says how it went; a failed one ends the session). Then the bot is queued for ranked
sets until it leaves (or has played ``sets`` of them), a ``rated`` message after each.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Optional

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import bot_protocol as proto
from .._version import __version__
from .._xueliu import Rules
from ..ladder import manifest, reference_names
from .app import _body, _http_error, rate_limited
from .hub import WS_4401_UNAUTHORIZED, WS_4408_NO_HELLO, Connection, Server
from .ladder import Ladder, LadderError, SocketBot
from .limits import RateLimit
from .table import PROTOCOL, TableError

WS_1000_NORMAL = 1000  # the session is over (a failed validation, or the sets asked for are played)
WS_4409_ALREADY_CONNECTED = 4409  # the account has a socket open already: one each
WS_4422_BAD_HELLO = 4422  # a hello naming no preset this server has, or sets that are not a positive integer

STATUS = {"bad_name": 400, "name_taken": 409, "full": 503, "too_large": 413, "malformed": 400, "unknown_preset": 404}


def _ladder(request: Any) -> Ladder:
    ladder: Ladder = request.app.state.ladder
    return ladder


def _error(e: Any) -> JSONResponse:
    return _http_error(STATUS.get(e.code, 400), e.code, str(e))


async def create_bot(request: Request) -> Response:
    """A new bot account: ``{"name": ...}`` in, ``{"name", "token"}`` out (the token is shown once)."""
    refused = rate_limited(request, "bot accounts")
    if refused is not None:
        return refused
    try:
        body = await _body(request)
        token = _ladder(request).create_bot(body.get("name") if isinstance(body, dict) else None)
    except (LadderError, TableError) as e:
        return _error(e)
    return JSONResponse({"v": PROTOCOL, "name": body["name"], "token": token}, status_code=201)


async def leaderboard(request: Request) -> Response:
    """Every preset's ratings, best first, and the reference bots' manifest."""
    preset = request.query_params.get("preset")
    if preset is not None and preset not in Rules.presets():
        return _error(LadderError("unknown_preset", f"no preset {preset!r}; one of {Rules.presets()}"))
    rows = _ladder(request).store.ratings(preset)
    boards: dict[str, list[dict[str, Any]]] = {}
    reference = set(reference_names())
    for row in rows:
        boards.setdefault(row.pop("preset"), []).append({**row, "reference": row["name"] in reference})
    return JSONResponse({"v": PROTOCOL, "ladder": boards, "manifest": manifest()})


async def _hello(ws: WebSocket, seconds: float, per_second: float) -> Optional[dict[str, Any]]:
    """The bot's hello (the whole message), within ``seconds``; other lines before it are told
    they are not one (read at ``per_second``, as every later line). None (the socket closed,
    4408) if none came."""
    rate = RateLimit(per_second, max(1.0, per_second))

    async def first() -> dict[str, Any]:
        while True:
            message = await _paced(ws, rate)
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            line = (message.get("text") or (message.get("bytes") or b"").decode(errors="replace"))[: proto.MAX_LINE]
            read = proto.read_line(line.encode())
            if isinstance(read, proto.Hello):
                hello: dict[str, Any] = orjson.loads(line)
                return hello
            problem = read.problem if isinstance(read, proto.Unexpected) else "expected a hello first"
            await ws.send_text(proto.encode(proto.error(problem)).decode().rstrip("\n"))

    try:
        return await asyncio.wait_for(first(), seconds)
    except asyncio.TimeoutError:
        await ws.close(code=WS_4408_NO_HELLO)
        return None


async def _paced(ws: WebSocket, rate: RateLimit) -> Any:
    """The socket's next message, read no faster than ``rate`` allows: past it the socket is
    simply not read, and TCP slows the bot down."""
    while (wait := rate.wait()) > 0:
        await asyncio.sleep(wait)
    return await ws.receive()


async def _refuse(ws: WebSocket, code: int, message: str) -> None:
    await ws.send_text(proto.encode(proto.error(message)).decode().rstrip("\n"))
    await ws.close(code=code)


async def bot_socket(ws: WebSocket) -> None:
    server: Server = ws.app.state.server
    ladder = _ladder(ws)
    await ws.accept()
    try:
        await ws.send_text(proto.encode(proto.hello("xueliu-server", __version__)).decode().rstrip("\n"))
        hello = await _hello(ws, server.limits.hello_seconds, server.limits.messages_per_second)
        if hello is None:
            return
        name, preset, sets = hello.get("bot"), hello.get("preset", "chengdu"), hello.get("sets")
        if not isinstance(name, str) or not ladder.authenticate(name, hello.get("token")):
            await _refuse(ws, WS_4401_UNAUTHORIZED, "no bot account has that name and token")
            return
        if preset not in Rules.presets() or not (sets is None or (type(sets) is int and sets > 0)):
            await _refuse(
                ws, WS_4422_BAD_HELLO, f"preset is one of {Rules.presets()}; sets, if given, a positive integer"
            )
            return
        if name in ladder.connected:
            await _refuse(ws, WS_4409_ALREADY_CONNECTED, f"bot {name!r} is connected already: one socket per account")
            return
        ladder.connected.add(name)
        try:
            await _session(ws, server, ladder, name, preset, sets)
        finally:
            ladder.connected.discard(name)
    except WebSocketDisconnect:
        pass


async def _session(ws: WebSocket, server: Server, ladder: Ladder, name: str, preset: str, sets: Optional[int]) -> None:
    """Validation if the account needs it, then ranked sets, while a task feeds the bot's lines."""
    conn = Connection(ws, server.limits.queue_bytes)
    conn.start()
    bot = SocketBot(name, ladder.config.time_ms, asyncio.get_running_loop(), conn.send)
    reader = asyncio.ensure_future(_read(ws, bot, server.limits.messages_per_second))
    try:
        if not ladder.store.passed(name, preset):
            report = await ladder.validate(bot, preset)
            bot.say(report)
            if not report["passed"]:
                return
        played = 0
        while sets is None or played < sets:
            ranked = asyncio.ensure_future(ladder.ranked(bot, preset))
            await asyncio.wait({ranked, reader}, return_when=asyncio.FIRST_COMPLETED)
            if not ranked.done():  # the bot left: out of the queue, or its set plays on with defaults
                ranked.cancel()
                return
            bot.say(ranked.result())
            played += 1
    except LadderError as e:
        bot.say(proto.error(str(e)))
    finally:
        reader.cancel()
        bot.hang_up()
        bot.say(proto.bye())
        conn.close(WS_1000_NORMAL)
        await conn.stop()


async def _read(ws: WebSocket, bot: SocketBot, per_second: float) -> None:
    """Feeds the bot's messages to it, paced at ``per_second`` (past a burst of as many), until
    the socket closes."""
    rate = RateLimit(per_second, max(1.0, per_second))
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await _paced(ws, rate)
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            bot.feed(text if text is not None else (message.get("bytes") or b"").decode(errors="replace"))
    bot.hang_up()


def routes() -> list[BaseRoute]:
    """The ladder's routes, mounted by create_app before the static files."""
    return [
        Route("/api/ladder/bots", create_bot, methods=["POST"]),
        Route("/api/ladder", leaderboard, methods=["GET"]),
        WebSocketRoute("/api/ladder/play", bot_socket),
    ]
