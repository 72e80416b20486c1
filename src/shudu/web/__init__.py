"""The web page served by ``shudu serve``: play, solve and learn in a browser.

Needs the ``web`` extra (``pip install 'shudu[web]'``). The app only calls the public
``shudu`` API; the page is plain HTML, CSS and JavaScript modules under ``static/``.
Nothing here imports the extra's packages until an app is made, so the rest of shudu
(and ``shudu bank``) works without them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app", "host_warning", "serve"]


def create_app(db: str | Path | None = None, **options: Any) -> Starlette:
    """The ASGI app, saving to the SQLite file ``db`` (see :func:`shudu.web.app.create_app`)."""
    from .app import create_app as make

    return make(db, **options)


def host_warning(host: str) -> str | None:
    """The warning to print before listening on ``host``; None for a loopback address."""
    from .players import host_warning as warning

    return warning(host)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path | None = None,
    *,
    token: str | None = None,
    workers: int = 2,
    queue: int = 8,
    warn: bool = True,
    allowed_hosts: Sequence[str] = (),
) -> None:
    """Run the app on uvicorn until interrupted (with ``token``, only for those who give it);
    heavy work runs in ``workers`` processes, with at most ``queue`` requests waiting for one.
    Without a token, a ``host`` other than loopback prints a warning (unless ``warn`` is false:
    the caller has said it already).

    Requests must name this machine's loopback names, ``host`` or one of ``allowed_hosts`` as
    their ``Host`` (400 otherwise); listening on every address (``0.0.0.0``) with no
    ``allowed_hosts``, any name is answered. Headers must arrive within 10 s of a connection's
    first byte and a body within 10 s of its headers; an idle connection closes after 5 s."""
    import sys

    import uvicorn

    from .guard import allowed_for
    from .server import KEEP_ALIVE, TimedH11Protocol

    app = create_app(
        db, token=token, workers=workers, queue=queue, allowed_hosts=allowed_for(host, allowed_hosts)
    )
    warning = host_warning(host)
    if warn and warning and token is None:
        print(warning, file=sys.stderr)
    uvicorn.run(
        app, host=host, port=port, log_level="info", http=TimedH11Protocol, timeout_keep_alive=KEEP_ALIVE
    )
