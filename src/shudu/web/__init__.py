"""The web page served by ``shudu serve``: play, solve and learn in a browser.

Needs the ``web`` extra (``pip install 'shudu[web]'``). The app only calls the public
``shudu`` API; the page is plain HTML, CSS and JavaScript modules under ``static/``.
Nothing here imports the extra's packages until an app is made, so the rest of shudu
(and ``shudu bank``) works without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app", "serve"]


def create_app(db: str | Path | None = None, **options: Any) -> Starlette:
    """The ASGI app, saving to the SQLite file ``db`` (see :func:`shudu.web.app.create_app`)."""
    from .app import create_app as make

    return make(db, **options)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path | None = None) -> None:
    """Run the app on uvicorn until interrupted."""
    import uvicorn

    uvicorn.run(create_app(db), host=host, port=port, log_level="info")
