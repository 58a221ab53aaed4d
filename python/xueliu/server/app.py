"""The HTTP and WebSocket face of the table server: a thin Starlette app over the hub
(hub.py's :class:`Server`, which owns the tables, their timers, sockets and commits) and
storage. :func:`create_app` builds the ASGI app (docs/server.md).
"""

from __future__ import annotations

import asyncio
import math
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Optional, Union

import orjson
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.status import WS_1008_POLICY_VIOLATION
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketClose, WebSocketDisconnect

from .. import _presets
from .._xueliu import Rules
from .clock import Clock, SystemClock
from .hub import (  # noqa: F401  (RETRY_SECONDS and CLOSE_SECONDS: read here by tests and docs)
    CLOSE_SECONDS,
    RETRY_SECONDS,
    WS_1011_INTERNAL_ERROR,
    WS_1013_TRY_AGAIN_LATER,
    WS_4307_MOVED,
    WS_4401_UNAUTHORIZED,
    WS_4404_UNKNOWN_TABLE,
    WS_4408_NO_HELLO,
    Connection,
    Server,
    _text,
    log,
)
from .ladder import Ladder, LadderConfig
from .ladder_store import LadderStore
from .limits import Limits, RateLimit, origin_allowed
from .storage import Moved, SQLiteStorage, Storage
from .table import PROTOCOL, Table, TableConfig, TableError

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096  # bytes of one client message; larger ones are refused, the connection stays
MAX_BODY = 16384  # bytes of an HTTP request body, refused as it streams in past this


def _error(code: str, message: str, **fields: Any) -> str:
    return _text({"v": PROTOCOL, "type": "error", "code": code, "message": message, **fields})


# ------------------------------------------------------------------------ HTTP


def _http_error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"v": PROTOCOL, "type": "error", "code": code, "message": message}, status_code=status)


STATUS = {
    "unknown_table": 404,
    "seat_taken": 409,
    "not_over": 409,
    "expired": 410,
    "too_large": 413,
    "full": 503,
    "unavailable": 503,
    "damaged": 500,
}


def _table_error(e: TableError) -> JSONResponse:
    return _http_error(STATUS.get(e.code, 400), e.code, str(e))


def _moved(request: Request, e: Moved) -> Response:
    """A redirect to the process that plays the table (307: a POST stays a POST)."""
    body = {"v": PROTOCOL, "type": "error", "code": "moved", "message": str(e), "address": e.address}
    return JSONResponse(body, status_code=307, headers={"Location": e.address + request.url.path})


async def _body(request: Request) -> Any:
    """The request's JSON, refused as it streams in once it is over :data:`MAX_BODY` (chunked or
    not), never read whole first. orjson refuses nesting deeper than 1,024."""
    too_large = TableError("too_large", f"the request body is over {MAX_BODY} bytes")
    length = request.headers.get("content-length", "0")
    if not length.isdigit() or int(length) > MAX_BODY:
        raise too_large
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise too_large
    if not body:
        return {}
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        raise TableError("malformed", "the request body is not JSON (or nests deeper than 1,024)") from None


def _server(request: Any) -> Server:
    server: Server = request.app.state.server
    return server


def _table(server: Server, table_id: str) -> Table:
    server.commit()  # an answer shows only what is committed
    server.available()
    table = server.find(table_id)
    if table is None:
        raise TableError("unknown_table", f"no table {table_id!r} on this server")
    return table


def rate_limited(request: Request, what: str) -> Optional[JSONResponse]:
    """A 429 when the client's address made too many new ``what`` (tables, bot accounts: one
    rate, :attr:`Limits.creates_per_minute`), else None."""
    wait = _server(request).creates.wait(request.client.host if request.client else "")
    if wait <= 0:
        return None
    answer = _http_error(429, "rate_limited", f"too many new {what} from your address; try in {wait:.0f} s")
    answer.headers["Retry-After"] = str(math.ceil(wait))
    return answer


