"""From a SudokuPad link to its JSON: the link's forms, lz-string, and SudokuPad's short form."""

from __future__ import annotations

import re
from typing import Any

from ...errors import ParseError
from ..limits import MAX_JSON_DEPTH

#: The short names of SudokuPad's short form (``scl``), and the keys they stand for.
SHORT_KEYS = {
    "c": "color", "ca": "cages", "ct": "center", "c1": "borderColor", "c2": "backgroundColor",
    "ce": "cells", "cs": "cellSize", "a": "arrows", "o": "overlays", "u": "underlays", "w": "width",
    "h": "height", "v": "value", "vd": "videos", "l": "lines", "r": "rounded", "re": "regions",
    "fs": "fontSize", "th": "thickness", "hl": "headLength", "wp": "wayPoints", "t": "title",
    "te": "text", "d": "duration",
}  # fmt: skip

PREFIXES = ("scl", "ctc")


# --- the link -------------------------------------------------------------------------------------


def sudokupad_payload(text: str) -> tuple[str, str] | None:
    """``("scl" | "ctc", compressed data)`` of a SudokuPad link (or of its bare ``scl…`` part),
    or None when the text is none."""
    from urllib.parse import parse_qs, unquote, urlsplit

    s = text.strip()
    if "://" in s or s.startswith(("sudokupad", "www.", "app.crackingthecryptic")):
        parts = urlsplit(s if "://" in s else "https://" + s)
        query = parse_qs(parts.query)
        path = unquote(parts.path).strip("/")
        candidates = [*query.get("puzzleid", []), *query.get("load", []), path, path.rsplit("/", 1)[-1]]
    else:
        candidates = [s]
    for candidate in candidates:
        for prefix in PREFIXES:
            for start in (prefix, "sudoku/" + prefix):
                if candidate.startswith(start) and len(candidate) > len(start):
                    return prefix, candidate[len(start) :].replace(" ", "+")
    return None


def is_sudokupad(text: str) -> bool:
    """Whether ``text`` is a SudokuPad link (or its part) that carries the puzzle as ``ctc``/``scl``."""
    return sudokupad_payload(text) is not None


# --- the short form ---------------------------------------------------------------------------------


_BARE = re.compile(r"#0|#F|[A-Za-z0-9_.+\-#]+")


class _ShortForm:
    """A parser of SudokuPad's short JSON: keys without quotes, ``'`` for ``"``, ``t``/``f`` for
    true/false, colours without ``#`` or quotes, and an empty place in a list for ``{}``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.quote = '"' if '"' in text else "'"
        self.i = 0
        self.depth = 0

    def error(self, what: str) -> ParseError:
        return ParseError(f"SudokuPad's short form: {what} at position {self.i + 1}", column=self.i + 1)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def value(self, in_object: bool = False) -> Any:
        char = self.peek()
        if char == "{":
            return self.container("}", True)
        if char == "[":
            return self.container("]", False)
        if char == self.quote:
            return self.string()
        m = _BARE.match(self.text, self.i)
        if m is None:
            raise self.error(f"unexpected {char!r}" if char else "the text ends")
        self.i = m.end()
        token = m.group()
        fixed = {
            "t": True,
            "f": False,
            "true": True,
            "false": False,
            "null": None,
            "#0": "#000000",
            "#F": "#FFFFFF",
        }
        if token in fixed:
            return fixed[token]
        if in_object and re.fullmatch(r"[0-9a-fA-F]{6}", token):
            return "#" + token
        if re.fullmatch(r"-?[0-9]+", token):
            return int(token)
        if re.fullmatch(r"-?[0-9]*\.[0-9]+(e-?[0-9]+)?", token):
            return float(token)
        return token

    def string(self) -> str:
        out = []
        self.i += 1
        while self.i < len(self.text):
            char = self.text[self.i]
            if char == "\\" and self.i + 1 < len(self.text):
                nxt = self.text[self.i + 1]
                out.append({"n": "\n", "t": "\t", "'": "'", '"': '"', "\\": "\\", "/": "/"}.get(nxt, nxt))
                self.i += 2
                continue
            if char == self.quote:
                self.i += 1
                return "".join(out)
            out.append(char)
            self.i += 1
        raise self.error("a string does not end")

    def container(self, close: str, is_object: bool) -> Any:
        self.depth += 1
        if self.depth > MAX_JSON_DEPTH:
            raise self.error(f"nesting deeper than {MAX_JSON_DEPTH}")
        self.i += 1
        items: list[Any] = []
        obj: dict[str, Any] = {}
        expect_item = True
        while True:
            char = self.peek()
            if not char:
                raise self.error(f"a {'{' if is_object else '['} is not closed")
            if char in ",}]":
                if char != "," and char != close:
                    raise self.error(f"{char!r} closes a {'{' if is_object else '['}")
                if expect_item and (char == "," or items or obj):
                    if is_object:
                        raise self.error("an empty place in an object")
                    items.append({})  # an empty place stands for an empty object
                self.i += 1
                if char == close:
                    self.depth -= 1
                    return obj if is_object else items
                expect_item = True
                continue
            if not expect_item:
                raise self.error(f"',' expected before {char!r}")
            if is_object:
                key = self.string() if char == self.quote else self.value()
                if self.peek() != ":":
                    raise self.error("':' expected after a key")
                self.i += 1
                obj[str(key)] = self.value(in_object=True)
            else:
                items.append(self.value())
            expect_item = False


def unzip(text: str) -> Any:
    parser = _ShortForm(text.strip())
    data = parser.value()
    if parser.i != len(parser.text):
        raise parser.error("text after the puzzle")
    return data


def long_keys(data: Any) -> Any:
    if isinstance(data, list):
        return [long_keys(v) for v in data]
    if isinstance(data, dict):
        return {SHORT_KEYS.get(k, k): long_keys(v) for k, v in data.items()}
    return data
