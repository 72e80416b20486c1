"""The web app: the page, and a JSON API over the public ``shudu`` API and the store.

Every request body is checked against its model (:mod:`shudu.web.models`), which also makes the
OpenAPI document. Light work (parse, solve, count, saved games) runs in threads of its own;
heavy work (rate, explain, hint, the search trace, generate) runs in worker processes
(:mod:`shudu.web.workers`) under the request's deadline, killed if they overrun it, so heavy
requests never hold up light ones and never leave a CPU busy. Features the library does not
have yet answer 501 and are listed as absent by ``/api/features``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import shudu

from ..generator import check_request
from ..notation import LEVELS, STATUS_WORDS
from ..store import Game, StaleGame, Store
from ..workshop.trainer import trainable, training_technique
from . import jobs, models
from .bodies import path_game_id, read_body
from .guard import Guard, check_hosts
from .making import Maker, TooMany
from .models import MAX_TRACE
from .openapi import document
from .players import PlayerKeys, Players, check_token
from .puzzles import (
    BadRequest,
    describe,
    field,
    puzzle_json,
    read_entries,
    read_history,
    read_pencil,
    read_puzzle,
    to_plain,
)
from .responses import EXCEPTION_HANDLERS, error, ok
from .routes import OPERATIONS, api_routes
from .workers import Busy, Failed, Overrun, Pool

STATIC = Path(__file__).parent / "static"


@functools.cache
def index_page() -> bytes:
    """index.html with a ``modulepreload`` link for each of the page's modules, so the browser
    fetches them all at once instead of one import level at a time."""
    modules = sorted((STATIC / "js").glob("*.js"))
    links = "".join(f'  <link rel="modulepreload" href="/static/js/{path.name}">\n' for path in modules)
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    return page.replace("</head>", links + "</head>", 1).encode()


#: The sizes the page offers.
SIZES = (4, 6, 8, 9, 10, 12, 16, 25)
#: From this size on, a new puzzle not in the bank is made in the background at once (it takes
#: longer than a request's deadline); smaller ones are tried within the deadline first.
SLOW_SIZE = 16

log = logging.getLogger(__name__)
_call = jobs.call


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
        "train": callable(getattr(shudu, "train", None)),
        "setter": callable(getattr(shudu, "true_candidates", None)),
    }


def _trace_function() -> Callable[..., Any] | None:
    """The enumeration solver's step trace (paper 1)."""
    from shudu.solvers import enumeration

    return getattr(enumeration, "trace", None)


@functools.cache
def offered() -> dict[str, list[int]]:
    """For each variant the generator can make, the sizes it admits: those where the variant fits
    the grid and an empty grid has a solution (4x4 anti-king has none). Jigsaw goes with standard:
    the generator draws a random layout."""
    kinds: dict[str, list[int]] = {}
    for variant in shudu.variants.names():
        if variant in ("custom", "jigsaw"):
            continue
        sizes = []
        for size in SIZES:
            try:
                empty = shudu.parse_puzzle(
                    json.dumps({"size": size, "givens": "0" * size * size}), variant=variant
                )
                found = shudu.count(empty, 1, node_limit=5_000)
            except shudu.errors.SearchTimeout:
                found = 1  # not shown impossible: the generator may yet make one
            except shudu.ShuduError:
                continue  # the variant does not fit this size
            if found:
                sizes.append(size)
        if sizes:
            kinds[variant] = sizes
    if "jigsaw" in shudu.variants.names() and "standard" in kinds:
        kinds["jigsaw"] = list(kinds["standard"])
    return kinds


@functools.cache
def rule_sets() -> dict[str, list[int]]:
    """For each set of constraint rules the generator makes, the sizes it admits."""
    from ..generator import RULE_SETS

    kinds: dict[str, list[int]] = {}
    for name in RULE_SETS:
        sizes = []
        for size in SIZES:
            try:
                check_request(size, rules=name)
            except shudu.ShuduError:
                continue
            sizes.append(size)
        if sizes:
            kinds[name] = sizes
    return kinds


