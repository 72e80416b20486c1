"""SadMan Software's ``.sdk`` (nine rows of nine, ``#`` metadata lines) and ``.sdm`` (one puzzle a line)."""

from __future__ import annotations

from ..errors import ParseError
from ..puzzle import Puzzle
from .cells import build_board, line_cells, run_cells
from .document import Document, content_lines, require_nine


def parse_sdk(text: str, *, line: int | None = None) -> Document:
    """A SadMan ``.sdk`` puzzle (nine rows, ``.`` empty, ``#A``/``#D``/``#C`` … metadata lines)
    or one ``.sdm`` line."""
    title = ""
    rows: list[tuple[int, str]] = []
    for number, content in content_lines(text):
        if content.startswith("#"):
            if content[:2] in ("#D", "#N") and not title:
                title = content[2:].strip()
            continue
        rows.append((number, content))
    if len(rows) == 1:
        cells = line_cells(rows[0][1], line=line)
    else:
        if len(rows) != 9 or any(len(r) != 9 for _, r in rows):
            bad = next((n for n, r in rows if len(r) != 9), rows[-1][0] if rows else 1)
            raise ParseError("an .sdk puzzle is nine rows of nine cells", line=(line or 1) + bad - 1)
        cells = run_cells("".join(r for _, r in rows), line=line)
    return Document(build_board(Puzzle, cells, None, None, line), title=title)


def format_sdk(doc: Document) -> str:
    require_nine("sdk", doc.puzzle)
    text = doc.puzzle.to_string()
    head = [f"#D{doc.title}"] if doc.title else []
    return "\n".join(head + [text[i : i + 9] for i in range(0, 81, 9)])


def parse_sdm(text: str) -> list[Document]:
    """Every puzzle of a SadMan ``.sdm`` file: one puzzle a line, blank lines and ``#`` lines skipped.

    A bad line raises its error with its line number."""
    docs = []
    for number, content in content_lines(text):
        if not content.startswith("#"):
            docs.append(Document(build_board(Puzzle, line_cells(content, line=number), None, None, number)))
    return docs


def format_sdm(docs: list[Document]) -> str:
    """An ``.sdm`` file: each puzzle's givens on one line (titles, entries and marks are not kept)."""
    for doc in docs:
        require_nine("sdm", doc.puzzle)
    return "\n".join(doc.puzzle.to_string() for doc in docs)
