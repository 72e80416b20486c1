"""The HTTP server under the app: uvicorn's h11 protocol, with a deadline for a request's headers.

uvicorn times out an idle kept-alive connection (``timeout_keep_alive``), but a connection that
sends its headers a byte at a time, or opens and sends nothing, is never timed out: a few hundred
such clients would hold the server's connections forever. :class:`TimedH11Protocol` closes a
connection whose request headers have not all arrived :data:`HEADER_DEADLINE` seconds after its
first byte (or after the connection opened). The body has a deadline of its own, in the app
(:data:`shudu.web.bodies.BODY_DEADLINE`, answered 408), which holds under any ASGI server.

Only :func:`shudu.web.serve` imports this module (it needs uvicorn).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a request's headers may take to arrive.
HEADER_DEADLINE = 10.0
#: Seconds an idle kept-alive connection stays open (uvicorn's ``timeout_keep_alive``).
KEEP_ALIVE = 5

log = logging.getLogger(__name__)


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers are too slow to come."""

    header_deadline = HEADER_DEADLINE

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._awaiting_headers():
            if self._header_timer is None:
                self._arm()  # the first byte of a request on a kept-alive connection
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _awaiting_headers(self) -> bool:
        """Whether the client has begun a request whose headers have not all come."""
        return self.conn.their_state is h11.IDLE and bool(self.conn.trailing_data[0])

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_deadline, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is not h11.IDLE or self.transport.is_closing():
            return  # the headers came (a request is under way) or the connection is closing
        if self.conn.trailing_data[0] or self.cycle is None:
            client = f"{self.client[0]}:{self.client[1]}" if self.client else "-"
            log.info(
                "%s: closed, the request headers did not arrive within %g s", client, self.header_deadline
            )
            self.transport.close()
