"""Answers: a model's JSON, and every failure as a JSON object with the message and details
(``{"error": ..., "kind": ..., "line": ...}``) under one status vocabulary: 400 bad input, 401
no player token, 404 no such game, 409 a stale save, 413 a body too large, 429 too many heavy
jobs waiting, 503 past the deadline, and 500 only for the unforeseen, logged."""

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
from .models import answer
from .puzzles import BadRequest

log = logging.getLogger(__name__)


def error(message: str, status: int, **details: Any) -> JSONResponse:
    return JSONResponse({"error": message, **{k: v for k, v in details.items() if v is not None}}, status)


async def _bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadRequest)
    details = dict(exc.details)
    retry_after = details.pop("retry_after", None)
    response = error(exc.message, exc.status, **details)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


async def _shudu_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, shudu.ShuduError)
    if isinstance(exc, MissingGame):
        status = 404
    elif isinstance(exc, GeneratorTimeout | shudu.errors.SearchTimeout):
        status = 503  # a request that may be met, but not within the deadline
    else:
        status = 400
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
    messages = {
        404: f"no such page or endpoint: {request.url.path}",
        405: f"{request.method} is not allowed here",
    }
    return error(messages.get(exc.status_code, exc.detail), exc.status_code)


async def _unexpected(request: Request, exc: Exception) -> Response:
    """Anything not foreseen: logged, and answered with JSON rather than a bare page."""
    log.exception("unexpected error in %s %s", request.method, request.url.path)
    return error(f"the server failed on this request ({type(exc).__name__}); it has been logged", 500)


def ok(model: type[BaseModel], data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(answer(model, data), status)  # type: ignore[arg-type]


#: The handler of each kind of exception, for the app.
EXCEPTION_HANDLERS = {
    BadRequest: _bad_request,
    shudu.ShuduError: _shudu_error,
    HTTPException: _http_error,
    Exception: _unexpected,
}
