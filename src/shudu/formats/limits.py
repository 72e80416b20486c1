"""The limits on text from users: the one JSON loader, and the longest text read as one puzzle.

Every JSON document shudu reads from a user (a puzzle line, a board, an f-puzzles or ipuz
puzzle, a ``--variant`` file, a web request) goes through :func:`load_json`, which refuses, with
a :class:`~shudu.errors.ParseError` that names the limit, what Python's own parser would choke
on or spend long over: nesting deeper than :data:`MAX_JSON_DEPTH` (the parser recurses per
level), integers of more than :data:`MAX_JSON_DIGITS` digits (Python refuses to convert more
than 4300, and slowly), ``NaN`` and ``Infinity`` (not JSON), and text longer than
:data:`MAX_TEXT_LENGTH`. Its syntax errors are :class:`JSONSyntaxError`, both a ``ParseError``
and a :class:`json.JSONDecodeError`, so it replaces ``json.loads`` without changing a caller's
``except``. docs/errors.md lists the limits.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from ..errors import ParseError

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_JSON_DIGITS",
    "MAX_TEXT_LENGTH",
    "JSONSyntaxError",
    "check_text",
    "load_json",
]

#: The deepest nesting of lists and objects read (a puzzle needs 3: regions are lists of lists).
MAX_JSON_DEPTH: Final = 64
#: The most digits an integer in JSON may have (a cell index or count needs 3, a seed 19).
MAX_JSON_DIGITS: Final = 100
#: The longest text read as one puzzle: one line of a file, or the text given to a parser. The
#: largest legal puzzle text is far shorter: a 25x25 JSON puzzle with a jigsaw layout, a hundred
#: extra regions of named cells and every pencil mark is about 100,000 characters.
MAX_TEXT_LENGTH: Final = 1_000_000

#: A JSON string (skipped whole, so brackets inside it do not count), or one bracket. An
#: unterminated string runs to the end: the match never fails, so it never backtracks, and the
#: scan stays linear whatever the quotes and backslashes.
_TOKENS = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}]', re.DOTALL)


class JSONSyntaxError(json.JSONDecodeError, ParseError):
    """Text that is not JSON: a :class:`ParseError` (``column`` set) that is also the
    :class:`json.JSONDecodeError` ``json.loads`` raises (``msg``, ``lineno``, ``colno``, ``pos``)."""

    def __init__(self, message: str, msg: str = "", pos: int = 0, lineno: int = 1, colno: int = 1) -> None:
        ParseError.__init__(self, message, column=colno)
        self.msg, self.doc, self.pos, self.lineno, self.colno = msg, "", pos, lineno, colno

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.message, self.msg, self.pos, self.lineno, self.colno), self.__dict__


def check_text(text: object, *, reader: str, line: int | None = None, what: str = "the puzzle") -> str:
    """``text`` itself, after checking that it is a str (else :class:`TypeError` naming
    ``reader``) no longer than :data:`MAX_TEXT_LENGTH` (else a :class:`ParseError` at ``line``)."""
    if not isinstance(text, str):
        raise TypeError(f"{reader}() takes text (str), not {type(text).__name__}")
    if len(text) > MAX_TEXT_LENGTH:
        raise ParseError(
            f"{what} is {len(text)} characters long; at most {MAX_TEXT_LENGTH} are read", line=line
        )
    return text


def load_json(
    text: str,
    *,
    what: str = "the JSON",
    max_depth: int = MAX_JSON_DEPTH,
    max_digits: int = MAX_JSON_DIGITS,
    max_length: int = MAX_TEXT_LENGTH,
) -> Any:
    """``json.loads(text)`` within the limits: the one reader of JSON from users.

    Raises :class:`ParseError` naming the limit (``what`` names the text in messages: "a
    number in the body has 5000 digits …"), or :class:`JSONSyntaxError` for text that is not
    JSON. A caller that reads a line of a file sets the error's line (``at_line``).
    """
    if not isinstance(text, str):
        raise TypeError(f"load_json() takes text (str), not {type(text).__name__}")
    if len(text) > max_length:
        raise ParseError(f"{what} is {len(text)} characters long; at most {max_length} are read")
    _check_depth(text, what, max_depth)

    def parse_int(token: str) -> int:
        digits = len(token.lstrip("-"))
        if digits > max_digits:
            raise ParseError(f"a number in {what} has {digits} digits; at most {max_digits} are read")
        return int(token)

    def parse_float(token: str) -> float:
        if len(token) > 2 * max_digits:
            raise ParseError(
                f"a number in {what} is {len(token)} characters long; at most {2 * max_digits} are read"
            )
        value = float(token)
        if value in (float("inf"), float("-inf")):
            raise ParseError(f"the number {token[:20]} in {what} is too large")
        return value

    def no_constant(name: str) -> Any:
        raise ParseError(f"{name} is not a JSON number")

    try:
        return json.loads(text, parse_int=parse_int, parse_float=parse_float, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}" if exc.lineno > 1 else f"column {exc.colno}"
        raise JSONSyntaxError(
            f"invalid JSON: {exc.msg} at {where}", exc.msg, exc.pos, exc.lineno, exc.colno
        ) from None


def _check_depth(text: str, what: str, max_depth: int) -> None:
    """Refuse nesting deeper than ``max_depth`` before the parser (which recurses) sees it."""
    if text.count("[") + text.count("{") <= max_depth:
        return  # too few brackets to nest that deep: the common case, at C speed
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > max_depth:
                column = match.start() + 1
                raise ParseError(
                    f"{what} is nested more than {max_depth} lists or objects deep (at character {column})",
                    column=column,
                )
        elif token in ("]", "}"):
            depth -= 1
