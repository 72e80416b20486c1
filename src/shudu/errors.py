"""One exception family for everything shudu rejects.

Every error carries its details as attributes (``line``, ``cell``, ``house`` …) so that a
caller can point at the exact spot, and a message that already says it in words.
"""

from __future__ import annotations


class ShuduError(ValueError):
    """Base class of every error shudu raises on bad input or requests."""

    #: 1-based input line number, when the input came from a file or stdin.
    line: int | None = None

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    def at_line(self, line: int) -> ShuduError:
        """Attach an input line number (kept if one is already set) and return self."""
        if self.line is None:
            self.line = line
        return self

    def __str__(self) -> str:
        if self.line is not None:
            return f"line {self.line}: {self.message}"
        return self.message


class ParseError(ShuduError):
    """Text that is not a puzzle: wrong length, an unknown character, bad JSON …"""

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        char: str | None = None,
    ) -> None:
        super().__init__(message, line=line)
        #: 1-based position in the text where the problem is, when there is one.
        self.column = column
        #: The offending character, when there is one.
        self.char = char


class EmptyInputError(ParseError):
    """A file or stream that holds no puzzle at all."""


class ShapeError(ShuduError):
    """A grid size or box shape that shudu cannot build (boxes that do not tile the grid …)."""


class VariantError(ShuduError):
    """An unknown variant name or malformed regions."""


class ConflictError(ShuduError):
    """Two givens with the same digit in one house, or in cells a variant keeps apart."""

    def __init__(
        self,
        message: str,
        *,
        cells: tuple[str, str],
        digit: int,
        house: str,
        line: int | None = None,
    ) -> None:
        super().__init__(message, line=line)
        #: The two cells, as ``r1c2`` names.
        self.cells = cells
        #: The digit both hold.
        self.digit = digit
        #: The house (``row 1``, ``box 3``, ``diagonal 1``, ``anti-knight`` …) they share.
        self.house = house


class SolverError(ShuduError):
    """An unknown algorithm, or one that cannot handle the puzzle's rules."""


class SearchTimeout(ShuduError):
    """A search ran past its node limit or deadline before finishing."""

    def __init__(self, message: str = "search budget exhausted", *, found: int = 0) -> None:
        super().__init__(message)
        #: Solutions found before the budget ran out.
        self.found = found


class StoreError(ShuduError):
    """A saved game or bank puzzle that is missing, or a database shudu cannot use."""


class GeneratorError(ShuduError):
    """A generator request that cannot be met (too few clues, a level a size never reaches …),
    or one whose search ran out of time: ``found`` holds what it made before then."""

    def __init__(self, message: str, *, found: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        #: The puzzles made before the time ran out (for a timeout), else empty.
        self.found = found
