"""The puzzles of a batch job, streamed: a file, stdin, or every file of a folder, in name order."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import EmptyInputError, ParseError, ShuduError
from ..formats import DECORATION, decode_line, read_puzzles
from ..geometry import Box
from ..puzzle import size_from_cells
from ..variants import VariantLike
from .tasks import Item


def input_files(path: str) -> list[Path] | None:
    """The files of a folder input, in name order (hidden files left out); None for a file."""
    folder = Path(path)
    if path == "-" or not folder.is_dir():
        return None
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))


def read_items(
    path: str, *, box: Box | str | None = None, variant: VariantLike = None, defer: bool = True
) -> Iterator[Item]:
    """Each puzzle of the input with its line (and file, for a folder), read line by line as
    bytes so that a bad line is an error of that line alone.

    With ``defer``, an input of one puzzle a line is only split into lines here: each puzzle is
    parsed where its chunk is worked on (:func:`~shudu.batch.tasks.parsed`), so a pool or a
    cluster parses in parallel rather than in this process. Grid blocks are parsed here.
    """
    files = input_files(path)
    if files is None:
        if path == "-":
            if sys.stdin is None:  # started with descriptor 0 closed (`<&-`)
                raise ShuduError("cannot read standard input (-i -): it is closed")
            try:
                yield from _read_stream(sys.stdin.buffer, None, box, variant, defer)
            except OSError as exc:
                raise ShuduError(f"cannot read standard input (-i -): {exc.strerror}") from None
            return
        yield from _read_file(Path(path), None, box, variant, defer)
        return
    found = False
    for file in files:
        try:
            for item in _read_file(file, str(file.relative_to(path)), box, variant, defer):
                found = True
                yield item
        except EmptyInputError:
            continue  # a file of comments in a folder is no error; an empty folder is
    if not found:
        raise EmptyInputError(f"the folder {path} holds no puzzle")


def _read_file(
    file: Path, name: str | None, box: Box | str | None, variant: VariantLike, defer: bool
) -> Iterator[Item]:
    try:
        with open(file, "rb") as stream:
            yield from _read_stream(stream, name, box, variant, defer)
    except OSError as exc:
        raise ShuduError(f"cannot read {file}: {exc.strerror}") from None


def _read_stream(
    stream: Iterable[bytes], name: str | None, box: Box | str | None, variant: VariantLike, defer: bool
) -> Iterator[Item]:
    lines = iter(stream)
    head: list[bytes] = []
    first = None
    if defer:
        for raw in lines:
            head.append(raw)
            text, error = decode_line(raw, len(head))
            content = (text.removeprefix("\ufeff") if len(head) == 1 else text).strip()
            if content and not content.startswith("#") and error is None:
                first = content
                break
    if first is None or not _is_one_line(first):
        # grid blocks (or no puzzle at all): the whole reader's rules, parsed here
        for entry in read_puzzles(itertools.chain(head, lines), box=box, variant=variant):
            yield _item(entry, name)
        return
    for number, raw in enumerate(itertools.chain(head, lines), start=1):
        text, error = decode_line(raw, number)
        if number == 1:
            text = text.removeprefix("\ufeff")
        content = text.rstrip("\r\n").strip()
        if not content or content.startswith("#"):
            continue
        yield Item(number, content, None, None if error is None else error.message, name, parsed=False)


def _is_one_line(content: str) -> bool:
    """Whether a first puzzle line surely makes a file of one puzzle a line, as
    :func:`~shudu.formats.read_puzzles` reads it: JSON, or a whole grid without decoration."""
    if content.startswith("{"):
        return True
    if any(c in content for c in DECORATION):
        return False
    try:
        size_from_cells(len(content))
    except ParseError:
        return False
    return True


def _item(entry: object, file: str | None) -> Item:
    from ..formats import Entry

    assert isinstance(entry, Entry)
    error = None if entry.error is None else entry.error.message
    return Item(entry.line, entry.text, entry.puzzle, error, file)


def count_lines(path: str) -> int | None:
    """An estimate of the number of puzzles (non-blank lines) for the progress bar; None for stdin."""
    files = input_files(path)
    if path == "-":
        return None
    total = 0
    try:
        for file in files if files is not None else [Path(path)]:
            with open(file, "rb") as stream:
                total += sum(1 for line in stream if line.strip() and not line.lstrip().startswith(b"#"))
    except OSError:
        return None
    return total
