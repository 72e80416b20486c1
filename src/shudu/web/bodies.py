"""Reading a request: the body as one JSON object within fixed limits, checked against its model,
and the game id of a path. Anything outside the limits is a :class:`BadRequest` naming what is
wrong (400, 404 or 413), never a parser's recursion or a huge number reaching the handlers."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request

from shudu.formats import load_json

from . import models
from .models import problem
from .puzzles import BadRequest

#: The largest request body read, in bytes (a saved game of 25x25 with a long history fits).
MAX_BODY = 512 * 1024
#: The deepest nesting of lists and objects a request body may have.
MAX_DEPTH = 32
#: The most digits a number in a request body may have.
MAX_DIGITS = 30
#: The largest game id (SQLite's integer keys are 64-bit).
MAX_ID = 2**63 - 1


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


_BRACKET = re.compile(rb"[\[{\]}]")


def _check_depth(raw: bytes) -> None:
    """Refuse a body nested deeper than :data:`MAX_DEPTH` (the JSON parser recurses per level)."""
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub(b'""', raw)):
        depth += 1 if match.group() in b"[{" else -1
        if depth > MAX_DEPTH:
            raise BadRequest(f"the body is nested more than {MAX_DEPTH} lists or objects deep")


async def read_body(request: Request, model: type[models.Model]) -> dict[str, Any]:
    """The request body, a JSON object checked against ``model``."""
    body = await read_json(request)
    validate(model, body)
    return body


async def read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, read up to :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY:
        raise BadRequest(f"the request body is {declared} bytes; at most {MAX_BODY} are accepted", status=413)
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise BadRequest(f"the request body is over {MAX_BODY} bytes, the most accepted", status=413)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        raise BadRequest("the request has no body; send a JSON object")
    _check_depth(raw)
    try:
        body = load_json(raw.decode("utf-8"), what="the body", max_depth=MAX_DEPTH, max_digits=MAX_DIGITS)
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(
            f"the body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return body


def validate(model: type[models.Model], body: dict[str, Any]) -> Any:
    """``body`` checked against ``model``; a 400 naming the first thing wrong."""
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        message, name = problem(exc, model)
        raise BadRequest(message, field=name or None) from None


_ID = re.compile(r"[0-9]{1,19}")


def path_game_id(request: Request) -> int:
    """The game id in the path: a whole number 1 to 2^63-1 (404 for anything else)."""
    raw = str(request.path_params["game_id"])
    if not _ID.fullmatch(raw) or not 1 <= int(raw) <= MAX_ID:
        raise BadRequest(f"no saved game {raw[:30]!r}: a game id is a whole number 1 to {MAX_ID}", status=404)
    return int(raw)
