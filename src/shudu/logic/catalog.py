"""The catalog of techniques: every technique shudu knows by name, with its codes and ratings.

This module declares techniques; it finds nothing (the finders are listed, in solving order, in
:mod:`shudu.logic.table`). Each :class:`Technique` row holds

- ``name``: shudu's name (the one a :class:`~shudu.logic.engine.step.Step` shows), ``hodoku``: HoDoKu's
  name, ``codes``: HoDoKu's four-digit codes (those of its regression library);
- ``level`` and ``score``: HoDoKu's level and points; ``se``: the rating on Sudoku Explainer's scale
  (for a chain or net the rating of its shortest form; techniques Sudoku Explainer does not know are
  rated as the chains that express them, and have ``se_known`` false);
- ``uniqueness``: whether it assumes the puzzle has one solution;
- ``forms``: the named forms a finder may report ("Sashimi X-Wing", "Unique Rectangle Type 3
  (pair)", "Forcing Chain (cell)"), each with its own codes and ratings where they differ.

Names are looked up in :mod:`shudu.logic.naming`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ..notation import LEVELS, Level

#: The highest score of each level but the last (HoDoKu's thresholds).
LEVEL_MAX_SCORE: dict[Level, int] = {"easy": 800, "medium": 1000, "hard": 1600, "unfair": 1800}


@dataclass(frozen=True)
class Form:
    """A named form of a technique; None ratings are the technique's."""

    name: str
    hodoku: str = ""
    codes: tuple[str, ...] = ()
    level: Level | None = None
    score: int | None = None
    se: float | None = None
    #: Other exact names finders may use for this form.
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Technique:
    """One technique: its names, HoDoKu codes, ratings and named forms."""

    name: str
    hodoku: str
    codes: tuple[str, ...]
    level: Level
    score: int
    se: float
    #: Assumes a unique solution: used only when the puzzle is known to have one.
    uniqueness: bool = False
    #: Sudoku Explainer has it (else its Sudoku Explainer-order path leaves it out).
    se_known: bool = True
    forms: tuple[Form, ...] = field(default=(), repr=False)
    aliases: tuple[str, ...] = field(default=(), repr=False)

    def __str__(self) -> str:
        return self.name

    def form(self, name: str) -> Form | None:
        """The form called ``name`` (exactly; its aliases too); None for the technique's own name."""
        for form in self.forms:
            if name == form.name or name in form.aliases:
                return form
        return None

    def rating(self, name: str = "") -> tuple[Level, int, float]:
        """(HoDoKu level, HoDoKu score, Sudoku Explainer base rating) of the form ``name``."""
        form = self.form(name) if name and name != self.name else None
        if form is None:
            return self.level, self.score, self.se
        return (
            form.level or self.level,
            self.score if form.score is None else form.score,
            self.se if form.se is None else form.se,
        )

    def codes_of(self, name: str = "") -> tuple[str, ...]:
        """HoDoKu's codes for the form ``name`` (the technique's own for its name)."""
        form = self.form(name) if name and name != self.name else None
        return self.codes if form is None else (form.codes or self.codes)

    @property
    def names(self) -> tuple[str, ...]:
        """Every exact name of the technique and its forms."""
        out = [self.name, *self.aliases]
        for form in self.forms:
            out += [form.name, *form.aliases]
        return tuple(out)


def _f(
    name: str,
    hodoku: str = "",
    codes: tuple[str, ...] = (),
    level: Level | None = None,
    score: int | None = None,
    se: float | None = None,
    aliases: tuple[str, ...] = (),
) -> Form:
    return Form(name, hodoku, codes, level, score, se, aliases)


#: The names of fish by size (their base houses), 2 to 7 as in HoDoKu; the finders search sizes
#: 2 to 4.
FISH_NAMES: dict[int, str] = {
    2: "X-Wing",
    3: "Swordfish",
    4: "Jellyfish",
    5: "Squirmbag",
    6: "Whale",
    7: "Leviathan",
}


def fish_name(form: str, size: int, *, finned: bool) -> str:
    """The technique name of a fish: its form ("Basic", "Franken", "Mutant"), size and fins."""
    kind = "" if form == "Basic" else f"{form} "
    return f"{'Finned ' if finned else ''}{kind}{FISH_NAMES[size]}"


