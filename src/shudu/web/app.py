"""The web app: the page, and a JSON API over the public ``shudu`` API and the store.

Solver, logic and generator calls run in worker threads (at most ``workers`` at a time) under a
deadline, so one heavy request never stalls the others; the library's own ``timeout`` stops the
work itself where the function takes one. Features the library does not have yet (``rate``,
``hint``, ``explain``, ``generate``, the enumeration trace) answer 501 and are listed as absent
by ``/api/features``, which the page reads to show or hide its panels.
"""

from __future__ import annotations

import inspect
import itertools
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import shudu

from ..errors import StoreError
from ..generator import GeneratorTimeout
from ..store import Game, Store
from . import openapi
from .puzzles import BadRequest, describe, field, puzzle_json, read_entries, read_puzzle, step_json, to_plain

STATIC = Path(__file__).parent / "static"
#: The largest request body read, in bytes (a saved game of 25x25 with a long history fits).
MAX_BODY = 512 * 1024
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
HINT_LEVELS = ("vague", "technique", "step")
#: The most enumeration steps one trace request returns.
MAX_TRACE = 20_000

Handler = Callable[[Request], Awaitable[Response]]


def features() -> dict[str, bool]:
    """Which optional parts of the library are present."""
    return {
        "solve": True,
        "count": True,
        "hint": callable(getattr(shudu, "hint", None)),
        "explain": callable(getattr(shudu, "explain", None)),
        "rate": callable(getattr(shudu, "rate", None)),
        "generate": callable(getattr(shudu, "generate", None)),
        "trace": _trace_function() is not None,
    }


def _trace_function() -> Callable[..., Any] | None:
    """The enumeration solver's step trace (paper 1)."""
    from shudu.solvers import enumeration

    return enumeration.trace


