"""``import shudu`` loads the API's surface only: the logic engine, the generator, the solvers and
the other programs' formats wait until a name of theirs is asked for (benchmarks/import_cost.py
times it)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import shudu
from shudu import formats, solvers

SOURCE = Path(__file__).resolve().parents[1] / "src"
#: The most modules of shudu that ``import shudu`` may load.
MOST = 25


def _loaded_after(code: str) -> list[str]:
    """The modules of shudu in ``sys.modules`` after ``code`` ran in a fresh interpreter."""
    probe = (
        code
        + "\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'shudu')))"
    )
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SOURCE), os.environ.get("PYTHONPATH")]))
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    names: list[str] = json.loads(done.stdout)
    return names


def test_import_shudu_loads_the_surface_only() -> None:
    loaded = _loaded_after("import shudu")
    assert len(loaded) <= MOST, loaded
    deferred = ("shudu.logic", "shudu.generator", "shudu.solvers.fast", "shudu.solvers.dlx", "shudu._core_c")
    assert not [name for name in loaded if name.startswith(deferred)], loaded
    assert not [name for name in loaded if name.startswith(("shudu.formats.hodoku", "shudu.formats.convert"))]


def test_solving_loads_the_default_solver_and_not_the_logic_engine() -> None:
    loaded = _loaded_after("import shudu; shudu.solve('.' * 16)")
    assert "shudu.solvers.fast" in loaded
    assert not [name for name in loaded if name.startswith(("shudu.logic", "shudu.generator"))], loaded


def test_every_public_name_resolves_to_its_module_s_object() -> None:
    for name in shudu.__all__:
        assert getattr(shudu, name) is not None, name
        assert name in dir(shudu)
    for name, module in shudu._LAZY.items():
        assert getattr(shudu, name) is getattr(importlib.import_module(module), name)
    for name in formats.__all__:
        assert getattr(formats, name) is not None, name
    assert shudu.logic is importlib.import_module("shudu.logic")
    assert formats.hodoku is importlib.import_module("shudu.formats.hodoku")


def test_an_unknown_name_is_an_attribute_error() -> None:
    for module in (shudu, formats):
        try:
            module.no_such_name  # noqa: B018
        except AttributeError as error:
            assert "no_such_name" in str(error)
        else:
            raise AssertionError(f"{module.__name__}.no_such_name resolved")


def test_the_solver_table_names_every_solver_once() -> None:
    found = solvers.available()
    assert list(found) == list(solvers.TABLE)
    for name, solver in found.items():
        module, cls = solvers.TABLE[name]
        assert solver.name == name
        assert type(solver) is getattr(importlib.import_module(f"shudu.solvers.{module}"), cls)
        assert solvers.get(name) is solver
    assert solvers.get("auto") is found["fast"]
