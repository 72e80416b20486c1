"""The OpenAPI description of the web API, served at ``/api/openapi.json``."""

from __future__ import annotations

from typing import Any

_PUZZLE_FIELDS: dict[str, Any] = {
    "puzzle": {
        "description": "the puzzle: text in any format of docs/formats.md (line, grid block, JSON), "
        "or a JSON puzzle object",
        "oneOf": [{"type": "string", "maxLength": 20000}, {"type": "object"}],
    },
    "variant": {"type": "string", "description": "variant name, parts joined by + (x, pyramid, …)"},
    "box": {"type": "string", "description": "box shape RxC, e.g. 2x3"},
    "layout": {"type": "string", "description": "jigsaw layout: n*n region labels"},
    "regions": {"type": "array", "items": {"type": "array"}, "description": "custom extra regions"},
}
_ENTRIES = {"type": "array", "items": {"type": "integer", "minimum": 0}, "description": "n*n digits, 0 empty"}
_KIND = {
    "size": {"type": "integer", "minimum": 4, "maximum": 25, "default": 9},
    "variant": {"type": "string", "default": "standard"},
    "level": {"type": "string", "enum": ["easy", "medium", "hard", "unfair", "extreme"]},
}
_GAME_STATE = {
    "entries": _ENTRIES,
    "corner": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
    "centre": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
    "history": {
        "type": "object",
        "properties": {"undo": {"type": "array"}, "redo": {"type": "array"}},
        "required": ["undo", "redo"],
    },
    "elapsed_ms": {"type": "integer", "minimum": 0},
    "finished": {"type": "boolean"},
}


def _body(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _operation(summary: str, body: dict[str, Any] | None = None, *, ok: str = "200") -> dict[str, Any]:
    operation: dict[str, Any] = {
        "summary": summary,
        "responses": {
            ok: {"description": "success", "content": {"application/json": {"schema": {"type": "object"}}}},
            "4XX": {"$ref": "#/components/responses/Error"},
        },
    }
    if body is not None:
        operation["requestBody"] = body
    return operation


def document(version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 document."""
    puzzle = _body(_PUZZLE_FIELDS, ("puzzle",))
    game_id = [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "shudu",
            "version": version,
            "description": "Solve, count, rate and play sudoku puzzles of every size and variant. "
            "Bad input gets a 4xx answer {error: message}; 501 means the feature is not in this version; "
            "503 means the request ran past its deadline.",
        },
        "paths": {
            "/api/features": {"get": _operation("which optional parts of the library are present")},
            "/api/parse": {
                "post": _operation("parse and validate a puzzle; describe it for drawing", puzzle)
            },
            "/api/solve": {
                "post": _operation(
                    "solve: status unique/multiple/none/timeout and the first solution",
                    _body({**_PUZZLE_FIELDS, "algorithm": {"type": "string"}}, ("puzzle",)),
                )
            },
            "/api/count": {
                "post": _operation(
                    "count solutions up to a limit",
                    _body({**_PUZZLE_FIELDS, "limit": {"type": "integer", "default": 1000}}, ("puzzle",)),
                )
            },
            "/api/hint": {
                "post": _operation(
                    "the next logical step from the player's entries (or the wrong entries)",
                    _body({**_PUZZLE_FIELDS, "entries": _ENTRIES}, ("puzzle",)),
                )
            },
            "/api/explain": {"post": _operation("the whole solution, step by step", puzzle)},
            "/api/rate": {"post": _operation("the difficulty of a puzzle", puzzle)},
            "/api/trace": {
                "post": _operation(
                    "the enumeration solver's search, step by step",
                    _body({**_PUZZLE_FIELDS, "limit": {"type": "integer", "default": 5000}}, ("puzzle",)),
                )
            },
            "/api/generate": {"post": _operation("generate a new puzzle", _body(_KIND))},
            "/api/new": {
                "post": _operation(
                    "a new puzzle from the bank, else generated; with its rated level", _body(_KIND)
                )
            },
            "/api/games": {
                "get": _operation("saved games, most recent first"),
                "post": _operation(
                    "start a game",
                    _body({**_PUZZLE_FIELDS, "level": {"type": "string"}}, ("puzzle",)),
                    ok="201",
                ),
            },
            "/api/games/{game_id}": {
                "parameters": game_id,
                "get": _operation("a saved game"),
                "put": _operation("save the player's progress", _body(_GAME_STATE)),
                "delete": _operation("delete a saved game", ok="204"),
            },
        },
        "components": {
            "responses": {
                "Error": {
                    "description": "bad input, missing game, body too large, absent feature",
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "error": {"type": "string"},
                                    "field": {"type": "string"},
                                    "line": {"type": "integer"},
                                    "column": {"type": "integer"},
                                    "cells": {"type": "array", "items": {"type": "string"}},
                                },
                                "required": ["error"],
                            }
                        }
                    },
                }
            }
        },
    }
