"""Answers: a model's JSON, and every failure as a JSON object with the message and details
(``{"error": ..., "kind": ..., "line": ...}``) under one status vocabulary: 400 a body that breaks
its model, 401 no access token, 403 a write from another site, 404 no such game, 405 a method the
path lacks (with ``Allow``), 408 a body too slow to arrive, 409 a stale save, 413 a body too
large, 415 a body that is not JSON, 422 a body that fits its model but cannot be met (a bad
puzzle, a kind the generator cannot make), 429 too many heavy jobs waiting, 503 past the
deadline, and 500 only for the unforeseen, logged. A client gone mid-request is one log line."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

import shudu

from ..generator import GeneratorTimeout
from ..store import MissingGame
from .bodies import Disconnected
from .models import answer
from .puzzles import BadRequest

log = logging.getLogger(__name__)


def error(message: str, status: int, **details: Any) -> JSONResponse:
    return JSONResponse({"error": message, **{k: v for k, v in details.items() if v is not None}}, status)


async def _bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadRequest)
    details = dict(exc.details)
    retry_after = details.pop("retry_after", None)
    close = details.pop("close", False)
    response = error(exc.message, exc.status, **details)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    if close:  # the rest of the body may still come: not a connection to read another request on
        response.headers["Connection"] = "close"
    return response


async def _disconnected(request: Request, exc: Exception) -> Response:
    """A client gone before its request was read: one line in the log, as 499 (nobody to answer)."""
    log.info(
        '%s "%s %s" 499: the client went away before its request was read',
        _client(request),
        request.method,
        request.url.path,
    )
    return Response(status_code=499)


def _client(request: Request) -> str:
    return f"{request.client.host}:{request.client.port}" if request.client else "-"


async def _shudu_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, shudu.ShuduError)
    if isinstance(exc, MissingGame):
        status = 404
    elif isinstance(exc, GeneratorTimeout | shudu.errors.SearchTimeout):
        status = 503  # a request that may be met, but not within the deadline
    else:
        status = 422  # the request fits its model, but its puzzle or kind cannot be met
    return error(
        str(exc),
        status,
        kind=type(exc).__name__,
        line=exc.line,
        column=getattr(exc, "column", None),
        cells=[str(c) for c in getattr(exc, "cells", ()) or ()] or None,
    )


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    allowed = (exc.headers or {}).get("Allow")
    messages = {
        404: f"no such page or endpoint: {request.url.path}",
        405: f"{request.method} is not allowed here" + (f"; allowed: {allowed}" if allowed else ""),
    }
    response = error(messages.get(exc.status_code, exc.detail), exc.status_code)
    response.headers.update(exc.headers or {})
    return response


async def _unexpected(request: Request, exc: Exception) -> Response:
    """Anything not foreseen: logged, and answered with JSON rather than a bare page."""
    log.exception("unexpected error in %s %s", request.method, request.url.path)
    return error(f"the server failed on this request ({type(exc).__name__}); it has been logged", 500)


def ok(model: type[BaseModel], data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(answer(model, data), status)  # type: ignore[arg-type]


#: The handler of each kind of exception, for the app.
EXCEPTION_HANDLERS = {
    BadRequest: _bad_request,
    Disconnected: _disconnected,
    shudu.ShuduError: _shudu_error,
    HTTPException: _http_error,
    Exception: _unexpected,
}
