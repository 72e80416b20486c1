"""The start of the ``shudu`` command: it lists every command from one table, loads only the
module of the command that runs, and a Ctrl-C at any moment of that start ends with the
interrupted status and one line, never a traceback."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shudu.cli import build_parser
from shudu.cli._base import COMMANDS, Commands, Parser
from shudu.notation import Exit

SOURCE = Path(__file__).resolve().parents[1] / "src"
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
#: The modules ``import shudu.cli`` may add to those of ``import shudu``.
FRAME = {"shudu.cli", "shudu.cli._base", "shudu.cli._system"}


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SOURCE), os.environ.get("PYTHONPATH")]))
    )
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def _loaded_after(code: str) -> set[str]:
    done = _python(
        code
        + "\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith('shudu'))))"
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_import_shudu_cli_loads_no_command() -> None:
    added = _loaded_after("import shudu.cli") - _loaded_after("import shudu")
    assert added <= FRAME, sorted(added)


def test_a_command_loads_its_own_module_only() -> None:
    loaded = _loaded_after("from shudu.cli import main\nmain(['algorithms'])")
    commands = {f"shudu.cli.{entry.module}" for entry in COMMANDS}
    assert loaded & commands == {"shudu.cli.solving"}


def test_help_lists_every_command_without_loading_one() -> None:
    done = _python(
        """
        import sys
        from shudu.cli import main
        status = main(['--help'])
        print(sorted(m for m in sys.modules if m.startswith('shudu.cli.') and m[10:] not in ('_base', '_system')))
        sys.exit(status)
        """
    )
    assert done.returncode == 0, done.stderr
    for entry in COMMANDS:
        assert f"    {entry.name}" in done.stdout, entry.name
    assert done.stdout.splitlines()[-1] == "[]"


def test_every_module_adds_the_commands_the_table_gives_it() -> None:
    for module in dict.fromkeys(entry.module for entry in COMMANDS):
        parser = Parser(prog="shudu")
        subparsers = parser.add_subparsers(dest="command")
        importlib.import_module(f"shudu.cli.{module}").register(Commands(subparsers))
        assert list(subparsers.choices) == [entry.name for entry in COMMANDS if entry.module == module]
    full = build_parser()
    action = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    assert list(action.choices) == [entry.name for entry in COMMANDS]
    for name, sub in action.choices.items():
        assert sub.get_default("run") is not None, name


def test_a_command_outside_the_table_is_refused() -> None:
    commands = Commands(Parser(prog="shudu").add_subparsers(dest="command"))
    with pytest.raises(ValueError, match="table of commands"):
        commands.add("nothing", "shudu nothing", lambda args, out: None)


# --- Ctrl-C while the command starts ---------------------------------------------------------

#: The child: like the console script, but it sends itself SIGINT when the module TARGET is
#: first looked for, so that the Ctrl-C lands at that very moment of the start.
CTRL_C_AT = """
import os, signal, sys

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == sys.argv[1]:
            os.kill(os.getpid(), signal.SIGINT)
        return None

from shudu.cli import main
sys.meta_path.insert(0, CtrlC())
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize(
    ("target", "command"),
    [
        ("shudu.cli._common", ["solve", INKALA]),
        ("shudu.cli.solving", ["solve", INKALA]),
        ("shudu.solvers.fast", ["solve", INKALA]),
        ("shudu.cli.making", ["generate", "--seed", "1"]),
        ("shudu.cli.batch", ["batch", "--help"]),
        ("shudu.solvers.fast", ["--version"]),
    ],
)
def test_ctrl_c_while_a_command_loads_is_one_line(target: str, command: list[str]) -> None:
    done = _python(CTRL_C_AT, target, *command)
    assert done.returncode == Exit.INTERRUPTED, done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.stderr.splitlines() == ["shudu: interrupted"]
    assert done.stdout == ""
