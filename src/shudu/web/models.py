"""The web API's requests and answers, declared once: validated here, documented from here.

Every request body is checked against its model before a handler sees it (strictly: no
coercion, so ``"9"`` is not a size); every answer is built through its model, so what the
server sends is what ``/api/openapi.json`` (made from these models) says it sends.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from ..notation import HintLevel, Level
from .puzzles import MAX_PUZZLE_TEXT

#: The longest a saved game may have run: a hundred years, in milliseconds.
MAX_ELAPSED_MS = 100 * 365 * 24 * 3600 * 1000
#: The most enumeration steps one trace request returns.
MAX_TRACE = 200_000

#: The sizes of grid with a box shape: every size but the primes, which only a jigsaw can have.
BOX_SIZES = (4, 6, 8, 9, 10, 12, 14, 15, 16, 18, 20, 21, 22, 24, 25)

Name = Annotated[str, Field(max_length=200)]


def _whole(value: Any) -> Any:
    """A JSON number with no fraction (``1971.0``) as the whole number it is: JSON Schema's
    ``integer`` takes it, so the server does too."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# Whole numbers as JSON Schema means them: ``7`` or ``7.0``, never ``7.5``, ``"7"`` or ``true``;
# each with its range, which the document shows (the range must come before the validator).
_WHOLE = BeforeValidator(_whole)
#: Any whole number the body reader takes (at most 30 digits).
Whole = Annotated[int, Field(ge=-(10**30 - 1), le=10**30 - 1), _WHOLE]
#: A digit of a cell, 0 for none.
Digit = Annotated[int, Field(ge=0, le=25), _WHOLE]
#: A pencil mark.
Mark = Annotated[int, Field(ge=1, le=25), _WHOLE]
#: A cell's index.
Cell = Annotated[int, Field(ge=0, le=25 * 25 - 1), _WHOLE]
Size = Annotated[int, Field(ge=4, le=25), _WHOLE]
CountLimit = Annotated[int, Field(ge=1, le=1_000_000), _WHOLE]
TraceLimit = Annotated[int, Field(ge=1, le=MAX_TRACE), _WHOLE]
Version = Annotated[int, Field(ge=0, le=2**63 - 1), _WHOLE]
#: A saved game's id, in a path (SQLite's integer keys are 64-bit).
GameId = Annotated[int, Field(ge=1, le=2**63 - 1)]
Elapsed = Annotated[int, Field(ge=0, le=MAX_ELAPSED_MS), _WHOLE]
Seed = Annotated[int, Field(ge=0, le=2**63 - 1), _WHOLE]


class Model(BaseModel):
    """A request body: strict (no coercion, so ``"9"`` is not a size) and closed (an unknown
    field is an error that names it)."""

    model_config = ConfigDict(strict=True, extra="forbid")


class Answer(BaseModel):
    """An answer: its fields are as declared; a library result may add fields of its own."""

    model_config = ConfigDict(extra="allow")


# --- requests ------------------------------------------------------------------------------------


class PuzzleRequest(Model):
    """A puzzle in any text format of docs/formats.md, or its JSON object, with its variant."""

    puzzle: Annotated[str, Field(max_length=MAX_PUZZLE_TEXT)] | dict[str, Any] = Field(
        description="puzzle text in a format of docs/formats.md, or a JSON puzzle object"
    )
    variant: Name | None = Field(None, description="variant name, parts joined by + (x, pyramid, …)")
    box: Annotated[str, Field(max_length=20)] | None = Field(None, description="box shape RxC, e.g. 2x3")
    layout: Annotated[str, Field(max_length=MAX_PUZZLE_TEXT)] | list[Whole | Name] | None = Field(
        None, description="jigsaw layout: n*n region labels"
    )
    regions: list[list[Cell]] | None = Field(None, description="custom extra regions, lists of cells")


class SolveRequest(PuzzleRequest):
    algorithm: Name = "auto"


class CountRequest(PuzzleRequest):
    limit: CountLimit = 1000


#: The most solutions the setter's panel counts.
SETTER_COUNT = 100_000


class SetterRequest(PuzzleRequest):
    """A puzzle in the making, for the setter's panel."""

    limit: Annotated[int, Field(ge=2, le=SETTER_COUNT), _WHOLE] = Field(
        1000, description="count solutions up to this many; more is answered as at least this many"
    )
    deadline: Annotated[float, Field(ge=0.05, le=600)] | None = Field(
        None,
        description="seconds for the whole answer, shared among its parts; at most (and by default)"
        " the server's deadline",
    )


class HintRequest(PuzzleRequest):
    entries: list[Digit] | None = Field(None, description="the player's n*n digits, 0 empty")
    level: HintLevel = "step"
    pencil: list[list[Mark]] | None = Field(
        None, description="the player's candidate marks: n*n lists of digits, [] for a cell without marks"
    )


