"""The web API's operations, declared once: each path and method with its request and answer
models, its errors and its handler's name. The OpenAPI document and the routes are both made
from this table, so what the server answers is what the document says."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from . import models
from .openapi import Operation

Handler = Callable[[Request], Awaitable[Response]]

#: The errors of a read (400: a Host the server does not answer to), of a write with a body, and
#: of a heavy write (see docs/web.md).
_READ = ("400", "401")
_WRITE = ("400", "401", "403", "408", "413", "415", "422", "503")
_HEAVY = (*_WRITE, "429", "501")
OPERATIONS = [
    Operation(
        "/api/features",
        "GET",
        "which optional parts of the library are present",
        answer=models.Features,
        errors=_READ,
    ),
    Operation(
        "/api/bank",
        "GET",
        "how many new puzzles wait in the bank, by size, variant and level",
        answer=models.Bank,
        errors=_READ,
    ),
    Operation(
        "/api/parse",
        "POST",
        "parse and validate a puzzle; describe it for drawing",
        models.PuzzleRequest,
        models.Parsed,
    ),
    Operation(
        "/api/solve",
        "POST",
        "solve: status unique/multiple/none/timeout and the first solution",
        models.SolveRequest,
        models.Solved,
    ),
    Operation(
        "/api/candidates",
        "POST",
        "the basic candidates of each cell: what the placed digits' peers and each rule on its own"
        " leave (no deeper deduction)",
        models.CandidatesRequest,
        models.Candidates,
    ),
    Operation("/api/count", "POST", "count solutions up to a limit", models.CountRequest, models.Counted),
    Operation(
        "/api/hint",
        "POST",
        "the next logical step from the player's entries (or the wrong entries)",
        models.HintRequest,
        models.Hinted,
        errors=_HEAVY,
    ),
    Operation(
        "/api/explain",
        "POST",
        "the whole solution, step by step",
        models.PuzzleRequest,
        models.Explained,
        errors=_HEAVY,
    ),
    Operation(
        "/api/rate",
        "POST",
        "the difficulty of a puzzle",
        models.PuzzleRequest,
        models.Rated,
        errors=_HEAVY,
    ),
    Operation(
        "/api/setter",
        "POST",
        "the setter's panel of a puzzle in the making: its solution count, true candidates, redundant"
        " givens, the fewest givens that make it unique, singles backdoors and rating; each part within"
        " the request's deadline, with its own status (timeout for a part that ran out of time)",
        models.SetterRequest,
        models.Setter,
        errors=_HEAVY,
    ),
    Operation(
        "/api/trace",
        "POST",
        "the enumeration solver's search, step by step, compact",
        models.TraceRequest,
        models.Traced,
        errors=_HEAVY,
    ),
    Operation(
        "/api/generate",
        "POST",
        "generate a new puzzle",
        models.KindRequest,
        models.NewPuzzle,
        errors=_HEAVY,
    ),
    Operation(
        "/api/new",
        "POST",
        "a new puzzle from the bank, else generated; with its rated level. A slow kind answers 202"
        " with the progress of its making in the background: ask again until it answers 200",
        models.KindRequest,
        models.NewPuzzle,
        errors=(*_HEAVY, "500"),
        more=((202, models.Making),),
    ),
    Operation(
        "/api/train",
        "GET",
        "the techniques a drill can train, easiest first",
        answer=models.Trainables,
        errors=_READ,
    ),
    Operation(
        "/api/train",
        "POST",
        "a drill: a board brought forward from a generated puzzle on which the technique is the next"
        " step and no easier technique applies, with that step as the answer",
        models.TrainRequest,
        models.Trained,
        errors=_HEAVY,
    ),
    Operation(
        "/api/games",
        "GET",
        "the player's saved games, most recent first",
        answer=models.Games,
        errors=_READ,
    ),
    Operation(
        "/api/games",
        "POST",
        "start a game",
        models.NewGameRequest,
        models.SavedGame,
        201,
        errors=_WRITE,
        links=tuple(
            (name, handler, (("game_id", "$response.body#/id"),))
            for name, handler in (("load", "get_game"), ("save", "save_game"), ("delete", "delete_game"))
        ),
    ),
    Operation("/api/games/{game_id}", "GET", "a saved game", answer=models.SavedGame, errors=(*_READ, "404")),
    Operation(
        "/api/games/{game_id}",
        "PUT",
        "save the player's progress, based on a version",
        models.SaveRequest,
        models.Summary,
        errors=(*_WRITE, "404", "409"),
    ),
    Operation(
        "/api/games/{game_id}",
        "DELETE",
        "delete a saved game",
        status=204,
        errors=("400", "401", "403", "404"),
    ),
]


#: The handler of each operation, by path and method.
HANDLERS = {
    ("/api/features", "GET"): "get_features",
    ("/api/bank", "GET"): "get_bank",
    ("/api/parse", "POST"): "parse",
    ("/api/solve", "POST"): "solve",
    ("/api/candidates", "POST"): "candidates",
    ("/api/count", "POST"): "count",
    ("/api/hint", "POST"): "hint",
    ("/api/explain", "POST"): "explain",
    ("/api/rate", "POST"): "rate",
    ("/api/setter", "POST"): "setter",
    ("/api/trace", "POST"): "trace",
    ("/api/generate", "POST"): "generate",
    ("/api/new", "POST"): "new",
    ("/api/train", "GET"): "get_train",
    ("/api/train", "POST"): "train",
    ("/api/games", "GET"): "list_games",
    ("/api/games", "POST"): "create_game",
    ("/api/games/{game_id}", "GET"): "get_game",
    ("/api/games/{game_id}", "PUT"): "save_game",
    ("/api/games/{game_id}", "DELETE"): "delete_game",
}


def api_routes(api: Any) -> list[Route]:
    """The routes of ``api`` (:class:`shudu.web.app.Api`, whose methods are the handlers): one
    route per path, taking each method of its operations, so that a method the path lacks
    is answered 405 with ``Allow`` naming all those it has."""
    by_path: dict[str, dict[str, Handler]] = {}
    for op in OPERATIONS:
        by_path.setdefault(op.path, {})[op.method] = getattr(api, HANDLERS[op.path, op.method])

    def route(path: str, handlers: dict[str, Handler]) -> Route:
        if "GET" in handlers:
            handlers = {**handlers, "HEAD": handlers["GET"]}

        async def endpoint(request: Request) -> Response:
            return await handlers[request.method](request)

        return Route(path, endpoint, methods=list(handlers))

    return [route(path, handlers) for path, handlers in by_path.items()]


OPERATIONS = [dataclasses.replace(op, name=HANDLERS[op.path, op.method]) for op in OPERATIONS]