def _call(function: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """``function(*args, **options)``, passing only the options its signature takes."""
    try:
        params = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return function(*args, **options)
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return function(*args, **options)
    return function(*args, **{k: v for k, v in options.items() if k in params})


class Api:
    """The handlers, sharing one store, one worker limit and one deadline."""

    def __init__(self, store: Store, *, deadline: float, workers: int) -> None:
        self.store = store
        self.deadline = deadline
        self.limiter = anyio.CapacityLimiter(workers)

    async def run(self, function: Callable[..., Any], *args: Any, **options: Any) -> Any:
        """Call the library off the event loop; 503 once the deadline has passed."""
        try:
            with anyio.fail_after(self.deadline + 1.0):
                return await anyio.to_thread.run_sync(
                    lambda: _call(function, *args, **options), abandon_on_cancel=True, limiter=self.limiter
                )
        except TimeoutError:
            raise BadRequest(
                f"the request ran past its {self.deadline:g} s deadline; try a smaller or easier puzzle",
                status=503,
            ) from None

    # --- about the library --------------------------------------------------------------

    async def get_features(self, request: Request) -> Response:
        return JSONResponse(
            {
                "version": shudu.__version__,
                "features": features(),
                "variants": shudu.variants.names(),
                "sizes": [4, 6, 8, 9, 10, 12, 16, 25],
                "levels": list(LEVELS),
                "algorithms": list(shudu.solvers.available()),
                "bank": self.store.bank_counts(),
            }
        )

    async def get_openapi(self, request: Request) -> Response:
        return JSONResponse(openapi.document(shudu.__version__))

    # --- puzzles ------------------------------------------------------------------------

    async def parse(self, request: Request) -> Response:
        puzzle = read_puzzle(await read_json(request))
        return JSONResponse({"puzzle": describe(puzzle)})

    async def solve(self, request: Request) -> Response:
        body = await read_json(request)
        puzzle = read_puzzle(body)
        algorithm = field(body, "algorithm", str, "auto")
        result = await self.run(shudu.solve, puzzle, algorithm=algorithm, timeout=self.deadline)
        return JSONResponse(
            {
                "status": result.status,
                "solution": list(result.solution.cells) if result.solution else None,
                "algorithm": result.algorithm,
                "stats": to_plain(result.stats),
            }
        )

    async def count(self, request: Request) -> Response:
        body = await read_json(request)
        puzzle = read_puzzle(body)
        limit = field(body, "limit", int, 1000)
        if not 1 <= limit <= 1_000_000:
            raise BadRequest(f'"limit" must be 1 to 1000000, not {limit}', field="limit")
        try:
            found = await self.run(shudu.count, puzzle, limit, timeout=self.deadline)
        except shudu.errors.SearchTimeout as exc:
            return JSONResponse({"count": exc.found, "complete": False, "reason": "deadline"})
        return JSONResponse({"count": found, "complete": found < limit, "reason": None})

    async def hint(self, request: Request) -> Response:
        """The next step from the player's entries, at a level of detail; or the wrong entries."""
        hint = self._feature("hint")
        body = await read_json(request)
        puzzle = read_puzzle(body)
        entries = read_entries(body, puzzle)
        level = field(body, "level", str, "step")
        if level not in HINT_LEVELS:
            raise BadRequest(f"unknown hint level {level!r}; levels: {', '.join(HINT_LEVELS)}", field="level")
        result = await self.run(shudu.solve, puzzle, timeout=self.deadline)
        if result.solution is None:
            raise BadRequest(f"no hint: the puzzle has {_status_words(result.status)}", status=422)
        mistakes = [i for i, d in enumerate(entries) if d and d != result.solution.cells[i]]
        if mistakes:
            names = ", ".join(puzzle.geometry.cell_name(i) for i in mistakes[:5])
            text = f"{'this entry is' if len(mistakes) == 1 else 'these entries are'} wrong: {names}"
            return JSONResponse(
                {"level": level, "text": text, "mistakes": mistakes, "step": None, "solved": False}
            )
        board = {
            **puzzle_json(puzzle),
            "entries": [0 if g else e for g, e in zip(puzzle.cells, entries, strict=True)],
        }
        found = await self.run(hint, board, level=level)
        step = getattr(found, "step", found)
        return JSONResponse(
            {
                "level": level,
                "text": str(getattr(found, "text", "") or (step.explanation if step else "")),
                "mistakes": [],
                "step": None if step is None else step_json(step, puzzle.size),
                "solved": bool(getattr(found, "solved", False)),
            }
        )

    async def explain(self, request: Request) -> Response:
        explain = self._feature("explain")
        puzzle = read_puzzle(await read_json(request))
        explanation = await self.run(explain, puzzle, timeout=self.deadline)
        steps = getattr(explanation, "steps", explanation)
        data = to_plain(explanation) if hasattr(explanation, "steps") else {}
        if not isinstance(data, dict):
            data = {}
        data["steps"] = [step_json(step, puzzle.size) for step in steps]
        return JSONResponse(data)

    async def rate(self, request: Request) -> Response:
        rate = self._feature("rate")
        puzzle = read_puzzle(await read_json(request))
        rating = await self.run(rate, puzzle, timeout=self.deadline)
        data = to_plain(rating)
        return JSONResponse(data if isinstance(data, dict) else {"rating": data})

    async def trace(self, request: Request) -> Response:
        trace = self._feature("trace")
        body = await read_json(request)
        puzzle = read_puzzle(body)
        limit = field(body, "limit", int, 5000)
        if not 1 <= limit <= MAX_TRACE:
            raise BadRequest(f'"limit" must be 1 to {MAX_TRACE} steps, not {limit}', field="limit")

        def steps() -> list[Any]:
            return [to_plain(s) for s in itertools.islice(_call(trace, puzzle, limit=1), limit + 1)]

        found = await self.run(steps)
        return JSONResponse({"steps": found[:limit], "truncated": len(found) > limit})

    async def generate(self, request: Request) -> Response:
        return await self._generate(*_kind(await read_json(request)))

    async def _generate(self, size: int, variant: str, level: str | None) -> Response:
        """A puzzle made now, rated even when no level is asked, so the answer names its level."""
        generate = self._feature("generate")
        made = await self.run(
            generate, size=size, variant=variant, level=level, timeout=self.deadline, rate=True
        )
        return JSONResponse({"puzzle": describe(made.puzzle), "level": made.level, "source": "generated"})

    async def new(self, request: Request) -> Response:
        """A new puzzle: from the bank when it holds one of that kind, else generated on demand."""
        size, variant, level = _kind(await read_json(request))
        banked = await anyio.to_thread.run_sync(self.store.take_from_bank, size, variant, level)
        if banked is None:
            return await self._generate(size, variant, level)
        puzzle = shudu.parse_puzzle(json.dumps(banked.puzzle))
        return JSONResponse({"puzzle": describe(puzzle), "level": banked.level, "source": "bank"})

    def _feature(self, name: str) -> Callable[..., Any]:
        function = _trace_function() if name == "trace" else getattr(shudu, name, None)
        if not callable(function):
            raise BadRequest(f"this version of shudu has no {name} yet (see /api/features)", status=501)
        return function

    # --- saved games --------------------------------------------------------------------

    async def list_games(self, request: Request) -> Response:
        return JSONResponse({"games": [g.summary() for g in self.store.games()]})

    async def create_game(self, request: Request) -> Response:
        body = await read_json(request)
        puzzle = read_puzzle(body)
        level = field(body, "level", str)
        game = Game.new(puzzle_json(puzzle), level=level)
        await anyio.to_thread.run_sync(self.store.save_game, game)
        return JSONResponse(self._game_json(game, puzzle), status_code=201)

    async def get_game(self, request: Request) -> Response:
        game = self.store.game(_game_id(request))
        return JSONResponse(self._game_json(game, shudu.parse_puzzle(json.dumps(game.puzzle))))

    async def save_game(self, request: Request) -> Response:
        game = self.store.game(_game_id(request))
        body = await read_json(request)
        puzzle = shudu.parse_puzzle(json.dumps(game.puzzle))
        unknown = set(body) - {"entries", "corner", "centre", "history", "elapsed_ms", "finished"}
        if unknown:
            raise BadRequest(
                f"unknown field {sorted(unknown)[0]!r} in a saved game", field=sorted(unknown)[0]
            )
        if "entries" in body:
            game.entries = read_entries(body, puzzle)
            given = next(
                (i for i, (g, e) in enumerate(zip(puzzle.cells, game.entries, strict=True)) if g and e), None
            )
            if given is not None:
                name = puzzle.geometry.cell_name(given)
                raise BadRequest(f'"entries": {name} is a given and cannot hold an entry', field="entries")
        game.corner = field(body, "corner", list, game.corner)
        game.centre = field(body, "centre", list, game.centre)
        game.history = field(body, "history", dict, game.history)
        game.elapsed_ms = field(body, "elapsed_ms", int, game.elapsed_ms)
        game.finished = field(body, "finished", bool, game.finished)
        await anyio.to_thread.run_sync(self.store.save_game, game)
        return JSONResponse(game.summary())

    async def delete_game(self, request: Request) -> Response:
        self.store.delete_game(_game_id(request))
        return Response(status_code=204)

    @staticmethod
    def _game_json(game: Game, puzzle: shudu.Puzzle) -> dict[str, Any]:
        return {**game.to_json(), "puzzle": describe(puzzle)}


def _status_words(status: str) -> str:
    return {"none": "no solution", "multiple": "several solutions", "timeout": "no answer in time"}.get(
        status, status
    )


def _kind(body: dict[str, Any]) -> tuple[int, str, str | None]:
    size = field(body, "size", int, 9)
    variant = field(body, "variant", str, "standard")
    level = field(body, "level", str)
    if not 4 <= size <= 25:
        raise BadRequest(f'"size" must be 4 to 25, not {size}', field="size")
    if level is not None and level not in LEVELS:
        raise BadRequest(f"unknown level {level!r}; levels: {', '.join(LEVELS)}", field="level")
    shudu.variants.get(variant, size)  # a precise error for an unknown or ill-fitting variant
    return size, variant, level


def _game_id(request: Request) -> int:
    raw = request.path_params["game_id"]
    if not raw.isdigit():
        raise BadRequest(f"game id {raw!r} is not a number", status=404)
    return int(raw)


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
    try:
        body = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(
            f"the body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return body


def _error(message: str, status: int, **details: Any) -> JSONResponse:
    return JSONResponse({"error": message, **{k: v for k, v in details.items() if v is not None}}, status)


async def _bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadRequest)
    return _error(exc.message, exc.status, **exc.details)


async def _shudu_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, shudu.ShuduError)
    if isinstance(exc, StoreError) and exc.message.startswith("no saved game"):
        status = 404
    elif isinstance(exc, GeneratorTimeout):
        status = 503  # a request that may be met, but not within the deadline
    else:
        status = 400
    return _error(
        str(exc),
        status,
        kind=type(exc).__name__,
        line=exc.line,
        column=getattr(exc, "column", None),
        cells=list(getattr(exc, "cells", ()) or ()) or None,
    )


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {
        404: f"no such page or endpoint: {request.url.path}",
        405: f"{request.method} is not allowed here",
    }
    return _error(messages.get(exc.status_code, exc.detail), exc.status_code)