class CandidatesRequest(PuzzleRequest):
    entries: list[Digit] | None = Field(None, description="the player's n*n digits, 0 empty")


class TraceRequest(PuzzleRequest):
    limit: TraceLimit = MAX_TRACE


class KindRequest(Model):
    """A kind of new puzzle. Only a jigsaw (a random layout) may have a prime size."""

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        json_schema_extra={
            "if": {"required": ["variant"], "properties": {"variant": {"const": "jigsaw"}}},
            "then": {},
            "else": {"properties": {"size": {"enum": list(BOX_SIZES)}}},
        },
    )
    size: Size = 9
    variant: Name = "standard"
    level: Level | None = None
    rules: Name | None = Field(
        None,
        description="a set of constraint rules to make (killer, thermo, arrow, kropki, little-killer,"
        " sandwich, mixed)",
    )

    @model_validator(mode="after")
    def _box_shape(self) -> KindRequest:
        if self.variant != "jigsaw" and self.size not in BOX_SIZES:
            raise ValueError(
                f"a {self.size}x{self.size} grid has no box shape (size is prime); only a jigsaw can have it"
            )
        return self


class TrainRequest(Model):
    """A drill of one technique: a board where it is the next step."""

    technique: Name = Field(description="the technique: shudu's name, HoDoKu's name or code (GET /api/train)")
    level: Level | None = Field(None, description="the level of the puzzle the board comes from")
    seed: Seed | None = Field(None, description="makes the drill the same again; absent: a new one")


class NewGameRequest(PuzzleRequest):
    level: Level | None = None


class History(Model):
    undo: list[list[dict[str, Any]]]
    redo: list[list[dict[str, Any]]]


class SaveRequest(Model):
    """A game's state, based on the ``version`` the page last loaded or saved."""

    version: Version = Field(
        description="the version of the game this save is based on; 409 if the game has moved on since"
    )
    entries: list[Digit] | None = None
    corner: list[list[Mark]] | None = None
    centre: list[list[Mark]] | None = None
    history: History | None = None
    elapsed_ms: Elapsed | None = Field(None, description="the time played; a save never winds it back")
    finished: bool | None = None


# --- answers -------------------------------------------------------------------------------------


class Error(Answer):
    error: str
    kind: str | None = None
    field: str | None = None
    line: int | None = None
    column: int | None = None
    cells: list[str | int] | None = None
    version: int | None = None


class Features(Answer):
    version: str
    features: dict[str, bool]
    variants: dict[str, str]
    sizes: list[int]
    levels: list[str]
    offered: dict[str, list[int]] = Field(description="for each variant, the sizes New puzzle offers")
    rule_sets: dict[str, list[int]] = Field(
        description="for each set of constraint rules the generator makes (killer, thermo …), the sizes New"
        " puzzle offers"
    )
    algorithms: list[str]
    bank: list[dict[str, Any]] | dict[str, Any]


class BankKind(Answer):
    """How many puzzles of one kind wait in the bank."""

    size: int
    variant: str
    level: str | None = Field(description="the rated level; null for puzzles banked without one")
    puzzles: int


class Bank(Answer):
    """The bank's difficulty picture: the puzzles waiting, by size, variant and level."""

    levels: list[str] = Field(description="the levels, easiest first, in the order to draw them")
    kinds: list[BankKind]
    total: int


def _rule_cells(schema: dict[str, Any]) -> None:
    schema["properties"]["cells"] = {
        "type": "array",
        "items": {"type": "string"},
        "description": "the cells it reads, in the order that matters to it (absent: the whole grid)",
    }


class RuleJson(Answer):
    """One constraint rule as :meth:`shudu.rules.Rule.to_json` writes it: its type, the cells it
    reads in order (``r1c2`` names), and its whole-number parameters by name (``total``,
    ``circle``, ``gap``, ``digits`` …)."""

    # ``cells`` is absent for a grid-wide rule (anti-consecutive), so it is documented, not declared
    # (a declared field would be sent as null)
    model_config = ConfigDict(extra="allow", json_schema_extra=_rule_cells)
    rule: str = Field(description="the rule type: cage, thermo, arrow, white-dot, renban, sandwich, …")


class Described(Answer):
    """A puzzle with what the page needs to draw it."""

    json_: dict[str, Any] = Field(alias="json")
    size: int
    box: list[int] | None
    variant: str
    givens: list[int]
    region: list[int]
    jigsaw: bool
    extras: list[dict[str, Any]]
    houses: list[dict[str, Any]]
    links: list[list[int]] | None
    rules: list[RuleJson] = Field(
        description="the puzzle's constraint rules, each in shudu's JSON form (docs/constraints.md):"
        ' {"rule": "cage", "cells": ["r1c1", "r1c2"], "total": 3}; [] for a classic or region variant'
    )
    sudokupad: str | None = Field(
        description="the puzzle as a SudokuPad link (https://sudokupad.app/…), or null where SudokuPad's"
        " format cannot hold it"
    )