class Api:
    """The handlers, sharing one store, one deadline, light threads and heavy worker processes."""

    def __init__(self, store: Store, *, deadline: float, workers: int, queue: int, grace: float) -> None:
        self.store = store
        self.deadline = deadline
        self.light = anyio.CapacityLimiter(4)
        self.pool = Pool(workers, queue=queue, grace=grace)
        self.maker = Maker(store, limit=workers)

    async def run(self, function: Callable[..., Any], *args: Any, **options: Any) -> Any:
        """A light library call, in a light thread, off the event loop; 503 past the deadline."""
        try:
            with anyio.fail_after(self.deadline + 1.0):
                return await anyio.to_thread.run_sync(
                    lambda: _call(function, *args, **options), abandon_on_cancel=True, limiter=self.light
                )
        except TimeoutError:
            raise BadRequest(
                f"the request ran past its {self.deadline:g} s deadline; try a smaller or easier puzzle",
                status=503,
            ) from None

    async def heavy(self, job: Callable[..., Any], *args: Any) -> Any:
        """A heavy job in a worker process: 429 when too many wait, 503 past the deadline."""
        return await self.heavy_within(self.deadline, job, *args)

    async def heavy_within(self, deadline: float, job: Callable[..., Any], *args: Any) -> Any:
        """:meth:`heavy` under a ``deadline`` of the request's own (at most the server's)."""
        try:
            return await self.pool.run(deadline, job, *args)
        except Busy as exc:
            raise BadRequest(str(exc), status=429, retry_after=exc.retry_after) from None
        except Overrun:
            raise BadRequest(
                f"the request ran past its {deadline:g} s deadline and was stopped;"
                " try a smaller or easier puzzle",
                status=503,
            ) from None
        except Failed as exc:
            payload = dict(exc.payload)
            raise BadRequest(
                str(payload.pop("error")), status=int(payload.pop("status", 400)), **payload
            ) from None

    # --- about the library --------------------------------------------------------------

    async def get_features(self, request: Request) -> Response:
        kinds = await anyio.to_thread.run_sync(offered, limiter=self.light)
        return ok(
            models.Features,
            {
                "version": shudu.__version__,
                "features": features(),
                "variants": shudu.variants.names(),
                "sizes": list(SIZES),
                "levels": list(LEVELS),
                "offered": kinds,
                "rule_sets": rule_sets(),
                "algorithms": list(shudu.solvers.available()),
                "bank": self.store.bank_counts(),
            },
        )

    async def get_bank(self, request: Request) -> Response:
        """The puzzles waiting in the bank, by size, variant and level (for its picture)."""
        kinds = await anyio.to_thread.run_sync(self.store.bank_counts, limiter=self.light)
        total = sum(int(kind["puzzles"]) for kind in kinds)
        return ok(models.Bank, {"levels": list(LEVELS), "kinds": kinds, "total": total})

    async def get_openapi(self, request: Request) -> Response:
        return JSONResponse(document(shudu.__version__, OPERATIONS))

    # --- puzzles ------------------------------------------------------------------------

    async def parse(self, request: Request) -> Response:
        puzzle = read_puzzle(await read_body(request, models.PuzzleRequest))
        return ok(models.Parsed, {"puzzle": describe(puzzle)})

    async def solve(self, request: Request) -> Response:
        body = await read_body(request, models.SolveRequest)
        puzzle = read_puzzle(body)
        algorithm = field(body, "algorithm", str, "auto")
        result = await self.run(shudu.solve, puzzle, algorithm=algorithm, timeout=self.deadline)
        return ok(
            models.Solved,
            {
                "status": result.status,
                "solution": list(result.solution.cells) if result.solution else None,
                "algorithm": result.algorithm,
                "stats": to_plain(result.stats),
            },
        )

    async def candidates(self, request: Request) -> Response:
        """The basic candidates of the board: the marks "Show candidates" fills in."""
        body = await read_body(request, models.CandidatesRequest)
        puzzle = read_puzzle(body)
        entries = read_entries(body, puzzle)
        marks = await self.run(shudu.basic_candidates, puzzle, entries)
        return ok(models.Candidates, {"candidates": [list(digits) for digits in marks]})

    async def count(self, request: Request) -> Response:
        body = await read_body(request, models.CountRequest)
        puzzle = read_puzzle(body)
        limit = field(body, "limit", int, 1000)
        try:
            found = await self.run(shudu.count, puzzle, limit, timeout=self.deadline)
        except shudu.errors.SearchTimeout as exc:
            return ok(models.Counted, {"count": exc.found, "complete": False, "reason": "deadline"})
        return ok(models.Counted, {"count": found, "complete": found < limit, "reason": None})

    async def hint(self, request: Request) -> Response:
        """The next step from the player's entries, at a level of detail; or the wrong entries."""
        self._feature("hint")
        body = await read_body(request, models.HintRequest)
        puzzle = read_puzzle(body)
        entries = read_entries(body, puzzle)
        level = field(body, "level", str, "step")
        pencil = read_pencil(body, puzzle)
        found = await self.heavy(jobs.hint, puzzle_json(puzzle), entries, level, self.deadline, pencil)
        return ok(models.Hinted, found)

    async def explain(self, request: Request) -> Response:
        self._feature("explain")
        puzzle = read_puzzle(await read_body(request, models.PuzzleRequest))
        return ok(models.Explained, await self.heavy(jobs.explain, puzzle_json(puzzle), self.deadline))

    async def rate(self, request: Request) -> Response:
        self._feature("rate")
        puzzle = read_puzzle(await read_body(request, models.PuzzleRequest))
        return ok(models.Rated, await self.heavy(jobs.rate, puzzle_json(puzzle), self.deadline))

    async def setter(self, request: Request) -> Response:
        """The setter's panel: count, true candidates, redundant givens, make unique, backdoors and
        rating, each part within the request's deadline (see :func:`jobs.setter`)."""
        body = await read_body(request, models.SetterRequest)
        puzzle = read_puzzle(body)
        limit = field(body, "limit", int, 1000)
        deadline = min(self.deadline, float(field(body, "deadline", (int, float), self.deadline)))
        found = await self.heavy_within(deadline, jobs.setter, puzzle_json(puzzle), limit, deadline)
        return ok(models.Setter, found)

    async def trace(self, request: Request) -> Response:
        self._feature("trace")
        body = await read_body(request, models.TraceRequest)
        puzzle = read_puzzle(body)
        # the enumeration search knows rows, columns and boxes only: its replay of a rule puzzle
        # would be a search of another puzzle
        puzzle.geometry.variant.refuse_rules("the enumeration search")
        limit = field(body, "limit", int, MAX_TRACE)
        return ok(models.Traced, await self.heavy(jobs.trace, puzzle_json(puzzle), limit))

    async def generate(self, request: Request) -> Response:
        self._feature("generate")
        size, variant, level, rules = _kind(await read_body(request, models.KindRequest))
        return await self._generate(size, variant, level, rules)

    async def _generate(
        self, size: int, variant: str, level: str | None, rules: str | None = None
    ) -> Response:
        self._feature("generate")
        made = await self.heavy(jobs.generate, size, variant, level, self.deadline, rules)
        return ok(models.NewPuzzle, made)

    async def new(self, request: Request) -> Response:
        """A new puzzle: from the bank when it holds one of that kind, else generated on demand."""
        size, variant, level, rules = _kind(await read_body(request, models.KindRequest))
        # the bank names a puzzle with rules by its rule set (shudu bank fill --rules killer)
        kind_name = variant if rules is None else rules.strip().lower().replace(" ", "-")
        banked = await anyio.to_thread.run_sync(
            self.store.take_from_bank, size, kind_name, level, limiter=self.light
        )
        if banked is None and rules is not None:
            # made now, within the deadline: the background making keeps classic kinds
            return await self._generate(size, variant, level, rules)
        if banked is not None:
            puzzle = shudu.parse_puzzle(json.dumps(banked.puzzle))
            return ok(models.NewPuzzle, {"puzzle": describe(puzzle), "level": banked.level, "source": "bank"})
        kind = (size, variant, level)
        if size < SLOW_SIZE and not self.maker.underway(kind):
            try:
                return await self._generate(size, variant, level)
            except BadRequest as exc:
                if exc.status != 503:
                    raise  # past the deadline: made in the background instead
        return await self._making(kind)

    async def _making(self, kind: tuple[int, str, str | None]) -> Response:
        """202 with the progress of the background making of ``kind``; the puzzle once made."""
        self._feature("generate")
        for _ in range(3):
            try:
                report = await anyio.to_thread.run_sync(self.maker.ask, kind, limiter=self.light)
            except TooMany as exc:
                raise BadRequest(str(exc), status=429, retry_after=5) from None
            if report is not None:
                if report["state"] == "failed":
                    error = dict(report.get("error") or {})
                    raise BadRequest(
                        str(error.pop("error", "the puzzle could not be made")),
                        status=int(error.pop("status", 500)),
                        **{k: v for k, v in error.items() if k in ("kind", "line", "column", "cells")},
                    )
                return ok(models.Making, {"making": report}, status=202)
            banked = await anyio.to_thread.run_sync(self.store.take_from_bank, *kind, limiter=self.light)
            if banked is not None:  # made: served to whoever asks first
                puzzle = shudu.parse_puzzle(json.dumps(banked.puzzle))
                answer = {"puzzle": describe(puzzle), "level": banked.level, "source": "generated"}
                return ok(models.NewPuzzle, answer)
        raise BadRequest("the puzzles made for this kind were taken by other players; ask again", status=429)

    def _feature(self, name: str) -> Callable[..., Any]:
        function = _trace_function() if name == "trace" else getattr(shudu, name, None)
        if not callable(function):
            raise BadRequest(f"this version of shudu has no {name} yet (see /api/features)", status=501)
        return function

    # --- the trainer --------------------------------------------------------------------

    async def get_train(self, request: Request) -> Response:
        """The techniques a drill can train, easiest first."""
        listed = [{"name": name, "level": level} for name, level in trainable()]
        return ok(models.Trainables, {"techniques": listed})

    async def train(self, request: Request) -> Response:
        """One drill: a board where the technique is the next step, and that step."""
        body = await read_body(request, models.TrainRequest)
        technique = field(body, "technique", str)
        try:
            name = training_technique(technique)  # a precise 422 for a name the engine lacks, at once
        except shudu.ShuduError as exc:
            raise BadRequest(str(exc), status=422, field="technique") from None
        if name not in dict(trainable()):
            raise BadRequest(
                f"{name} is not trained here: drills are classic puzzles"
                " (GET /api/train lists the techniques)",
                status=422,
                field="technique",
            )
        level, seed = field(body, "level", str), field(body, "seed", int)
        return ok(models.Trained, await self.heavy(jobs.train, technique, level, seed, self.deadline))

    # --- saved games --------------------------------------------------------------------

    async def list_games(self, request: Request) -> Response:
        player = _player(request)
        games = await anyio.to_thread.run_sync(self._games_of, player, limiter=self.light)
        return ok(models.Games, {"games": [g.summary() for g in games]})

    def _games_of(self, player: str) -> list[Game]:
        self.store.claim_unowned(player)  # games saved before there were players go to the first to look
        return self.store.games(player)

    async def create_game(self, request: Request) -> Response:
        body = await read_body(request, models.NewGameRequest)
        puzzle = read_puzzle(body)
        puzzle.geometry.refuse_rect("a played game")
        level = field(body, "level", str)
        found = await self.run(shudu.count, puzzle, 2, timeout=self.deadline)
        if found != 1:
            raise BadRequest(
                f"only a puzzle with exactly one solution can be played; this one has {_count_words(found)}",
                status=422,
                field="puzzle",
            )
        game = Game.new(puzzle_json(puzzle), level=level, player=_player(request))
        await anyio.to_thread.run_sync(self.store.save_game, game, limiter=self.light)
        return ok(models.SavedGame, self._game_json(game, puzzle), status=201)

    async def get_game(self, request: Request) -> Response:
        game = await anyio.to_thread.run_sync(
            self.store.game, path_game_id(request), _player(request), limiter=self.light
        )
        return ok(models.SavedGame, self._game_json(game, shudu.parse_puzzle(json.dumps(game.puzzle))))

    async def save_game(self, request: Request) -> Response:
        """Save a game's state, based on the ``version`` the page last loaded or saved (409 if stale).

        A save that changes nothing but the time played (an idle page's periodic save) keeps the
        version, so two idle pages of one game never see each other as a change; the time played
        is never wound back. For the same reason a save based on an older version is accepted
        when its moves are the saved game's already (a page reloaded right after a move sends the
        move again while the last page's save of it is still on its way), or when its history
        carries on from the saved game's (every saved move, in order, then more, and nothing undone
        since: a reloaded page whose last save of an earlier move lands after the reload's read):
        either way it overwrites nothing."""
        game_id = path_game_id(request)
        body = await read_body(request, models.SaveRequest)
        game = await anyio.to_thread.run_sync(self.store.game, game_id, _player(request), limiter=self.light)
        puzzle = shudu.parse_puzzle(json.dumps(game.puzzle))
        version = int(body["version"])
        before = _moves(game)
        history = game.history
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
        game.history = read_history(body, puzzle) or game.history
        game.finished = field(body, "finished", bool, game.finished)
        elapsed = max(game.elapsed_ms, field(body, "elapsed_ms", int, 0))
        moved = _moves(game) != before
        if version != game.version and moved and not _carries_on(history, game.history):
            return _stale(game.id, version, game.version)
        if not moved and elapsed == game.elapsed_ms:
            return ok(models.Summary, game.summary())  # nothing to write
        game.elapsed_ms = elapsed
        try:
            await anyio.to_thread.run_sync(
                functools.partial(self.store.save_game, game, bump=moved), limiter=self.light
            )
        except StaleGame as exc:  # another save landed between the read and the write
            return _stale(game_id, version, exc.version)
        return ok(models.Summary, game.summary())

    async def delete_game(self, request: Request) -> Response:
        await anyio.to_thread.run_sync(
            self.store.delete_game, path_game_id(request), _player(request), limiter=self.light
        )
        return Response(status_code=204)

    @staticmethod
    def _game_json(game: Game, puzzle: shudu.Puzzle) -> dict[str, Any]:
        return {**game.to_json(), "puzzle": describe(puzzle)}