async def create_table(request: Request) -> JSONResponse:
    server = _server(request)
    refused = rate_limited(request, "tables")
    if refused is not None:
        return refused
    try:
        table = server.create(TableConfig.parse(await _body(request)))
    except TableError as e:
        return _table_error(e)
    return JSONResponse({"v": PROTOCOL, "table": table.lobby()}, status_code=201)


async def list_presets(request: Request) -> JSONResponse:
    """The presets a table may use, each with its one line (xueliu._presets) and the options a
    lobby shows before any override."""
    presets = []
    for name in Rules.presets():
        rules = Rules.preset(name)
        presets.append(
            {
                "name": name,
                "description": _presets.DESCRIPTIONS[name],
                "mode": rules.mode,
                "exchange": rules.exchange,
                "cap_fan": rules.cap_fan,
                "wilds": rules.wilds,
            }
        )
    return JSONResponse({"v": PROTOCOL, "presets": presets})


async def list_tables(request: Request) -> JSONResponse:
    server = _server(request)
    server.commit()
    try:
        server.available()
    except TableError as e:
        return _table_error(e)
    tables = [t.lobby() for t in server.tables.values() if t.status != "expired"]
    return JSONResponse({"v": PROTOCOL, "tables": tables, "elsewhere": server.storage.elsewhere()})


async def show_table(request: Request) -> Response:
    try:
        table = _table(_server(request), request.path_params["table"])
    except TableError as e:
        return _table_error(e)
    except Moved as e:
        return _moved(request, e)
    return JSONResponse({"v": PROTOCOL, "table": table.lobby()})


async def match_log(request: Request) -> JSONResponse:
    """The whole match log (every hand's events, nothing hidden), once the match is over as the
    spectators see it (``spectator_delay`` after the last hand): with the seed revealed, any
    player can check the deal (docs/server.md, "Fair deals")."""
    try:
        table = _table(_server(request), request.path_params["table"])
        if table.lobby()["status"] != "over" or table.match is None:
            raise TableError("not_over", "the match log is published when the match is over")
    except TableError as e:
        return _table_error(e)
    return JSONResponse({"v": PROTOCOL, "log": table.match.log()})


async def finished_hand(request: Request) -> Response:
    """One finished hand's events as a spectator saw them, for the replay viewer (#/replay/ID/N)."""
    try:
        table = _table(_server(request), request.path_params["table"])
        events = table.finished_hand(request.path_params["hand"])
    except TableError as e:
        return _table_error(e)
    except Moved as e:
        return _moved(request, e)
    return JSONResponse({"v": PROTOCOL, "hand": request.path_params["hand"], "events": events})


async def join_seat(request: Request) -> Response:
    server = _server(request)
    try:
        table = _table(server, request.path_params["table"])
        seat = request.path_params["seat"]
        body = await _body(request)
        name = body.get("name") if isinstance(body, dict) else None
        token: list[str] = []
        server.run(table, lambda: token.append(table.join(seat, name)))
        server.commit()  # the token is committed before it is given
    except TableError as e:
        return _table_error(e)
    except Moved as e:
        return _moved(request, e)
    log.info("table %s: seat %d joined", table.id, seat)
    return JSONResponse({"v": PROTOCOL, "table": table.lobby(), "seat": seat, "token": token[0]}, status_code=201)


# ------------------------------------------------------------------------ WebSockets


async def _receive(ws: WebSocket, rate: RateLimit) -> Optional[Any]:
    """The next client message as JSON, or an error sent back (and None) when it is oversized or
    malformed; raises WebSocketDisconnect when the client is gone. Messages are read at most
    ``rate`` allows: past it the socket is simply not read, and TCP slows the client down."""
    while (wait := rate.wait()) > 0:
        await asyncio.sleep(wait)
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > MAX_MESSAGE:
            await ws.send_text(_error("too_large", f"messages are at most {MAX_MESSAGE} bytes"))
            return None
        try:
            text = data.decode()
        except UnicodeDecodeError:
            await ws.send_text(_error("malformed", "messages are JSON text"))
            return None
    if len(text.encode()) > MAX_MESSAGE:
        await ws.send_text(_error("too_large", f"messages are at most {MAX_MESSAGE} bytes"))
        return None
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        await ws.send_text(_error("malformed", 'each message is a JSON object with a "type"'))
        return None
    return data


