"""One exception family for everything shudu rejects.

Every error carries its details as attributes (``line``, ``cell``, ``house`` …) so that a
caller can point at the exact spot, and a message that already says it in words.
"""

from __future__ import annotations

import numbers
from typing import Final

from .notation import MAX_SIZE, MIN_SIZE


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


class OptionError(ShuduError):
    """A numeric option or argument outside its range: a limit, a timeout, a count, a size …

    The message names the option (``--limit`` on the command line, ``limit`` in Python), the
    range it accepts and the value given, e.g. ``--limit must be a whole number from 1 to
    9223372036854775807, not '0'``.
    """

    def __init__(self, message: str, *, option: str, value: object = None) -> None:
        super().__init__(message)
        #: The option as the caller spelled it: ``--node-limit`` or ``node_limit``.
        self.option = option
        #: The value that was refused (the text given, on the command line).
        self.value = value


class SizeError(OptionError, ShapeError):
    """A grid size outside 4 to 25 (or not a whole number): an :class:`OptionError` naming the
    option (``size``, ``--size``, ``"size"`` in JSON) and a :class:`ShapeError` both, raised the
    same by every entry point (:func:`check_size`)."""


#: The largest count, limit or node budget shudu accepts: the engines count in signed 64 bits.
MAX_COUNT: Final = 2**63 - 1

#: The longest time limit shudu accepts, in seconds (about 31 years): far beyond any real use,
#: and within what every clock and wait of the platform can hold.
MAX_SECONDS: Final = 1e9


def check_seconds(value: object, option: str) -> float | None:
    """A time limit in seconds, checked: None (no limit) passes; else a real number greater
    than 0 and at most :data:`MAX_SECONDS`, returned as a float.

    Zero is refused rather than read as "no time at all": whether a search that has no time
    finds an easy answer first would depend on when it looks at the clock. Infinity and NaN are
    refused too (leave the option out for no limit), and so are bools and text.
    Raises :class:`OptionError` naming ``option``.
    """
    if value is None:
        return None
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        seconds = float(value)
        if 0.0 < seconds <= MAX_SECONDS:
            return seconds
    raise OptionError(
        f"{option} must be a number of seconds greater than 0 and at most {MAX_SECONDS:.0f}, not {value!r}",
        option=option,
        value=value,
    )


def check_count(value: object, option: str, *, minimum: int = 0, maximum: int | None = None) -> int | None:
    """A whole number, checked: None passes; else an int (not a bool, not a float) from
    ``minimum`` to ``maximum`` (None: :data:`MAX_COUNT`, the largest the engines take).

    Raises :class:`OptionError` naming ``option`` and the range.
    """
    if value is None:
        return None
    top = MAX_COUNT if maximum is None else maximum
    if isinstance(value, int) and not isinstance(value, bool) and minimum <= value <= top:
        return int(value)
    raise OptionError(
        f"{option} must be a whole number from {minimum} to {top}, not {_shown(value)}",
        option=option,
        value=value,
    )


def check_size(value: object, option: str = "size") -> int:
    """A grid size, checked: a whole number (an int, not a bool) from 4 to 25.

    The one check of a size given as such (``generate(size)``, ``Geometry(size)``, ``"size"`` in
    JSON); raises :class:`SizeError` naming ``option``, as :func:`check_count` words it.
    """
    if type(value) is int and MIN_SIZE <= value <= MAX_SIZE:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and MIN_SIZE <= value <= MAX_SIZE:
        return int(value)
    raise SizeError(
        f"{option} must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {_shown(value)}",
        option=option,
        value=value,
    )


def shown(value: object) -> str:
    """A refused value as a message shows it: short, and never too long to print (a number of
    thousands of digits is described, not converted; a list shows its first items)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, tuple | list) and any(isinstance(v, int | tuple | list) for v in value):
        items = [shown(v) for v in value[:4]] + (["..."] if len(value) > 4 else [])
        text = ", ".join(items)
        return f"[{text}]" if isinstance(value, list) else f"({text}{',' if len(value) == 1 else ''})"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_shown = shown


class ShuduWarning(UserWarning):
    """Base class of the warnings shudu gives."""


class PerformanceWarning(ShuduWarning):
    """shudu runs much slower than it could: the pure-Python engine stands in for a C core
    that is not built."""
