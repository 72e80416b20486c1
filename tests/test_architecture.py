"""The layers of docs/architecture.md hold: import-linter checks the contracts in pyproject.toml.

grimp, import-linter's graph builder, reads every import statement, those inside functions too,
so a lazy import that climbs a layer or closes a cycle is caught like any other.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from shudu import geometry, variants
from shudu.generator import symmetry
from shudu.geometry import Geometry
from shudu.logic.engine import grid

ROOT = Path(__file__).resolve().parent.parent

#: The contracts of pyproject.toml, by id.
MODEL = ("model", "acyclic")
ALL = (*MODEL, "layers", "techniques", "engine")


def lint_imports(*contracts: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("importlinter", reason="import-linter is not installed (pip install -e '.[test]')")
    args = ["--no-cache", "--no-logo"]
    for contract in contracts:
        args += ["--contract", contract]
    command = (
        "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    )
    return subprocess.run(
        [sys.executable, "-c", command, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_model_is_layered_and_acyclic() -> None:
    """notation < errors < variants < geometry < puzzle < formats, and no package has a cycle."""
    run = lint_imports(*MODEL)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 kept, 0 broken" in run.stdout


def test_every_layer_imports_only_lower_layers() -> None:
    run = lint_imports(*ALL)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(ALL)} kept, 0 broken" in run.stdout


#: The modules at the top of shudu.logic: the catalog and its names, the table of finders and what
#: stands on it (the solving path, the rating, the explanations, the listings). The machinery sits
#: in shudu.logic.engine, the techniques in shudu.logic.techniques.
TOP = {"__init__", "allsteps", "catalog", "explain", "naming", "rating", "solver", "table"}


def test_the_logic_package_keeps_its_three_parts() -> None:
    """A new module of shudu.logic goes in the engine or the techniques, not beside the table."""
    logic = ROOT / "src" / "shudu" / "logic"
    assert {path.stem for path in logic.glob("*.py")} == TOP
    assert {path.name for path in logic.iterdir() if path.is_dir() and path.name != "__pycache__"} == {
        "core",
        "engine",
        "techniques",
    }


def test_the_engine_and_the_techniques_are_under_their_contracts() -> None:
    """The contracts name the packages, so every module added to them is checked."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        contracts = {c["id"]: c for c in tomllib.load(file)["tool"]["importlinter"]["contracts"]}
    assert contracts["techniques"]["source_modules"] == ["shudu.logic.techniques"]
    assert contracts["engine"]["source_modules"] == ["shudu.logic.engine"]
    assert "shudu.logic.techniques" in contracts["engine"]["forbidden_modules"]