async def _hello(ws: WebSocket, rate: RateLimit, seconds: float) -> Optional[dict[str, Any]]:
    """The socket's hello, within ``seconds`` of its opening whatever else it sends first; else
    the socket is closed (:data:`WS_4408_NO_HELLO`) and None."""

    async def first_hello() -> dict[str, Any]:
        while True:
            data = await _receive(ws, rate)
            if data is not None and data["type"] == "hello":
                hello: dict[str, Any] = data
                return hello
            if data is not None:
                await ws.send_text(_error("hello_first", 'the first message must be {"type": "hello", ...}'))

    try:
        return await asyncio.wait_for(first_hello(), seconds)
    except asyncio.TimeoutError:
        await ws.close(code=WS_4408_NO_HELLO)
        return None


async def _greet(ws: WebSocket) -> Optional[tuple[Server, Table, dict[str, Any], RateLimit]]:
    """Accepts a socket to a table and reads its hello; None (the socket closed) for an unknown
    table or a hello that never came. Seats and spectators open alike; each socket's messages
    are paced by a rate of its own."""
    server = _server(ws)
    limits = server.limits
    await ws.accept()
    try:
        table = server.find(ws.path_params["table"])
    except Moved as e:
        await ws.send_text(_error("moved", str(e), address=e.address))
        await ws.close(code=WS_4307_MOVED)
        return None
    except TableError as e:  # damaged
        await ws.send_text(_error(e.code, str(e)))
        await ws.close(code=WS_1011_INTERNAL_ERROR)
        return None
    if table is None:
        await ws.send_text(_error("unknown_table", "no such table on this server"))
        await ws.close(code=WS_4404_UNKNOWN_TABLE)
        return None
    rate = RateLimit(limits.messages_per_second, max(1.0, limits.messages_per_second))
    hello = await _hello(ws, rate, limits.hello_seconds)
    if hello is None or not await _ready(server, ws):
        return None
    return server, table, hello, rate


async def _ready(server: Server, ws: WebSocket) -> bool:
    """False (the socket told why and closed, 1013) while storage fails: a welcome shows only
    what is on disk, and the client may try again shortly."""
    server.commit()
    try:
        server.available()
    except TableError as e:
        await ws.send_text(_error(e.code, str(e)))
        await ws.close(code=WS_1013_TRY_AGAIN_LATER)
        return False
    return True


async def play_socket(ws: WebSocket) -> None:
    try:
        greeted = await _greet(ws)
        if greeted is None:
            return
        server, table, hello, rate = greeted
        try:
            seat = table.seat_of(hello.get("token"))
        except TableError as e:
            await ws.send_text(_error(e.code, str(e)))
            await ws.close(code=WS_4401_UNAUTHORIZED)
            return
        conn = Connection(ws, server.limits.queue_bytes)
        conn.start()
        server.attach_seat(table, seat, conn, hello.get("hand"), hello.get("from", 0))
        try:
            await _serve_seat(server, table, seat, conn, rate)
        finally:
            server.detach_seat(table, seat, conn)
            await conn.stop()
    except WebSocketDisconnect:
        pass


async def _serve_seat(server: Server, table: Table, seat: int, conn: Connection, rate: RateLimit) -> None:
    """Reads the seat's messages until the client goes or the server drops it."""
    while conn.close_code is None:
        data = await _receive(conn.ws, rate)
        if data is None:
            continue
        kind = data["type"]
        try:
            if kind == "act":
                server.run(table, table.act, seat, data.get("decision"), data.get("action"))
            elif kind == "auto":
                on = data.get("on")
                if not isinstance(on, bool):
                    raise TableError("malformed", '"auto" needs "on": true or false')
                server.run(table, table.set_auto, seat, on)
            elif kind == "leave":
                server.run(table, table.leave, seat)
            elif kind == "ping":
                conn.send(_text({"v": PROTOCOL, "type": "pong", "time": server.clock.now()}))
            else:
                raise TableError("unknown_type", f"unknown message type {kind!r}; see docs/server.md")
        except TableError as e:
            server.commit()  # the error may name the open step: it too follows the commit
            conn.send(_error(e.code, str(e), decision=data.get("decision") if kind == "act" else None))