class Parsed(Answer):
    puzzle: Described


class Candidates(Answer):
    candidates: list[list[int]] = Field(
        description="per cell, the digits its peers and each rule on its own allow (a placed cell: its digit)"
    )


class Solved(Answer):
    status: str
    solution: list[int] | None
    algorithm: str | None
    stats: Any


class Counted(Answer):
    count: int
    complete: bool
    reason: str | None


class Step(Answer):
    explanation: str
    technique: str
    cells: list[int]
    placements: list[dict[str, int]]
    eliminations: list[dict[str, int]]


class Hinted(Answer):
    level: str
    text: str
    mistakes: list[int]
    marks: bool = Field(False, description="the mistake is in the pencil marks of the cell named")
    step: Step | None
    solved: bool


class Explained(Answer):
    steps: list[Step]


class Rated(Answer):
    pass


class SetterPart(Answer):
    """One part of the setter's panel: its own status, so that a part that ran out of time says
    ``timeout`` while the others answer."""

    status: str = Field(
        description="unique, multiple, none, timeout or invalid (the part does not apply to this puzzle,"
        " said in error); the backdoors also found, solved or not-found"
    )
    seconds: float = Field(description="the time the part took")
    error: str | None = Field(None, description="why the part does not apply (status invalid)")


class SetterCount(SetterPart):
    solutions: int = Field(
        description="the solutions found: all of them when complete, else at least this many"
    )
    complete: bool = Field(description="every solution was counted (false: at the limit, or out of time)")
    limit: int


class SetterCandidates(SetterPart):
    candidates: list[list[int]] = Field(
        description="per cell, the digits that occur in some solution (a given: its given); on timeout the"
        " digits shown so far"
    )
    undecided: list[list[int]] = Field(
        description="per cell, the digits not settled in time ([] unless timeout)"
    )


class SetterRedundant(SetterPart):
    givens: list[int] = Field(description="the cells whose given can go alone, the puzzle staying unique")
    together: list[int] = Field(description="a largest set of them found that can go together")
    proven_largest: bool


class Placement(Answer):
    cell: int
    digit: int


class SetterUnique(SetterPart):
    added: list[Placement] = Field(
        description="the fewest givens found that make the puzzle unique (status unique; on timeout the best"
        " set found, checked unique, or none)"
    )
    proven_minimal: bool = Field(description="no fewer givens do")


class SetterBackdoors(SetterPart):
    techniques: str = Field(description="the techniques that must finish the puzzle once the cells are given")
    size: int | None
    count: int = Field(description="how many backdoors of that size were found")
    complete: bool = Field(description="the list holds every backdoor of that size")
    backdoors: list[list[Placement]] = Field(description="up to 20 backdoors, each its cells and digits")


class SetterRating(SetterPart):
    level: str | None = None
    score: int | None = None
    se: float | None = None
    hardest: str | None = None


class Setter(Answer):
    """The setter's panel: each part computed within the request's deadline, in this order."""

    count: SetterCount
    candidates: SetterCandidates
    redundant: SetterRedundant
    make_unique: SetterUnique
    backdoors: SetterBackdoors
    rating: SetterRating


class Traced(Answer):
    steps: list[Any] = Field(description="the search's steps, compact (see docs/web.md)")
    truncated: bool


class NewPuzzle(Answer):
    puzzle: Described
    level: str | None
    source: Literal["bank", "generated"]


class Making(Answer):
    """A new puzzle still being made in the background: ask again for it, or for more progress."""

    making: dict[str, Any] = Field(
        description="size, variant, level, state (making), grids tried, rated, seconds so far"
    )


class Trainable(Answer):
    """A technique the trainer offers."""

    name: str
    level: str = Field(description="the level of the technique (HoDoKu's)")


class Trainables(Answer):
    techniques: list[Trainable] = Field(description="the techniques a drill can train, easiest first")


class Trained(Answer):
    """One drill: a board on which the technique is the next step and no easier one applies."""

    technique: str
    board: dict[str, Any] = Field(
        description='the board: the puzzle\'s givens, the digits placed since as "entries" and the'
        ' candidates left as "pencil" (one string a cell; shudu.parse_board reads it back)'
    )
    puzzle: Described = Field(description="the board's puzzle (its givens), described for drawing")
    entries: list[int] = Field(description="the digits placed since the givens, n*n, 0 for none")
    candidates: list[list[int]] = Field(description="the candidates of each cell, [] for a filled one")
    answer: Step = Field(description="the technique's step there: the placements and eliminations to find")
    others: list[Step] = Field(
        description="the technique's other steps on the board (each doing something else): finding one of"
        " them is right too"
    )
    seed: int = Field(description="the seed of the generated puzzle the board comes from")


