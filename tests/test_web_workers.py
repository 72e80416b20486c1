"""Heavy work in worker processes: a deadline stops it, light work never waits for it, a full
queue answers 429."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from shudu.web import create_app
from shudu.web.jobs import spin
from shudu.web.workers import Busy, Pool, alive

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def spinning_app(db: Path, **options: Any) -> TestClient:
    """The app with one more heavy route, /spin, that busies a worker past any deadline."""
    app = create_app(db, **options)
    api = app.state.api

    async def busy(request: Request) -> Response:
        seconds = float(request.query_params.get("seconds", "60"))
        await api.heavy(spin, seconds)
        return JSONResponse({"done": True})

    app.router.routes.append(Route("/spin", busy, methods=["POST"]))
    return TestClient(app)


def wait_for(condition: Callable[[], bool], what: Callable[[], str], seconds: float = 120.0) -> None:
    """Wait until ``condition()`` holds (the event loop and the workers move on meanwhile); fail,
    saying ``what()``, if it does not within ``seconds``."""
    done = threading.Event()
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, f"still not so after {seconds:g} s: {what()}"
        done.wait(0.01)


def test_a_heavy_job_past_its_deadline_answers_503_and_its_worker_is_killed(tmp_path: Path) -> None:
    client = spinning_app(tmp_path / "w.sqlite3", deadline=0.2, grace=0.2, workers=1)
    pool = client.app.state.api.pool  # type: ignore[attr-defined]
    with client:
        first = client.post("/spin?seconds=0.01")
        assert first.status_code == 200
        [pid] = pool.pids
        answer = client.post("/spin?seconds=600")
        assert answer.status_code == 503 and "deadline" in answer.json()["error"]
        assert not alive(pid), "the worker that overran is gone"
        assert pool.pids == [] and pool.started == 1
        again = client.post("/spin?seconds=0.01")  # a fresh worker takes the next job
        assert again.status_code == 200 and pool.started == 2 and pool.pids and pool.pids != [pid]
    assert all(not alive(p) for p in pool.pids)


def test_light_requests_are_answered_while_heavy_ones_run(tmp_path: Path) -> None:
    # The heavy jobs spin far past anything the test waits for, so that one of them finishing is
    # never what the test sees; the pool's shutdown ends them, also when an assertion fails.
    client = spinning_app(tmp_path / "w.sqlite3", deadline=600, grace=0.5, workers=1, queue=2)
    pool = client.app.state.api.pool  # type: ignore[attr-defined]
    answers: list[int] = []

    def heavy_request() -> None:
        answers.append(client.post("/spin?seconds=600").status_code)

    heavy = [threading.Thread(target=heavy_request) for _ in range(3)]
    with client:
        try:
            for thread in heavy:
                thread.start()
            wait_for(
                lambda: len(pool.busy) == 1 and pool.waiting == 2,
                lambda: f"{len(pool.busy)} busy, {pool.waiting} waiting, answers {answers}",
            )
            for _ in range(5):
                solved = client.post("/api/parse", json={"puzzle": EASY})
                assert solved.status_code == 200
                games = client.get("/api/games")
                assert games.status_code == 200
            assert len(pool.busy) == 1 and pool.waiting == 2, "the heavy ones were still running"
            refused = client.post("/spin?seconds=1")
            assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
            assert "busy" in refused.json()["error"]
            busy_pids = pool.pids
        finally:
            pool.close()  # as when the server shuts down: the running job is stopped, and answered
            for thread in heavy:
                thread.join(60)
        # the jobs that waited are answered, and no worker was started for them
        assert not [t for t in heavy if t.is_alive()] and pool.started == 1
        assert sorted(answers) == [503, 503, 503]
    assert busy_pids and all(not alive(p) for p in busy_pids)


def test_a_job_that_has_its_worker_is_not_counted_as_waiting() -> None:
    # Three jobs at once, one worker, room for one to wait. The first takes the worker, and is
    # still on its way to it when the others arrive: the second waits, only the third is refused.
    pool = Pool(1, queue=1, grace=0.5)
    outcomes: list[str] = []

    async def job() -> None:
        try:
            await pool.run(60, spin, 0.01)
            outcomes.append("done")
        except Busy:
            outcomes.append("busy")

    async def three_at_once() -> None:
        async with anyio.create_task_group() as group:
            for _ in range(3):
                group.start_soon(job)

    try:
        anyio.run(three_at_once)
    finally:
        pool.close()
    assert sorted(outcomes) == ["busy", "done", "done"] and pool.started == 1
    assert pool.waiting == 0


def test_a_worker_killed_while_it_starts_is_an_overrun_not_a_crash() -> None:
    # The server's shutdown may kill a worker that a request is still waiting for: that
    # request must get the pool's own error (a 503), never an EOFError (a 500).
    from shudu.web.workers import Overrun, Worker

    worker = Worker()
    worker.kill()
    with pytest.raises(Overrun, match="stopped while it started"):
        worker.ready()
