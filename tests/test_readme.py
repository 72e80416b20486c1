"""The README's examples run as written, so that they cannot rot.

Every fenced Python block runs top to bottom; a line that is an expression followed by a comment
holding a Python literal (``shudu.count("." * 16)  # 288``) must give that value. The quick shell
examples of the "Use it" block run through the command line's ``main()``, and a number in their
comment must be what they print.
"""

from __future__ import annotations

import ast
import io
import re
import shlex
from pathlib import Path

import pytest

from shudu.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")


def fenced(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", TEXT, flags=re.MULTILINE | re.DOTALL)


def claimed_value(line: str) -> tuple[str, object] | None:
    """(expression, value) when a line is an expression whose comment is a Python literal."""
    code, sep, comment = line.partition("  # ")
    if not sep:
        return None
    try:
        value = ast.literal_eval(comment.strip())
        tree = ast.parse(code)
    except (ValueError, SyntaxError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None
    return code, value


def test_the_readme_has_python_examples() -> None:
    assert fenced("python")


@pytest.mark.parametrize("block", fenced("python"), ids=lambda b: b.splitlines()[0][:40])
def test_python_examples_run_as_written(block: str) -> None:
    namespace: dict[str, object] = {}
    checked = 0
    for number, line in enumerate(block.splitlines(), start=1):
        claim = claimed_value(line)
        if claim is None:
            exec(compile(line, f"README.md block line {number}", "exec"), namespace)
            continue
        code, value = claim
        got = eval(compile(code, f"README.md block line {number}", "eval"), namespace)
        assert got == value, f"README line {line!r} gives {got!r}"
        checked += 1
    assert checked, "no line of the example states its result"


def use_it_commands() -> list[tuple[list[str], str]]:
    """(arguments, comment) of the "Use it" shell lines that are quick and touch nothing."""
    block = next(b for b in fenced("") if b.lstrip().startswith("shudu solve PUZZLE"))
    quick = {"count", "variants", "algorithms", "--version"}
    found = []
    for line in block.splitlines():
        command, _, comment = line.partition("#")
        for part in command.split(" / "):
            words = shlex.split(part)
            if words[:1] != ["shudu"] or words[1] not in quick:
                continue
            if any(w.isupper() or "|" in w for w in words):  # a placeholder such as PUZZLE
                continue
            found.append((words[1:], comment.strip()))
    return found


def test_the_use_it_block_has_quick_commands() -> None:
    assert {args[0] for args, _ in use_it_commands()} >= {"count", "variants", "--version"}


@pytest.mark.parametrize(
    ("args", "comment"), use_it_commands(), ids=lambda v: " ".join(v) if isinstance(v, list) else ""
)
def test_shell_examples_run(args: list[str], comment: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(args, stdout=out, stderr=err) == 0, err.getvalue()
    assert out.getvalue() and not err.getvalue()
    if comment.isdigit():
        assert out.getvalue() == f"{comment}\n"
