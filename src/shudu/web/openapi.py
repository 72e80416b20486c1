"""The OpenAPI 3.1 document of the web API, made from its models and its table of operations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import models_json_schema

from .models import Error, GameId

#: What every operation may answer besides success (see docs/web.md).
ERRORS = {
    "400": "a body that breaks its schema (the field is named), or a Host the server does not answer to",
    "401": "the server needs its access token",
    "403": "a write from a page of another origin (Origin or Sec-Fetch-Site)",
    "404": "no such game (or another player's)",
    "408": "a body that did not arrive within 10 s",
    "409": "a save based on an older version of the game",
    "413": "a body over the size limit",
    "415": "a body not sent as application/json",
    "422": "a body that fits its schema but cannot be met: a puzzle that does not parse or has not"
    " exactly one solution where one is needed, a kind of puzzle the generator can never make",
    "429": "too many heavy requests wait already; try again after Retry-After seconds",
    "501": "a feature this version of shudu lacks",
    "500": "the server failed on this request (it is logged)",
    "503": "the request ran past its deadline",
}


@dataclass(frozen=True)
class Operation:
    """One method on one path: what it takes and what it answers."""

    path: str
    method: str
    summary: str
    request: type[BaseModel] | None = None
    answer: type[BaseModel] | None = None
    status: int = 200
    errors: tuple[str, ...] = field(default=("400", "401", "403", "408", "413", "415", "422", "503"))
    #: Other successful answers, by status: e.g. 202 while a new puzzle is still being made.
    more: tuple[tuple[int, type[BaseModel]], ...] = ()
    #: The name of its handler, the document's ``operationId``.
    name: str = ""
    #: OpenAPI links from its success answer to other operations, by name.
    links: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = ()


def document(version: str, operations: list[Operation]) -> dict[str, Any]:
    """The OpenAPI 3.1 document for ``operations``."""
    models: dict[type[BaseModel], None] = {Error: None}
    for op in operations:
        for model in (op.request, op.answer):
            if model is not None:
                models[model] = None
        for _, model in op.more:
            models[model] = None
    keyed = [(m, "validation") for m in models] + [(m, "serialization") for m in models]
    refs, schemas = models_json_schema(keyed, ref_template="#/components/schemas/{model}")  # type: ignore[arg-type]

    def ref(model: type[BaseModel], mode: str) -> dict[str, Any]:
        return dict(refs[(model, mode)])  # type: ignore[index]

    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        item = paths.setdefault(op.path, {})
        if "{game_id}" in op.path:
            item["parameters"] = [
                {
                    "name": "game_id",
                    "in": "path",
                    "required": True,
                    "schema": TypeAdapter(GameId).json_schema(),
                }
            ]
        responses: dict[str, Any] = {}
        if op.answer is None:
            responses[str(op.status)] = {"description": "done"}
        else:
            responses[str(op.status)] = {
                "description": "success",
                "content": {"application/json": {"schema": ref(op.answer, "serialization")}},
            }
        for status, model in op.more:
            responses[str(status)] = {
                "description": "accepted: not ready yet",
                "content": {"application/json": {"schema": ref(model, "serialization")}},
            }
        for code in op.errors:
            responses[code] = {"$ref": "#/components/responses/Error"}
        if op.links:
            responses[str(op.status)]["links"] = {
                name: {"operationId": target, "parameters": dict(parameters)}
                for name, target, parameters in op.links
            }
        operation: dict[str, Any] = {"summary": op.summary, "responses": responses}
        if op.name:
            operation["operationId"] = op.name
        if op.request is not None:
            operation["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": ref(op.request, "validation")}},
            }
        item[op.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "shudu",
            "version": version,
            "description": "Solve, count, rate and play sudoku puzzles of every size and variant. "
            "Every error is a JSON object {error: message, ...} with a 4xx or 5xx status: "
            + "; ".join(f"{code} {why}" for code, why in ERRORS.items())
            + ".",
        },
        "paths": paths,
        "components": {
            "schemas": schemas.get("$defs", {}),
            "responses": {
                "Error": {
                    "description": "what is wrong, in words, with details where they help",
                    "content": {"application/json": {"schema": ref(Error, "serialization")}},
                }
            },
        },
    }
