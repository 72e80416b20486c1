"""A generator request, checked up front: what can never be made fails at once, with a reason.

:class:`Request` is what a caller asks for, as given; :func:`build` checks it and resolves it
into a :class:`Plan`, what the search works from.

The bounds used here are proven facts, never guesses, so a request they let through may still
be hard to meet (the search then runs until its timeout):

- no puzzle with fewer than ``n - 1`` different digits among its givens is unique (swap two
  missing digits in a solution: another solution), so fewer than ``n - 1`` givens never are;
- the smallest unique puzzles of the standard shapes are known: 4 givens on 4x4, 8 on 6x6
  (boxes 2x3), 17 on 9x9 (McGuire, Tugemann and Civario's exhaustive search, 2012);
- every minimal puzzle of the standard 4x4 grid has 4 to 6 givens and is rated *easy* (SE 1.2):
  counted here by rating all 588 minimal puzzles of the two essentially different 4x4 grids.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from ..errors import GeneratorError, check_size
from ..geometry import Box, BoxLike, Geometry, check_variant, default_box, resolve_box, resolve_rules
from ..notation import LEVELS
from ..variants import Variant, VariantLike
from .symmetry import check_symmetry, orbits
from .target import Target, parse_range

#: Fewest givens of a unique puzzle, for the standard shapes where it is known.
KNOWN_MIN_CLUES: dict[tuple[int, Box], int] = {
    (4, (2, 2)): 4,
    (6, (2, 3)): 8,
    (6, (3, 2)): 8,
    (9, (3, 3)): 17,
}


class RequestFields(TypedDict, total=False):
    """The fields of a :class:`Request` as keywords of :func:`~shudu.generate` and its kin."""

    size: int | None
    box: BoxLike
    variant: VariantLike
    layout: Any
    level: str | None
    se: float | str | tuple[float, float] | None
    technique: str | None
    symmetry: str
    clues: int | str | tuple[int, int] | None
    minimal: bool
    rate: bool | None
    rules: str | None
    cages: int | str | tuple[int, int] | None


#: The constraint rules the generator makes puzzles of (``rules=``).
RULE_SETS = ("killer", "thermo", "arrow", "kropki", "little-killer", "sandwich", "mixed")
#: The cage sizes of a killer puzzle when ``cages`` is not given: 2 to 5 cells.
DEFAULT_CAGES = (2, 5)
#: The largest killer grid the generator makes (each merge is proven unique by the constraint
#: engine, whose search grows fast with the size).
MAX_RULES_SIZE = 9


@dataclass(frozen=True)
class Request:
    """What the generator is asked for, as given (checked by :func:`build`); the fields are the
    keywords of :func:`~shudu.generate`, which describes them."""

    size: int | None = None
    box: BoxLike = None
    variant: VariantLike = None
    layout: Any = None
    level: str | None = None
    se: float | str | tuple[float, float] | None = None
    technique: str | None = None
    symmetry: str = "none"
    clues: int | str | tuple[int, int] | None = None
    minimal: bool = False
    rate: bool | None = None
    rules: str | None = None
    cages: int | str | tuple[int, int] | None = None

    @classmethod
    def of(cls, request: Request | int | None, fields: RequestFields) -> Request:
        """The request of a call: a Request (keywords replace its fields), or a size and keywords."""
        if isinstance(request, Request):
            return dataclasses.replace(request, **fields)
        if request is not None and "size" in fields:
            raise TypeError("the size is given twice: as the first argument and as size=")
        return dataclasses.replace(cls(size=request), **fields)


@dataclass(frozen=True)
class Plan:
    """A request checked and resolved: everything one run of the generator works from."""

    size: int
    box: Box | None
    #: The variant's rules; for a random jigsaw, those besides the layout.
    variant: Variant
    #: Draw a new jigsaw layout for every puzzle.
    random_layout: bool
    target: Target
    symmetry: str
    clues: tuple[int, int] | None
    minimal: bool
    rate: bool
    #: The constraint rules to make (one of :data:`RULE_SETS`), or None for a classic puzzle.
    rules: str | None = None
    #: Killer: the fewest and most cells of a cage.
    cages: tuple[int, int] | None = None

    @property
    def geometry(self) -> Geometry | None:
        """The fixed geometry, or None when each puzzle draws its own jigsaw layout."""
        if self.random_layout:
            return None
        return Geometry(self.size, self.box, self.variant)

    def describe(self) -> str:
        """The request in words: ``hard 9x9 x puzzle with 24-26 givens, rot180``."""
        name = self.variant.name if self.rules is None else self.rules
        if self.random_layout:
            name = "jigsaw" if self.variant.is_standard else f"{name}+jigsaw"
        text = f"{self.target.describe()} {self.size}x{self.size} {name} puzzle"
        if self.clues is not None:
            low, high = self.clues
            text += f" with {low if low == high else f'{low}-{high}'} givens"
        if self.minimal:
            text += ", minimal"
        if self.cages is not None and self.cages != default_cages(self.size):
            text += f", cages of {_range(self.cages)} cells"
        if self.symmetry != "none":
            text += f", {self.symmetry}"
        return text


def build(request: Request) -> Plan:
    """Check every option and combination that can be checked before searching.

    The arguments themselves first: a wrong type is a :class:`TypeError`, a size outside 4 to 25
    a :class:`~shudu.errors.SizeError`, a bad box or variant their own error."""
    size, box, variant, layout = request.size, request.box, request.variant, request.layout
    level, technique, symmetry, minimal, rate = (
        request.level,
        request.technique,
        request.symmetry,
        request.minimal,
        request.rate,
    )
    _check_types(level=level, technique=technique, symmetry=symmetry, minimal=minimal, rate=rate)
    if request.rules is not None and not isinstance(request.rules, str):
        raise TypeError(f"rules must be a name (str) or None, not {type(request.rules).__name__}")
    if size is None and isinstance(variant, Variant) and variant.size is not None:
        size = variant.size
    size = check_size(9 if size is None else size)
    box = resolve_box(box)
    check_variant(variant)
    variant, random_layout = _without_random_jigsaw(variant, layout)
    if layout is not None and not isinstance(variant, Variant):
        # a layout given beside the variant joins its JSON fields
        fields: dict[str, Any] = (
            dict(variant) if isinstance(variant, Mapping) else {"variant": variant or "standard"}
        )
        fields["layout"] = list(layout) if isinstance(layout, tuple) else layout
        variant = fields
    resolved = resolve_rules(variant, size)
    rules = _check_rules(request, resolved, random_layout, size)
    if rules is None:
        resolved.refuse_rules("the generator")
    if random_layout or resolved.layout is not None:
        box = None
    elif box is None:
        box = default_box(size)
    plan = Plan(
        size=size,
        box=box,
        variant=resolved,
        random_layout=random_layout,
        target=Target.of(level, request.se, technique),
        symmetry=check_symmetry(symmetry),
        clues=parse_range(request.clues, "clues", int) or ((0, 0) if rules == "killer" else None),
        minimal=minimal,
        rate=bool(rate) if rate is not None else False,
        rules=rules,
        cages=_cage_sizes(request.cages, size) if rules == "killer" else None,
    )
    if not random_layout:
        plan.geometry  # noqa: B018 - builds the geometry, raising on a bad shape
    _check_feasible(plan)
    return plan


def _check_rules(request: Request, variant: Variant, random_layout: bool, size: int) -> str | None:
    """The rule set asked for (None: a classic puzzle), checked against the other options."""
    if request.rules is None:
        if request.cages is not None:
            raise GeneratorError('cages= sets the cage sizes of a killer puzzle: give rules="killer" too')
        return None
    name = request.rules.strip().lower().replace(" ", "-")
    if name not in RULE_SETS:
        raise GeneratorError(
            f"the generator does not make {request.rules!r} puzzles; rules it makes: {', '.join(RULE_SETS)}"
        )
    if variant.rules:
        raise GeneratorError(f"rules={name!r} draws its own rules: give no rules in the variant beside it")
    if not variant.is_standard or random_layout:
        raise GeneratorError(
            f"{name} puzzles are made on the standard grid only, not with variant {variant.name!r}"
        )
    if size > MAX_RULES_SIZE:
        raise GeneratorError(
            f"{name} puzzles are made up to {MAX_RULES_SIZE}x{MAX_RULES_SIZE}, not {size}x{size}"
        )
    if request.box is None:
        default_box(size)  # a prime size has no boxes: ShapeError, naming the jigsaw layout instead
    if name == "killer" and request.minimal:
        raise GeneratorError(
            "minimal= is for puzzles whose givens are dug; a killer puzzle's givens are set by "
            "clues= (0 by default)"
        )
    if name != "killer" and request.cages is not None:
        raise GeneratorError(f"cages= sets the cage sizes of a killer puzzle, not of a {name} puzzle")
    return name


def default_cages(size: int) -> tuple[int, int]:
    """The cage sizes of a killer puzzle of ``size`` when none are asked: 2 to 5 cells, at most
    the size."""
    return DEFAULT_CAGES[0], min(DEFAULT_CAGES[1], size)


def _cage_sizes(value: Any, size: int) -> tuple[int, int]:
    if value is None:
        return default_cages(size)
    sizes = parse_range(value, "cages", int)
    assert sizes is not None
    low, high = sizes
    if low < 1 or high > size:
        raise GeneratorError(f"a killer cage on {size}x{size} holds 1 to {size} cells, not {_range(sizes)}")
    if high < 2:
        raise GeneratorError("cages of one cell are givens: let cages hold up to 2 cells or more")
    return min(low, size), high


def _check_types(**options: object) -> None:
    """Refuse an option of the wrong Python type (a programmer's error) with a TypeError."""
    for name in ("level", "technique"):
        value = options[name]
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a name (str) or None, not {type(value).__name__}")
    if not isinstance(options["symmetry"], str):
        raise TypeError(f"symmetry must be a name (str), not {type(options['symmetry']).__name__}")
    if not isinstance(options["minimal"], bool):
        raise TypeError(f"minimal must be True or False, not {type(options['minimal']).__name__}")
    if options["rate"] is not None and not isinstance(options["rate"], bool):
        raise TypeError(f"rate must be True, False or None, not {type(options['rate']).__name__}")


def _without_random_jigsaw(variant: VariantLike, layout: Any) -> tuple[VariantLike, bool]:
    """The variant argument less a ``jigsaw`` part that has no layout, and whether it had one
    (then every puzzle draws its own random layout)."""
    if isinstance(variant, Variant) or layout is not None:
        return variant, False
    fields = dict(variant) if isinstance(variant, Mapping) else {"variant": variant or "standard"}
    if "layout" in fields or not isinstance(fields.get("variant", "standard"), str):
        return variant, False
    parts = [p.strip() for p in str(fields.get("variant", "standard")).lower().split("+")]
    if "jigsaw" not in parts:
        return variant, False
    fields["variant"] = "+".join(p for p in parts if p != "jigsaw") or "standard"
    return (fields if isinstance(variant, Mapping) else fields["variant"]), True


def _check_feasible(request: Plan) -> None:
    n, cells = request.size, request.size * request.size
    standard = request.variant.is_standard and not request.random_layout and request.rules is None
    if request.clues is not None:
        low, high = request.clues
        if low > cells:
            raise GeneratorError(f"a {n}x{n} puzzle has {cells} cells; it cannot hold {low} givens")
        fewest = n - 1 if request.rules is None else 0  # the rules may take the givens' place
        why = f"a unique {n}x{n} puzzle needs at least {n - 1} givens (at least {n - 1} different digits)"
        known = KNOWN_MIN_CLUES.get((n, request.box)) if standard and request.box else None
        if known is not None:
            fewest = known
            why = f"no {n}x{n} puzzle with fewer than {known} givens has a unique solution"
        if high < fewest:
            raise GeneratorError(f"cannot make a {n}x{n} puzzle with {_range(request.clues)} givens: {why}")
        if request.minimal and standard and request.box == (2, 2) and low > 6:
            raise GeneratorError("every minimal 4x4 puzzle has 4 to 6 givens")
        if request.minimal and low == cells:
            raise GeneratorError(f"a full {n}x{n} grid is never minimal (any given could go)")
    if request.rules == "killer" and request.clues is not None:
        _check_orbit_counts(request)
    target = request.target
    if standard and request.box == (2, 2):
        if (target.level is not None and target.level != "easy") or target.min_level > 0:
            wanted = target.level or target.technique
            raise GeneratorError(
                f"no {n}x{n} puzzle is {wanted}: every 4x4 puzzle is solved with singles (level easy)"
            )
        if target.se is not None and target.se[0] > 2.0:
            raise GeneratorError("no 4x4 puzzle rates above SE 2.0: singles solve every one")
    if target.se is not None and target.level == "easy" and target.se[0] > 2.3:
        # singles stay available to the end once they solve a puzzle, so SE takes no harder step
        raise GeneratorError(
            f"an easy puzzle needs only singles (SE 2.3 at most); SE {_range(target.se)} never is easy"
        )
    assert target.level is None or target.level in LEVELS


def _check_orbit_counts(request: Plan) -> None:
    """A killer's givens are whole orbits of the symmetry: refuse a count no set of them makes."""
    assert request.clues is not None
    sizes = [len(orbit) for orbit in orbits(request.symmetry, request.size)]
    reachable = 1  # bit k: k givens can be placed
    for size in sizes:
        reachable |= reachable << size
    low, high = request.clues
    if not any(reachable >> k & 1 for k in range(low, high + 1)):
        kinds = ", ".join(str(k) for k in sorted(set(sizes)))
        raise GeneratorError(
            f"with symmetry {request.symmetry} the givens come in orbits of {kinds} cells: "
            f"no set of them makes {_range(request.clues)} givens"
        )


def _range(pair: tuple[Any, Any]) -> str:
    low, high = pair
    return str(low) if low == high else f"{low}-{high}"