def test_the_linter_sees_imports_inside_functions(tmp_path: Path) -> None:
    """A contract that a function-level import breaks is reported broken (the check is not blind)."""
    pytest.importorskip("importlinter", reason="import-linter is not installed")
    package = tmp_path / "layered"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from . import high\n    return high\n")
    (package / "high.py").write_text("from . import low\n")
    config = tmp_path / ".importlinter"
    config.write_text(
        "[importlinter]\nroot_package = layered\n\n"
        "[importlinter:contract:1]\nname = high over low\ntype = layers\nlayers =\n    layered.high\n    layered.low\n"
    )
    command = (
        "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    )
    run = subprocess.run(
        [sys.executable, "-c", command, "--no-cache", "--no-logo", "--config", str(config)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "layered.low is not allowed to import layered.high" in run.stdout


# --- bounded caches --------------------------------------------------------------------------------


def random_layout(size: int, rng: random.Random) -> tuple[int, ...]:
    """A jigsaw layout: every label on ``size`` cells (regions need not be connected)."""
    labels = [label for label in range(size) for _ in range(size)]
    rng.shuffle(labels)
    return tuple(labels)


def test_caches_keyed_by_geometry_stay_bounded() -> None:
    rng = random.Random(12)
    first = None
    for _ in range(2000):
        size = rng.choice((4, 6))
        variant = variants.get("jigsaw", size, layout=random_layout(size, rng))
        geo = Geometry(size, None, variant)
        tables = grid.tables(geo)
        assert tables.house_bits[-1].bit_count() == size
        first = first or (size, variant, geo, tables)
        assert geometry._build.cache_info().currsize <= geometry.CACHE_SIZE
        assert grid.tables.cache_info().currsize <= grid.TABLES_CACHE_SIZE
    assert geometry._build.cache_info().currsize == geometry.CACHE_SIZE
    assert grid.tables.cache_info().currsize == grid.TABLES_CACHE_SIZE
    # a dropped geometry is rebuilt equal to the first one, and so are its tables
    assert first is not None
    size, variant, geo, tables = first
    again = Geometry(size, None, variant)
    assert again == geo and hash(again) == hash(geo) and again.peers == geo.peers
    assert grid.tables(again) == tables


def test_symmetry_orbits_cache_is_bounded() -> None:
    for size in range(4, 26):
        for name in symmetry.SYMMETRIES:
            symmetry.orbits(name, size)
    assert symmetry.orbits.cache_info().currsize <= symmetry.ORBITS_CACHE_SIZE


#: The longest a source file may grow, C and the page's scripts included (issue: short parts).
MAX_LINES = 600
SOURCE_SUFFIXES = {".py", ".c", ".h", ".js", ".css", ".html"}


def test_no_source_file_is_longer_than_the_limit() -> None:
    """Every module of the package, its tests, benchmarks and tools stays within MAX_LINES lines;
    a longer one is split along its seams."""
    long = {}
    for part in ("src", "tests", "benchmarks", "tools"):
        for path in (ROOT / part).rglob("*"):
            if path.suffix in SOURCE_SUFFIXES and path.is_file():
                lines = path.read_text(encoding="utf-8", errors="replace").count("\n")
                if lines > MAX_LINES:
                    long[str(path.relative_to(ROOT))] = lines
    assert not long, long


#: The longest a C function may grow, from the line of its opening brace to that of its closing one.
MAX_FUNCTION_LINES = 100


def c_functions(text: str) -> list[tuple[str, int, int]]:
    """The top-level function bodies of a C file: (name, first line, lines), found by matching
    braces once comments, strings and character constants are blanked (line ends kept); a brace at
    the top level opens a function when the text before it ends in a parameter list."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group())

    text = re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"' + r"|'(?:\\.|[^'\\\n])*'", blank, text)
    found = []
    depth, line, start, name = 0, 1, 0, ""
    for at, char in enumerate(text):
        if char == "\n":
            line += 1
        elif char == "{":
            if depth == 0:
                head = re.search(r"(\w+)\s*\([^{};]*\)\s*$", text[:at])
                start, name = (line, head.group(1)) if head else (0, "")
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0 and start:
                found.append((name, start, line - start + 1))
                start = 0
    return found


def test_c_functions_counter_finds_bodies() -> None:
    source = 'static int\nf(int a, /* { */ char b)\n{\n    if (a) {\n        return "}";\n    }\n    return 0;\n}\n'
    source += "static const int T[] = {1, 2};\nstruct s { int x; };\nint g(void) { return 0; }\n"
    assert c_functions(source) == [("f", 3, 6), ("g", 11, 1)]


def test_no_c_function_is_longer_than_the_limit() -> None:
    """Every function of every C file of the package stays within MAX_FUNCTION_LINES lines; a
    longer one is split into named helpers."""
    paths = sorted((ROOT / "src").rglob("*.c"))
    assert paths
    long = {
        f"{path.relative_to(ROOT)}:{first} {name}": lines
        for path in paths
        for name, first, lines in c_functions(path.read_text(encoding="utf-8"))
        if lines > MAX_FUNCTION_LINES
    }
    assert not long, long