def _moves(game: Game) -> tuple[Any, ...]:
    """What a save changes besides the time played."""
    return (game.entries, game.corner, game.centre, game.history, game.finished)


def _carries_on(saved: dict[str, list[Any]], sent: dict[str, list[Any]]) -> bool:
    """Whether a save's move history holds every move of the saved game's, in order, and more
    after them, with nothing of the saved game's undone (its redo list is empty)."""
    kept = len(saved["undo"])
    return not saved["redo"] and len(sent["undo"]) > kept and sent["undo"][:kept] == saved["undo"]


def _player(request: Request) -> str:
    return str(request.state.player)


def _stale(game_id: int | None, based_on: int, version: int) -> JSONResponse:
    return error(
        f"game {game_id} was changed in another page or tab since this one loaded it (this save is based"
        f" on version {based_on}, the saved game is at {version}); reload it to go on",
        409,
        kind="StaleGame",
        version=version,
    )


def _count_words(found: int) -> str:
    return STATUS_WORDS["none"] if found == 0 else STATUS_WORDS["multiple"]


def _kind(body: dict[str, Any]) -> tuple[int, str, str | None, str | None]:
    """The size, variant, level and rule set of a :class:`models.KindRequest` (its model checked
    their types and ranges)."""
    size = field(body, "size", int, 9)
    variant = field(body, "variant", str, "standard")
    level = field(body, "level", str)
    rules = field(body, "rules", str)
    # a precise error for an unknown or ill-fitting variant or rule set, or a level never met
    # (jigsaw: a random layout)
    check_request(size, variant=variant, level=level, rules=rules)
    return size, variant, level, rules