def create_app(
    db: str | Path | None = None, *, deadline: float = 10.0, workers: int = 2, store: Store | None = None
) -> Starlette:
    """The app, saving to the SQLite file ``db`` (default: under the user's data directory)."""
    store = store or Store(db)
    api = Api(store, deadline=deadline, workers=workers)
    routes = [
        Route("/", lambda request: FileResponse(STATIC / "index.html"), methods=["GET"]),
        Route("/api/features", api.get_features, methods=["GET"]),
        Route("/api/openapi.json", api.get_openapi, methods=["GET"]),
        Route("/api/parse", api.parse, methods=["POST"]),
        Route("/api/solve", api.solve, methods=["POST"]),
        Route("/api/count", api.count, methods=["POST"]),
        Route("/api/hint", api.hint, methods=["POST"]),
        Route("/api/explain", api.explain, methods=["POST"]),
        Route("/api/rate", api.rate, methods=["POST"]),
        Route("/api/trace", api.trace, methods=["POST"]),
        Route("/api/generate", api.generate, methods=["POST"]),
        Route("/api/new", api.new, methods=["POST"]),
        Route("/api/games", api.list_games, methods=["GET"]),
        Route("/api/games", api.create_game, methods=["POST"]),
        Route("/api/games/{game_id}", api.get_game, methods=["GET"]),
        Route("/api/games/{game_id}", api.save_game, methods=["PUT"]),
        Route("/api/games/{game_id}", api.delete_game, methods=["DELETE"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            BadRequest: _bad_request,
            shudu.ShuduError: _shudu_error,
            HTTPException: _http_error,
        },
    )
    app.state.store = store
    return app