def _fish_rows() -> Iterator[Technique]:
    """Basic, finned, sashimi, Franken, Mutant and Siamese fish of sizes 2 to 7 (HoDoKu's range),
    then Kraken fish."""
    yield from _basic_fish_rows()
    yield from _franken_rows()
    yield from _mutant_rows()
    yield Technique(
        "Kraken Fish",
        "Kraken Fish",
        ("0371", "0372"),
        "extreme",
        500,
        8.0,
        se_known=False,
        forms=(
            _f("Kraken Fish Type 1", "Kraken Fish Type 1", ("0371",)),
            _f("Kraken Fish Type 2", "Kraken Fish Type 2", ("0372",)),
        ),
    )


def _basic_fish_rows() -> Iterator[Technique]:
    """Basic fish, plain and finned (with their sashimi and Siamese forms)."""
    basic_score = {2: 140, 3: 150, 4: 160}
    basic_se = {2: 3.2, 3: 3.8, 4: 5.2}
    finned_score: dict[int, tuple[Level, int, int]] = {
        2: ("hard", 130, 150),
        3: ("unfair", 200, 240),
        4: ("unfair", 250, 260),
    }
    for k, fish in FISH_NAMES.items():
        i = k - 2
        big = k > 4
        yield Technique(
            fish,
            fish,
            (f"030{i}",),
            "extreme" if big else "hard",
            470 if big else basic_score[k],
            5.4 if big else basic_se[k],
            se_known=not big,
        )
        level, finned, sashimi = finned_score.get(k, ("extreme", 470, 470))
        yield Technique(
            f"Finned {fish}",
            f"Finned {fish}",
            (f"031{i}",),
            level,
            finned,
            6.6,
            se_known=not big,
            forms=(
                _f(f"Sashimi {fish}", f"Sashimi {fish}", (f"032{i}",), score=sashimi),
                _f(f"Siamese Finned {fish}", f"Siamese Finned {fish}", (f"031{i}1",)),
                _f(f"Siamese Sashimi {fish}", f"Siamese Sashimi {fish}", (f"032{i}1",), score=sashimi),
            ),
        )


def _franken_rows() -> Iterator[Technique]:
    """Franken fish, plain and finned (with their sashimi and Siamese forms)."""
    franken_score = {2: 300, 3: 350, 4: 370}
    franken_finned = {2: 390, 3: 410, 4: 430}
    for k, fish in FISH_NAMES.items():
        i = k - 2
        big = k > 4
        yield Technique(
            f"Franken {fish}",
            f"Franken {fish}",
            (f"033{i}",),
            "extreme" if big else "unfair",
            470 if big else franken_score[k],
            6.6,
            se_known=False,
        )
        yield Technique(
            f"Finned Franken {fish}",
            f"Finned Franken {fish}",
            (f"034{i}",),
            "extreme" if big else "unfair",
            470 if big else franken_finned[k],
            6.6,
            se_known=False,
            forms=(
                _f(f"Sashimi Franken {fish}", f"Finned Franken {fish}"),
                _f(f"Siamese Finned Franken {fish}", f"Siamese Finned Franken {fish}", (f"034{i}1",)),
            ),
        )


def _mutant_rows() -> Iterator[Technique]:
    """Mutant fish, plain and finned (with their sashimi and Siamese forms)."""
    for k, fish in FISH_NAMES.items():
        i = k - 2
        yield Technique(f"Mutant {fish}", f"Mutant {fish}", (f"035{i}",), "extreme", 450, 7.0, se_known=False)
        yield Technique(
            f"Finned Mutant {fish}",
            f"Finned Mutant {fish}",
            (f"036{i}",),
            "extreme",
            470,
            7.0,
            se_known=False,
            forms=(
                _f(f"Sashimi Mutant {fish}", f"Finned Mutant {fish}"),
                _f(f"Siamese Finned Mutant {fish}", f"Siamese Finned Mutant {fish}", (f"036{i}1",)),
            ),
        )


