"""The heavy jobs, run in worker processes: plain data in (a puzzle's JSON form), plain data out.

Each job passes the request's deadline to the library call's own ``timeout``; the pool kills
the worker if that does not stop it in time (see :mod:`shudu.web.workers`).
"""

from __future__ import annotations

import inspect
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

import shudu

from ..generator import GeneratorTimeout
from ..notation import STATUS_WORDS, char_digit, digit_char
from .puzzles import BadRequest, cell_index, describe, puzzle_json, step_json, to_plain


def failure(exc: BaseException) -> dict[str, Any]:
    """An exception as data the server turns into an error answer."""
    if isinstance(exc, BadRequest):
        return {"error": exc.message, "status": exc.status, **exc.details}
    if isinstance(exc, shudu.ShuduError):
        timed_out = isinstance(exc, GeneratorTimeout | shudu.errors.SearchTimeout)
        return {
            "error": str(exc),
            "status": 503 if timed_out else 422,
            "kind": type(exc).__name__,
            "line": exc.line,
            "column": getattr(exc, "column", None),
            "cells": [str(c) for c in getattr(exc, "cells", ()) or ()] or None,
        }
    return {"error": f"the server failed on this request ({type(exc).__name__})", "status": 500}


def call(function: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """``function(*args, **options)``, passing only the options its signature takes."""
    try:
        params = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return function(*args, **options)
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return function(*args, **options)
    return function(*args, **{k: v for k, v in options.items() if k in params})


def _puzzle(data: dict[str, Any]) -> shudu.Puzzle:
    return shudu.parse_puzzle(json.dumps(data))


def rate(puzzle: dict[str, Any], timeout: float) -> dict[str, Any]:
    data = to_plain(call(shudu.rate, _puzzle(puzzle), timeout=timeout))
    return data if isinstance(data, dict) else {"rating": data}


def explain(puzzle: dict[str, Any], timeout: float) -> dict[str, Any]:
    board = _puzzle(puzzle)
    explanation = call(shudu.explain, board, timeout=timeout)
    steps = getattr(explanation, "steps", explanation)
    data = to_plain(explanation) if hasattr(explanation, "steps") else {}
    if not isinstance(data, dict):
        data = {}
    data["steps"] = [step_json(step, board.size) for step in steps]
    return data


def hint(
    puzzle: dict[str, Any],
    entries: list[int],
    level: str,
    timeout: float,
    pencil: list[list[int]] | None = None,
) -> dict[str, Any]:
    """The next step from the player's entries (and candidate marks, where a cell has some), or
    the entries that are wrong, or the first cell whose marks leave out its digit."""
    board = _puzzle(puzzle)
    result = call(shudu.solve, board, timeout=timeout)
    if result.solution is None:
        raise BadRequest(f"no hint: the puzzle has {STATUS_WORDS[result.status]}", status=422)
    mistakes = [i for i, d in enumerate(entries) if d and d != result.solution.cells[i]]
    if mistakes:
        names = ", ".join(board.geometry.cell_name(i) for i in mistakes[:5])
        text = f"{'this entry is' if len(mistakes) == 1 else 'these entries are'} wrong: {names}"
        return {"level": level, "text": text, "mistakes": mistakes, "step": None, "solved": False}
    state: dict[str, Any] = {
        **puzzle_json(board),
        "entries": [0 if g else e for g, e in zip(board.cells, entries, strict=True)],
    }
    if pencil and any(pencil):
        state["pencil"] = ["".join(digit_char(d) for d in sorted(set(m))) for m in pencil]
    found = call(shudu.hint, state, level=level, timeout=timeout)
    mistake = getattr(found, "mistake", None)
    if mistake is not None and mistake[1] == 0:  # a cell's marks leave out its digit
        cell = cell_index(mistake[0], board.size)
        return {
            "level": level,
            "text": str(found.text),
            "mistakes": [] if cell is None else [cell],
            "marks": True,
            "step": None,
            "solved": False,
        }
    step = getattr(found, "step", found)
    return {
        "level": level,
        "text": str(getattr(found, "text", "") or (step.explanation if step else "")),
        "mistakes": [],
        "step": None if step is None else step_json(step, board.size),
        "solved": bool(getattr(found, "solved", False)),
    }


#: The compact form of each kind of search step: its letter and the fields after it.
TRACE_FIELDS = {
    "start": ("s", ("candidates",)),
    "forward": ("f", ("cell", "digit", "struck")),
    "reject": ("r", ("cell", "digit", "emptied")),
    "back": ("b", ()),
    "solution": ("x", ("grid",)),
    "done": ("d", ()),
}


def compact(step: dict[str, Any]) -> list[Any]:
    """A search step as a short list: its kind's letter, then its fields in a fixed order."""
    letter, names = TRACE_FIELDS.get(str(step.get("kind")), (str(step.get("kind")), ()))
    return [letter, *(step.get(name) for name in names)]


def trace(puzzle: dict[str, Any], limit: int) -> dict[str, Any]:
    """The enumeration search, up to ``limit`` steps, each step compact."""
    from shudu.solvers import enumeration

    found = [
        compact(to_plain(s)) for s in itertools.islice(enumeration.trace(_puzzle(puzzle), limit=1), limit + 1)
    ]
    return {"steps": found[:limit], "truncated": len(found) > limit, "fields": TRACE_FIELDS}


def generate(
    size: int, variant: str, level: str | None, timeout: float, rules: str | None = None
) -> dict[str, Any]:
    """A puzzle made now, rated even when no level is asked, so the answer names its level;
    ``rules``: a set of constraint rules (killer …) to make."""
    options: dict[str, Any] = {"rules": rules} if rules is not None else {}
    made = call(
        shudu.generate, size=size, variant=variant, level=level, timeout=timeout, rate=True, **options
    )
    return {"puzzle": describe(made.puzzle), "level": made.level, "source": "generated"}


def train(technique: str, level: str | None, seed: int | None, timeout: float) -> dict[str, Any]:
    """One drill of ``technique``: the board, its puzzle described for drawing, its entries and
    candidates as lists, the answer step and the technique's other steps on the board (a player
    who finds one of those is right too); 503 when none is made within ``timeout``."""
    from ..workshop import train as make_drills

    end = time.monotonic() + timeout
    found = make_drills(technique, 1, level=level, seed=seed, timeout=timeout)
    if not found.drills:
        raise BadRequest(
            f"no {found.technique} drill was made within the {timeout:g} s deadline (tried"
            f" {found.tried} puzzles); ask again, or pick a more common technique",
            status=503,
        )
    drill = found.drills[0]
    size = drill.puzzle.size
    board = drill.board
    listed = shudu.find_steps(board, found.technique, timeout=max(0.1, end - time.monotonic()))
    answer = step_json(drill.step, size)
    others = [step_json(step, size) for step in listed.steps]
    others = [step for step in others if _removes(step) != _removes(answer)]
    entries = [char_digit(ch, size) or 0 for ch in board["entries"]]
    candidates = [[char_digit(ch, size) or 0 for ch in marks] for marks in board["pencil"]]
    return {
        "technique": found.technique,
        "board": board,
        "puzzle": describe(drill.puzzle),
        "entries": entries,
        "candidates": candidates,
        "answer": answer,
        "others": others,
        "seed": drill.seed,
    }


def _removes(step: dict[str, Any]) -> tuple[Any, ...]:
    """What a step does to the board: its placements and eliminations, as sets."""
    return tuple(
        frozenset((p["cell"], p["digit"]) for p in step[key]) for key in ("placements", "eliminations")
    )


def spin(seconds: float) -> None:
    """Busy the worker for ``seconds`` without a way to stop it (to test the pool's kill)."""
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
