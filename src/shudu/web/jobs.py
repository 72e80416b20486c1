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


#: The most backdoors the setter's panel lists.
SETTER_BACKDOORS = 20


def setter(puzzle: dict[str, Any], limit: int, timeout: float) -> dict[str, Any]:
    """The setter's panel: the solution count (up to ``limit``), the true candidates, the redundant
    givens (of a unique puzzle), the fewest givens that make it unique (of a puzzle with several
    solutions), its singles backdoors and its rating (of a unique puzzle).

    The parts run one after the other within ``timeout`` seconds in all, each given an equal share
    of the time left by those before it, so a part that runs out of time says ``timeout`` and the
    others still answer. A part that does not apply to the puzzle takes the count's status."""
    board = _puzzle(puzzle)
    end = time.monotonic() + timeout

    def share(parts_left: int) -> float:
        return max(0.001, (end - time.monotonic()) / parts_left)

    parts = _setter_blank(limit)
    count = parts["count"] = _timed(parts["count"], lambda: _setter_count(board, limit, share(5)))
    status = count["status"]
    several = status == "multiple" or (status == "timeout" and count["solutions"] >= 2)
    # the parts that do not apply say the count's word
    said = "multiple" if several else status
    for name in ("redundant", "make_unique", "backdoors", "rating"):
        parts[name].update(status=said, seconds=0.0)
    parts["make_unique"]["proven_minimal"] = status == "unique"
    runs: list[tuple[str, Callable[[float], dict[str, Any]]]] = [
        ("candidates", lambda seconds: _setter_candidates(board, limit, seconds))
    ]
    if status == "unique":
        runs += [
            ("redundant", lambda seconds: _setter_redundant(board, seconds)),
            ("backdoors", lambda seconds: _setter_backdoors(board, seconds)),
            ("rating", lambda seconds: _setter_rating(board, seconds)),
        ]
    elif several:
        runs.append(("make_unique", lambda seconds: _setter_unique(board, seconds)))
    for k, (name, run) in enumerate(runs):
        left = len(runs) - k
        parts[name] = _timed(parts[name], lambda: run(share(left)))  # noqa: B023 (called at once)
    return parts


def _setter_blank(limit: int) -> dict[str, dict[str, Any]]:
    """Every part of the setter's panel with nothing found, and no status yet."""
    return {
        "count": {"solutions": 0, "complete": False, "limit": limit},
        "candidates": {"candidates": [], "undecided": []},
        "redundant": {"givens": [], "together": [], "proven_largest": False},
        "make_unique": {"added": [], "proven_minimal": False},
        "backdoors": {"techniques": "singles", "size": None, "count": 0, "complete": False, "backdoors": []},
        "rating": {"level": None, "score": None, "se": None, "hardest": None},
    }


def _timed(blank: dict[str, Any], run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``run()``'s part over its ``blank``, with the seconds it took; a part the library refuses for
    this puzzle (backdoors of a puzzle with constraint rules) is ``invalid``, in the library's
    words."""
    start = time.monotonic()
    try:
        part = {**blank, **run()}
    except shudu.errors.SearchTimeout:
        part = {**blank, "status": "timeout"}
    except shudu.ShuduError as exc:
        part = {**blank, "status": "invalid", "error": str(exc)}
    part["seconds"] = round(time.monotonic() - start, 4)
    return part


def _setter_count(board: shudu.Puzzle, limit: int, timeout: float) -> dict[str, Any]:
    try:
        found = shudu.count(board, limit, timeout=timeout)
    except shudu.errors.SearchTimeout as exc:
        return {"status": "timeout", "solutions": int(exc.found or 0), "complete": False, "limit": limit}
    status = "none" if found == 0 else "unique" if found == 1 else "multiple"
    return {"status": status, "solutions": found, "complete": found < limit, "limit": limit}


def _setter_candidates(board: shudu.Puzzle, limit: int, timeout: float) -> dict[str, Any]:
    from ..workshop import true_candidates

    found = true_candidates(board, count_limit=limit, timeout=timeout)
    return {
        "status": found.status,
        "candidates": [list(digits) for digits in found.candidates],
        "undecided": [list(digits) for digits in found.undecided] if found.status == "timeout" else [],
    }


def _setter_redundant(board: shudu.Puzzle, timeout: float) -> dict[str, Any]:
    from ..workshop import redundant

    found = redundant(board, rules=False, timeout=timeout)
    return {
        "status": found.status,
        "givens": list(found.givens),
        "together": list(found.together_givens),
        "proven_largest": found.proven_largest,
    }


def _setter_unique(board: shudu.Puzzle, timeout: float) -> dict[str, Any]:
    from ..workshop import make_unique

    found = make_unique(board, timeout=timeout)
    return {
        "status": found.status,
        "added": [{"cell": cell, "digit": digit} for cell, digit in found.added],
        "proven_minimal": found.proven_minimal,
    }


def _setter_backdoors(board: shudu.Puzzle, timeout: float) -> dict[str, Any]:
    from ..workshop import backdoors

    found = backdoors(board, "singles", limit=SETTER_BACKDOORS, timeout=timeout)
    solution = found.solution or ()
    return {
        "status": found.status,
        "techniques": "singles",
        "size": found.size,
        "count": found.count,
        "complete": found.complete,
        "backdoors": [[{"cell": c, "digit": solution[c]} for c in door] for door in found.backdoors],
    }


def _setter_rating(board: shudu.Puzzle, timeout: float) -> dict[str, Any]:
    rating = call(shudu.rate, board, timeout=timeout)
    data = to_plain(rating)
    data = data if isinstance(data, dict) else {}
    status = str(data.get("status") or getattr(rating, "status", "timeout"))
    return {"status": status, **{k: data.get(k) for k in ("level", "score", "se", "hardest")}}