def _forcing(
    name: str,
    first: str,
    score: int,
    se: float,
    *,
    short: str,
    verity: float | None = None,
    more: tuple[Form, ...] = (),
) -> Technique:
    """Forcing chains or nets: contradiction and verity (cell or house), HoDoKu's codes, and
    ``more`` forms. ``verity`` rates the verities where it differs from ``se`` + 0.2."""
    rated = round(se + 0.2, 1) if verity is None else verity
    return Technique(
        name,
        name,
        (first, f"{int(first) + 1:04d}"),
        "extreme",
        score,
        se,
        forms=(
            _f(
                f"{name} Contradiction",
                f"{name} Contradiction",
                (first,),
                se=se,
                aliases=(f"{name} (contradiction)",),
            ),
            _f(f"{name} Verity", f"{name} Verity", (f"{int(first) + 1:04d}",), se=rated),
            _f(f"{name} (cell)", f"{name} Verity", (f"{int(first) + 1:04d}",), se=rated),
            _f(f"{name} (house)", f"{name} Verity", (f"{int(first) + 1:04d}",), se=rated),
            *more,
        ),
        aliases=(short,) if short else (),
    )


#: Every technique, HoDoKu's solver's and Sudoku Explainer's, grouped by family.
CATALOG: tuple[Technique, ...] = (
    # singles
    Technique("Full house", "Full House", ("0000",), "easy", 4, 1.0),
    Technique("Naked single", "Naked Single", ("0003",), "easy", 4, 2.3),
    Technique(
        "Hidden single",
        "Hidden Single",
        ("0002",),
        "easy",
        14,
        1.5,
        forms=(_f("Hidden single in box", se=1.2), _f("Hidden single in line", se=1.5)),
    ),
    # intersections and subsets
    Technique(
        "Locked candidates (pointing)",
        "Locked Candidates Type 1 (Pointing)",
        ("0100",),
        "medium",
        50,
        2.6,
        forms=(_f("Direct pointing", se=1.7),),
    ),
    Technique(
        "Locked candidates (claiming)",
        "Locked Candidates Type 2 (Claiming)",
        ("0101",),
        "medium",
        50,
        2.8,
        forms=(_f("Direct claiming", se=1.9),),
    ),
    Technique("Locked pair", "Locked Pair", ("0110",), "medium", 40, 3.0),
    Technique("Locked triple", "Locked Triple", ("0111",), "medium", 60, 3.6),
    Technique("Naked pair", "Naked Pair", ("0200",), "medium", 60, 3.0),
    Technique("Naked triple", "Naked Triple", ("0201",), "medium", 80, 3.6),
    Technique("Naked quad", "Naked Quadruple", ("0202",), "hard", 120, 5.0),
    Technique(
        "Hidden pair",
        "Hidden Pair",
        ("0210",),
        "medium",
        70,
        3.4,
        forms=(_f("Direct hidden pair", se=2.0),),
    ),
    Technique(
        "Hidden triple",
        "Hidden Triple",
        ("0211",),
        "medium",
        100,
        4.0,
        forms=(_f("Direct hidden triple", se=2.5),),
    ),
    Technique("Hidden quad", "Hidden Quadruple", ("0212",), "hard", 150, 5.4),
    # fish
    *_fish_rows(),
    # single-digit patterns
    Technique("Skyscraper", "Skyscraper", ("0400",), "hard", 130, 6.6),
    Technique(
        "2-String Kite",
        "2-String Kite",
        ("0401",),
        "hard",
        150,
        6.6,
        forms=(_f("Dual 2-String Kite", "Dual 2-String Kite", ("0404",)),),
    ),
    Technique(
        "Empty Rectangle",
        "Empty Rectangle",
        ("0402",),
        "hard",
        120,
        6.6,
        forms=(_f("Dual Empty Rectangle", "Dual Empty Rectangle", ("0405",)),),
    ),
    Technique("Turbot Fish", "Turbot Fish", ("0403",), "hard", 120, 6.6),
    # colouring
    Technique(
        "Simple Colors",
        "Simple Colors",
        ("0500", "0501"),
        "hard",
        150,
        6.6,
        forms=(
            _f("Simple Colors Trap", "Simple Colors Trap", ("0500",)),
            _f("Simple Colors Wrap", "Simple Colors Wrap", ("0501",)),
        ),
    ),
    Technique(
        "Multi Colors",
        "Multi Colors",
        ("0502", "0503"),
        "hard",
        200,
        7.0,
        forms=(
            _f("Multi Colors 1", "Multi Colors 1", ("0502",)),
            _f("Multi Colors 2", "Multi Colors 2", ("0503",)),
        ),
    ),
    # uniqueness
    Technique(
        "Unique Rectangle",
        "Uniqueness Test",
        ("0600", "0601", "0602", "0603", "0604", "0605"),
        "hard",
        100,
        4.5,
        uniqueness=True,
        forms=(
            _f("Unique Rectangle Type 1", "Uniqueness Test 1", ("0600",), se=4.5),
            _f("Unique Rectangle Type 2", "Uniqueness Test 2", ("0601",), se=4.6),
            _f("Unique Rectangle Type 3", "Uniqueness Test 3", ("0602",), se=4.6),
            _f("Unique Rectangle Type 3 (pair)", "Uniqueness Test 3", ("0602",), se=4.6),
            _f("Unique Rectangle Type 3 (triple)", "Uniqueness Test 3", ("0602",), se=4.7),
            _f("Unique Rectangle Type 3 (quad)", "Uniqueness Test 3", ("0602",), se=4.8),
            _f("Unique Rectangle Type 4", "Uniqueness Test 4", ("0603",), se=4.5),
            _f("Unique Rectangle Type 5", "Uniqueness Test 5", ("0604",), se=4.6),
            _f("Unique Rectangle Type 6", "Uniqueness Test 6", ("0605",), se=4.6),
        ),
    ),
    Technique(
        "Hidden Rectangle", "Hidden Rectangle", ("0606",), "hard", 100, 4.6, uniqueness=True, se_known=False
    ),
    Technique(
        "Avoidable Rectangle",
        "Avoidable Rectangle",
        ("0607", "0608"),
        "hard",
        100,
        4.5,
        uniqueness=True,
        se_known=False,
        forms=(
            _f("Avoidable Rectangle Type 1", "Avoidable Rectangle Type 1", ("0607",)),
            _f("Avoidable Rectangle Type 2", "Avoidable Rectangle Type 2", ("0608",)),
        ),
    ),
    Technique(
        "Bivalue Universal Grave + 1",
        "Bivalue Universal Grave + 1",
        ("0610",),
        "hard",
        100,
        5.6,
        uniqueness=True,
        aliases=("BUG+1",),
    ),
    # wings
    Technique("XY-Wing", "XY-Wing", ("0800",), "hard", 160, 4.2),
    Technique("XYZ-Wing", "XYZ-Wing", ("0801",), "hard", 180, 4.4),
    Technique("W-Wing", "W-Wing", ("0803",), "hard", 150, 7.0),
    # chains and loops
    Technique("Remote Pair", "Remote Pair", ("0703",), "hard", 110, 6.6, se_known=False),
    Technique("X-Chain", "X-Chain", ("0701",), "unfair", 260, 6.6),
    Technique("XY-Chain", "XY-Chain", ("0702",), "unfair", 260, 6.6),
    Technique(
        "Continuous Nice Loop",
        "Continuous Nice Loop",
        ("0706",),
        "unfair",
        280,
        7.0,
        se_known=False,
        forms=(_f("Continuous Nice Loop (X-Cycle)", se=6.5),),
    ),
    Technique(
        "Discontinuous Nice Loop", "Discontinuous Nice Loop", ("0707",), "unfair", 280, 7.0, se_known=False
    ),
    Technique("AIC", "AIC", ("0708",), "unfair", 280, 7.0),
    Technique(
        "Grouped Chain",
        "Grouped Nice Loop",
        ("0709", "0710", "0711"),
        "unfair",
        300,
        7.0,
        se_known=False,
        forms=(
            _f("Grouped X-Chain", se=6.6),
            _f("Grouped AIC", "Grouped AIC", ("0711",)),
            _f("Grouped Continuous Nice Loop", "Grouped Continuous Nice Loop", ("0709",)),
            _f("Grouped Discontinuous Nice Loop", "Grouped Discontinuous Nice Loop", ("0710",)),
        ),
    ),
    # almost locked sets
    Technique("ALS-XZ", "Almost Locked Set XZ-Rule", ("0901",), "unfair", 300, 7.0, se_known=False),
    Technique("ALS-XY-Wing", "Almost Locked Set XY-Wing", ("0902",), "unfair", 320, 7.0, se_known=False),
    Technique("ALS-XY-Chain", "Almost Locked Set XY-Chain", ("0903",), "unfair", 340, 7.5, se_known=False),
    Technique("Death Blossom", "Death Blossom", ("0904",), "unfair", 360, 8.2, se_known=False),
    Technique("Sue de Coq", "Sue de Coq", ("1101",), "unfair", 250, 7.0, se_known=False),
    # last resorts
    Technique("Template Set", "Template Set", ("1201",), "extreme", 10000, 10.0, se_known=False),
    Technique("Template Delete", "Template Delete", ("1202",), "extreme", 10000, 10.0, se_known=False),
    # Sudoku Explainer rates the forcing chains that follow every single as the grid changes 8.5
    # (its dynamic forcing chains), those over direct links only 8.0 (its multiple forcing
    # chains) and a contradiction that follows the assumed digit alone 7.5 (its Nishio)
    _forcing(
        "Forcing Chain",
        "1301",
        500,
        8.5,
        short="",
        verity=8.5,
        more=(
            _f("Nishio Forcing Chain", se=7.5),
            _f("Cell Forcing Chain", "Forcing Chain Verity", se=8.0),
            _f("House Forcing Chain", "Forcing Chain Verity", se=8.0),
        ),
    ),
    _forcing("Forcing Net", "1303", 700, 9.0, short=""),
    Technique(
        "Nested Forcing Net",
        "",
        (),
        "extreme",
        1000,
        9.5,
        forms=(_f("Nested Forcing Net Contradiction", se=9.5),),
    ),
    Technique("Brute Force", "Brute Force", (), "extreme", 10000, 10.0),
    # constraint rules (docs/rating.md, "Constraint techniques"): no HoDoKu codes; rated beside
    # the classic techniques a player finds as hard
    Technique("Restricted digits", "", (), "easy", 4, 1.0),
    Technique(
        "Pair rule",
        "",
        (),
        "easy",
        8,
        1.8,
        forms=(
            _f("Kropki pair"),
            _f("X/V pair"),
            _f("Whisper pair"),
            _f("Greater-than pair"),
            _f("Negative constraint"),
        ),
    ),
    Technique("Thermometer", "", (), "easy", 8, 1.8, forms=(_f("Slow thermometer"),)),
    # the cage techniques score as singles do: a path takes them once a cage or a house, again as
    # its candidates change, so their number follows the number of cages, not the difficulty
    # (their level and SE rating say how hard they are)
    Technique("Sum combinations", "", (), "easy", 4, 2.0, forms=(_f("Cage combinations"),)),
    Technique("Cage forced digit", "", (), "easy", 4, 2.2),
    Technique(
        "45 rule",
        "",
        (),
        "medium",
        14,
        2.8,
        forms=(_f("45 rule (innies)"), _f("45 rule (outies)")),
    ),
    Technique("Rule contradiction", "", (), "hard", 150, 4.6),
    Technique(
        "Rule Forcing Chain",
        "",
        (),
        "extreme",
        500,
        8.5,
        forms=(
            _f("Rule Forcing Chain (short)", level="unfair", score=300, se=7.5),
            _f("Rule Forcing Chain (cell)", se=8.7),
            _f("Rule Forcing Chain (house)", se=8.7),
        ),
    ),
    Technique(
        "Rule Forcing Net",
        "",
        (),
        "extreme",
        700,
        9.0,
        forms=(_f("Rule Forcing Net (cell)", se=9.2), _f("Rule Forcing Net (house)", se=9.2)),
    ),
)


BY_NAME: dict[str, Technique] = {t.name: t for t in CATALOG}


#: Lengths past which Sudoku Explainer adds 0.1 to a chain's rating (each ×3/2 then ×4/3).
def _length_steps() -> list[int]:
    out, ceiling, odd = [], 4, False
    while ceiling < 10**6:
        out.append(ceiling)
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return out


LENGTH_STEPS = tuple(_length_steps())


def length_bonus(length: int) -> float:
    """The rating added for a chain of ``length`` links: 0.1 per threshold passed."""
    return 0.1 * sum(1 for t in LENGTH_STEPS if length > t)


__all__ = [
    "BY_NAME",
    "CATALOG",
    "FISH_NAMES",
    "LENGTH_STEPS",
    "LEVELS",
    "LEVEL_MAX_SCORE",
    "Form",
    "Technique",
    "fish_name",
    "length_bonus",
]