async def watch_socket(ws: WebSocket) -> None:
    try:
        greeted = await _greet(ws)
        if greeted is None:
            return
        server, table, hello, rate = greeted
        conn = Connection(ws, server.limits.queue_bytes)
        conn.start()
        server.attach_watcher(table, conn, hello.get("hand"), hello.get("from", 0))
        try:
            while conn.close_code is None:
                data = await _receive(ws, rate)
                if data is not None and data["type"] != "ping":
                    conn.send(_error("spectator", "spectators only watch"))
        finally:
            server.detach_watcher(table, conn)
            await conn.stop()
    except WebSocketDisconnect:
        pass


class OriginCheck:
    """Refuses a browser page of a foreign origin before any route sees it (docs/server.md,
    "Origins"): its POSTs answer 403 ``forbidden_origin``, its WebSockets are refused with
    1008 (policy violation). GETs pass: they change nothing and show only public views."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]) -> None:
        self.app, self.allowed = app, allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" or (scope["type"] == "http" and scope["method"] == "POST"):
            headers = Headers(scope=scope)
            if not origin_allowed(headers.get("origin"), headers.get("host"), self.allowed):
                if scope["type"] == "websocket":
                    refusal: ASGIApp = WebSocketClose(code=WS_1008_POLICY_VIOLATION)
                else:
                    refusal = _http_error(403, "forbidden_origin", "pages of this origin may not use this server")
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(
    db: str = "xueliu.db",
    *,
    storage: Optional[Storage] = None,
    clock: Optional[Clock] = None,
    limits: Optional[Limits] = None,
    chosen_seeds: bool = False,
    ladder: Union[Ladder, LadderConfig, None] = None,
) -> Starlette:
    """The table server as an ASGI app: SQLite at ``db`` (or the given ``storage``), unfinished
    tables restored at startup, bounded by ``limits`` (:class:`Limits`' defaults if None).
    ``chosen_seeds`` lets tables with people take a chosen seed (for tests: their creator would
    know every deal). ``ladder``: the bot ladder (docs/ladder.md), or the settings of one keeping
    its rows in ``db`` beside the tables (in memory when ``storage`` is given). Mount it in another
    Starlette or FastAPI app as it is."""
    own = storage is None  # storage the app opened, it closes (SIGTERM: the WAL checkpointed away)
    server = Server(
        storage if storage is not None else SQLiteStorage(db),
        clock or SystemClock(),
        limits=limits,
        chosen_seeds=chosen_seeds,
    )
    limits = server.limits
    from .ladder_routes import routes as ladder_routes  # here: it imports this module

    own_ladder = not isinstance(ladder, Ladder)
    if not isinstance(ladder, Ladder):
        ladder = Ladder(LadderStore(db if storage is None else ":memory:"), ladder or LadderConfig())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.restore()
        yield
        server.commit()
        for _, timer in server.timers.values():
            timer.cancel()
        server.timers.clear()
        ladder.close()
        if own_ladder:
            ladder.store.close()
        if own:
            server.storage.close()  # the file's last connection: its WAL is checkpointed away

    routes = [
        Route("/api/presets", list_presets, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table}", show_table, methods=["GET"]),
        Route("/api/tables/{table}/log", match_log, methods=["GET"]),
        Route("/api/tables/{table}/hands/{hand:int}", finished_hand, methods=["GET"]),
        Route("/api/tables/{table}/seats/{seat:int}", join_seat, methods=["POST"]),
        WebSocketRoute("/api/tables/{table}/play", play_socket),
        WebSocketRoute("/api/tables/{table}/watch", watch_socket),
        *ladder_routes(),
        Mount("/", StaticFiles(directory=STATIC, html=True), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(OriginCheck, allowed=limits.origins)])
    app.state.server = server
    app.state.ladder = ladder
    ladder.tables = server  # its ranked games are shown at tables of this server
    return app