def create_app(
    db: str | Path | None = None,
    *,
    deadline: float = 10.0,
    workers: int = 2,
    queue: int = 8,
    grace: float = 1.0,
    store: Store | None = None,
    token: str | None = None,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The app, saving to the SQLite file ``db`` (default: under the user's data directory).

    Heavy requests run in ``workers`` processes under ``deadline`` seconds (a worker still busy
    ``grace`` seconds later is killed and replaced); when ``queue`` of them wait already, one more
    gets 429. Each browser is a player with its own games (a cookie the server signs); with
    ``token`` set, every request must carry it (``?token=`` once, then a cookie; or
    ``Authorization: Bearer``), else 401. With ``allowed_hosts``, a request naming another host
    gets 400 (None: any host, for an app behind a proxy that checks; :func:`shudu.web.serve`
    passes the loopback names by default). A write from a page of another origin gets 403.
    """
    check_token(token)
    hosts = None if allowed_hosts is None else check_hosts(allowed_hosts)
    store = store or Store(db)
    api = Api(store, deadline=deadline, workers=workers, queue=queue, grace=grace)
    routes = [
        Route("/", lambda request: Response(index_page(), media_type="text/html"), methods=["GET"]),
        Route("/api/openapi.json", api.get_openapi, methods=["GET"]),
        *api_routes(api),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        api.pool.open()
        try:
            yield
        finally:
            api.pool.close()
            api.maker.close()

    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(Guard, allowed_hosts=hosts),
            Middleware(GZipMiddleware, minimum_size=1000),
            Middleware(Players, keys=PlayerKeys.of_store(store), token=token),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.api = api
    return app