class Summary(Answer):
    id: int
    version: int
    size: int
    variant: str
    level: str | None
    elapsed_ms: int
    finished: bool


class Games(Answer):
    games: list[Summary]


class SavedGame(Summary):
    puzzle: Described
    entries: list[int]


# --- checking ------------------------------------------------------------------------------------

M = TypeVar("M", bound=BaseModel)
_KINDS = {
    "string_type": "a string",
    "int_type": "a whole number",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
}


def problem(exc: ValidationError, model: type[BaseModel]) -> tuple[str, str]:
    """The first thing wrong, as a sentence, and the top-level field it is in."""
    error = exc.errors(include_url=False)[0]
    loc = [
        str(p) for p in error["loc"] if not str(p).startswith(("str", "int", "list", "dict", "constrained"))
    ]
    top = loc[0] if loc else ""
    where = '"' + ".".join(loc) + '"' if loc else "the body"
    shown = json.dumps(error.get("input"), default=str)[:60]
    kind = error["type"]
    info = model.model_fields.get(top)
    if kind == "extra_forbidden":
        known = ", ".join(_known_fields(model, loc[:-1]))
        inside = (
            f' in "{".".join(loc[:-1])}"'
            if len(loc) > 1
            else " in a saved game"
            if model is SaveRequest
            else ""
        )
        return f"unknown field {loc[-1]!r}{inside}; the fields are {known}", top
    if kind == "value_error" and not loc:
        return str((error.get("ctx") or {}).get("error", error["msg"])), ""
    if kind in ("greater_than_equal", "less_than_equal") and info is not None and len(loc) == 1:
        low, high = _bounds(info.annotation, info.metadata)
        return f"{where} must be {low} to {high}, not {shown}", top
    if kind in _KINDS or kind.endswith("_type"):
        expected = _expected(info.annotation) if info is not None and len(loc) == 1 else None
        return f"{where} must be {expected or _KINDS.get(kind, kind)}, not {shown}", top
    if kind == "literal_error":
        expected = str((error.get("ctx") or {}).get("expected", ""))
        what = f"hint {top}" if model is HintRequest else top
        return f"unknown {what} {error.get('input')!r}; {what}s: {expected}", top
    if kind in ("string_too_long", "too_long"):
        size = len(error.get("input") or ())
        most = (error.get("ctx") or {}).get("max_length")
        unit = "characters" if kind == "string_too_long" else "items"
        return f"{where} is {size} {unit}; at most {most} are read", top
    if kind == "missing":
        if len(loc) > 1:
            return f"{where} is missing", top
        about = info.description if info is not None else None
        return f"the request has no {where}" + (f" ({about})" if about else ""), top
    return f"{where}: {error['msg']}", top


def _known_fields(model: type[BaseModel], path: list[str]) -> list[str]:
    """The fields of ``model``, or of the model nested at ``path`` in it."""
    for name in path:
        info = model.model_fields.get(name)
        nested = (
            next(
                (a for a in (info.annotation, *getattr(info.annotation, "__args__", ())) if _is_model(a)),
                None,
            )
            if info is not None
            else None
        )
        if nested is None:
            return []
        model = nested
    return list(model.model_fields)


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _expected(annotation: Any) -> str | None:
    text = str(annotation)
    words = []
    for name, word in (
        ("str", "a string"),
        ("dict", "an object"),
        ("list", "a list"),
        ("int", "a whole number"),
    ):
        if name in text:
            words.append(word)
    if "bool" in text:
        return "true or false"
    return " or ".join(dict.fromkeys(words)) or None


def _bounds(annotation: Any, metadata: list[Any]) -> tuple[Any, Any]:
    found: dict[str, Any] = {}
    items = [*metadata, *_nested_metadata(annotation)]
    for item in [*items, *(m for i in items for m in getattr(i, "metadata", ()) or ())]:
        for key in ("ge", "le"):
            if getattr(item, key, None) is not None:
                found.setdefault(key, getattr(item, key))
    return found.get("ge"), found.get("le")


def _nested_metadata(annotation: Any) -> list[Any]:
    out: list[Any] = []
    for arg in getattr(annotation, "__args__", ()) or ():
        out.extend(getattr(arg, "__metadata__", ()) or ())
        out.extend(_nested_metadata(arg))
    for item in getattr(annotation, "__metadata__", ()) or ():
        out.append(item)
    return out


def answer(model: type[Answer], data: Any) -> dict[str, Any]:
    """``data`` checked against ``model``, as JSON data (a mismatch is a bug, not bad input)."""
    result: dict[str, Any] = model.model_validate(data).model_dump(mode="json", by_alias=True)
    return result
