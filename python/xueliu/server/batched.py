"""uvicorn's WebSocket protocol, writing each connection's frames of one event-loop turn in one
system call.

uvicorn writes every WebSocket message to its socket at once, one ``write`` per message; a commit
sends a seat two or three messages (its ``accepted``, the events, its next request), and on
loopback each write costs the kernel's whole TCP send and receive. :class:`BatchedWebSockets`
keeps uvicorn's protocol (websockets' sans-I/O one) and only defers the write to the end of the
loop turn, so the frames a commit sends a socket leave together, in order, a few microseconds
later. Any other ASGI server runs :func:`xueliu.server.create_app` as it is, a write per message.

This extends uvicorn's own module, not its public API: :func:`xueliu.server.serve.ws_protocol`
falls back to uvicorn's default protocol should a release move it.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol  # uvicorn >= 0.35
from websockets.exceptions import InvalidState


class BatchedWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, its text and binary messages written once per turn
    of the event loop. Anything else (close, the handshake) first flushes what waits, and pings
    write through the same buffer, so the order on the wire is the order sent."""

    _flush_due = False

    async def send(self, message: Any) -> None:
        if message["type"] != "websocket.send" or not self.handshake_complete or self.close_sent:
            self._flush()
            await super().send(message)
            return
        await self.writable.wait()
        if self.disconnected:
            raise ClientDisconnected()
        try:
            if message.get("bytes") is not None:
                self.conn.send_binary(message["bytes"])
            else:
                self.conn.send_text(message["text"].encode())
        except InvalidState:
            raise ClientDisconnected() from None
        if not self._flush_due:
            self._flush_due = True
            self.loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        output = self.conn.data_to_send()
        if output and not self.transport.is_closing():
            self.transport.write(b"".join(output))
