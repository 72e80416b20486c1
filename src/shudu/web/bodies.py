"""Reading a request: the body as one JSON object within fixed limits and a deadline, checked
against its model, and the game id of a path. A body that breaks its model is a 400, one beyond
the reader's limits (nesting, numbers) a 422, one too slow 408, too large 413, not JSON 415: a
:class:`BadRequest` naming what is wrong, never a parser's recursion or a huge number reaching
the handlers. A client gone before its body arrived is :class:`Disconnected`."""

from __future__ import annotations

import json
import re
from typing import Any

import anyio
from pydantic import ValidationError
from starlette.requests import ClientDisconnect, Request

from shudu.errors import ShuduError
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
#: Seconds a request body may take to arrive, from the end of its headers (408 past it).
BODY_DEADLINE = 10.0


class Disconnected(Exception):
    """The client went away before its request body arrived (logged as 499, never answered)."""


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
    """The request body, a JSON object checked against ``model``: the fields it gave, as the model
    read them (``7.0`` as the whole number 7)."""
    checked = validate(model, await read_json(request))
    fields: dict[str, Any] = checked.model_dump(exclude_unset=True)
    return fields


def is_json(content_type: str) -> bool:
    """Whether a ``Content-Type`` header names JSON (``application/json``, any parameters)."""
    return content_type.partition(";")[0].strip().lower() == "application/json"


async def read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object: sent as ``application/json`` (415 otherwise; a form or
    text a page of another site may send without asking is never read), at most :data:`MAX_BODY`
    bytes (413), within :data:`BODY_DEADLINE` seconds (408)."""
    if not is_json(request.headers.get("content-type", "")):
        raise BadRequest(
            "the request body must be JSON, sent with Content-Type: application/json", status=415
        )
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY:
        raise BadRequest(f"the request body is {declared} bytes; at most {MAX_BODY} are accepted", status=413)
    chunks, total = [], 0
    try:
        with anyio.fail_after(BODY_DEADLINE):
            async for chunk in request.stream():
                total += len(chunk)
                if total > MAX_BODY:
                    raise BadRequest(
                        f"the request body is over {MAX_BODY} bytes, the most accepted", status=413
                    )
                chunks.append(chunk)
    except TimeoutError:
        raise BadRequest(
            f"the request body did not arrive within {BODY_DEADLINE:g} s", status=408, close=True
        ) from None
    except ClientDisconnect:
        raise Disconnected from None
    raw = b"".join(chunks)
    if not raw.strip():
        raise BadRequest("the request has no body; send a JSON object", status=400)
    _check_depth(raw)
    try:
        body = load_json(raw.decode("utf-8"), what="the body", max_depth=MAX_DEPTH, max_digits=MAX_DIGITS)
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8 text", status=400) from None
    except json.JSONDecodeError as exc:
        raise BadRequest(
            f"the body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", status=400
        ) from None
    except ShuduError as exc:  # a number beyond the reader's limits: too long, too large, NaN
        raise BadRequest(str(exc), kind=type(exc).__name__) from None
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object", status=400)
    return body


def validate(model: type[models.Model], body: dict[str, Any]) -> Any:
    """``body`` checked against ``model``; a 400 naming the first thing wrong. Only a body that
    breaks its model (as ``/api/openapi.json`` shows it) is a 400: a body that fits it but cannot
    be met (a puzzle that does not parse, a kind the generator cannot make) is a 422."""
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        message, name = problem(exc, model)
        raise BadRequest(message, status=400, field=name or None) from None


_ID = re.compile(r"[0-9]{1,19}")


def path_game_id(request: Request) -> int:
    """The game id in the path: a whole number 1 to 2^63-1 (404 for anything else)."""
    raw = str(request.path_params["game_id"])
    if not _ID.fullmatch(raw) or not 1 <= int(raw) <= MAX_ID:
        raise BadRequest(f"no saved game {raw[:30]!r}: a game id is a whole number 1 to {MAX_ID}", status=404)
    return int(raw)
