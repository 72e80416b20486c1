"""The OpenAPI 3.1 document of the web API, made from its models and its table of operations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .models import Error

#: What every operation may answer besides success (see docs/web.md).
ERRORS = {
    "400": "bad input: a bad puzzle or field, or a request the generator can never meet",
    "401": "the server needs its access token",
    "404": "no such game (or another player's)",
    "409": "a save based on an older version of the game",
    "413": "a body over the size limit",
    "422": "a puzzle without exactly one solution where one is needed",
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
    errors: tuple[str, ...] = field(default=("400", "401", "413", "501", "503"))
    #: Other successful answers, by status: e.g. 202 while a new puzzle is still being made.
    more: tuple[tuple[int, type[BaseModel]], ...] = ()


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
                    "schema": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
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
        operation: dict[str, Any] = {"summary": op.summary, "responses": responses}
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
