"""The API against its own OpenAPI document: schemathesis generates requests from the document,
with every check (tests/schemathesis.toml tells them the API's 422, 501 and 503).

The default tier runs schemathesis's pytest plugin in the process, a few examples per operation;
the slow tier runs the ``st`` command, every phase (examples, coverage, fuzzing, stateful), against
a real uvicorn server, and expects no failure at all."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")
schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402

from shudu.web import create_app  # noqa: E402
from shudu.web.app import offered  # noqa: E402
from shudu.web.guard import allowed_for  # noqa: E402

CONFIG = Path(__file__).parent / "schemathesis.toml"
#: The deadline of the server under test: short, so that heavy requests answer (or 503) quickly.
DEADLINE = 1.0

app = create_app(Path(tempfile.mkdtemp()) / "schema.sqlite3", deadline=DEADLINE, grace=0.5)
offered()  # worked out once, before the examples run
schema = schemathesis.openapi.from_asgi("/api/openapi.json", app, config=SchemathesisConfig.from_path(CONFIG))


@pytest.mark.c_speed  # the web API tests check each operation on both cores
@schema.parametrize()
@settings(max_examples=15, deadline=10_000, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_check_holds_for_generated_requests(case: schemathesis.Case) -> None:
    case.call_and_validate()


def test_the_document_marks_required_fields_and_whole_numbers() -> None:
    doc = schema.raw_schema
    schemas = doc["components"]["schemas"]
    for name in (
        "PuzzleRequest",
        "SolveRequest",
        "CountRequest",
        "HintRequest",
        "TraceRequest",
        "SetterRequest",
        "NewGameRequest",
    ):
        assert schemas[name]["required"] == ["puzzle"], name
        assert schemas[name]["additionalProperties"] is False, name
    assert schemas["SaveRequest"]["required"] == ["version"]
    limit = schemas["CountRequest"]["properties"]["limit"]
    assert (limit["type"], limit["minimum"], limit["maximum"]) == ("integer", 1, 1_000_000)
    setter = schemas["SetterRequest"]["properties"]
    assert (setter["limit"]["type"], setter["limit"]["minimum"], setter["limit"]["maximum"]) == (
        "integer",
        2,
        100_000,
    )
    assert {"type": "number", "minimum": 0.05, "maximum": 600} in setter["deadline"]["anyOf"]
    kind = schemas["KindRequest"]
    assert 19 not in kind["else"]["properties"]["size"]["enum"] and kind["if"]["properties"]["variant"] == {
        "const": "jigsaw"
    }
    games = doc["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in games.values()} == {"get_game", "save_game", "delete_game"}


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real uvicorn server of the app, as ``shudu serve`` runs it, with a short deadline."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
    from shudu.web.server import TimedH11Protocol

    db = tmp_path_factory.mktemp("schema") / "games.sqlite3"
    served_app = create_app(db, deadline=DEADLINE, grace=0.5, allowed_hosts=allowed_for("127.0.0.1"))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(served_app, host="127.0.0.1", port=port, http=TimedH11Protocol, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(600):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(30)


@pytest.mark.slow
def test_schemathesis_with_every_check_and_phase_finds_no_failure(served: str, tmp_path: Path) -> None:
    command = [
        str(Path(sys.executable).parent / "st"),
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        f"{served}/api/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        "30",
        "--max-time",
        "240",
        "--seed",
        "1",
        "--request-timeout",
        "30",
        "--workers",
        "2",
    ]
    if not Path(command[0]).exists():
        pytest.skip("the st command of schemathesis is absent")
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=500)
    summary = done.stdout[-4000:]
    assert done.returncode == 0 and not re.search(r"\d+ failures?\b", summary.splitlines()[-1]), summary
