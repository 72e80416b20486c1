"""``shudu batch --dask``: a real LocalCluster of 2 worker processes, one killed mid-job, gives
the same output as one process."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from shudu.batch import Job, Spec, read_items, run_job
from test_batch import RATED, relabel

# the slow tier: .ci/run runs it with 'pytest -m slow' (README.md, "Tests")
pytestmark = pytest.mark.slow

distributed = pytest.importorskip("distributed", reason="the Dask tests need dask[distributed]")

OPTIONS = {"timeout": 60.0, "node_limit": None, "box": None, "variant": None, "allow_multiple": False}


@pytest.fixture
def cluster() -> object:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield local


def test_losing_a_worker_mid_job_leaves_the_answers_exact(cluster: object, tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    lines = [relabel(p, shift) for shift in range(3) for p in RATED]
    lines.insert(3, "not a puzzle")
    source.write_text("\n".join(lines) + "\n")
    alone, spread = tmp_path / "alone.jsonl", tmp_path / "spread.jsonl"
    run_job(Job(Spec("rate", OPTIONS), str(alone), "jsonl", timing=False), read_items(str(source)))

    address = cluster.scheduler_address  # type: ignore[attr-defined]
    with distributed.Client(address) as client:
        pids = client.run(os.getpid)
    assert len(pids) == 2
    victim = sorted(pids.values())[0]
    killed: list[int] = []

    def kill_one(number: int) -> None:
        if not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(number)

    job = Job(Spec("rate", OPTIONS), str(spread), "jsonl", chunk=2, dask=address, timing=False)
    job.on_chunk = kill_one
    summary = run_job(job, read_items(str(source)))
    assert killed
    assert summary.done == len(lines)
    assert spread.read_bytes() == alone.read_bytes()


def test_a_local_cluster_is_started_when_asked(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text("\n".join(RATED[:4]) + "\n")
    alone, spread = tmp_path / "alone.csv", tmp_path / "spread.csv"
    run_job(
        Job(Spec("solve", {"algorithm": "auto"}), str(alone), "csv", timing=False), read_items(str(source))
    )
    job = Job(
        Spec("solve", {"algorithm": "auto"}), str(spread), "csv", chunk=1, jobs=2, dask="local", timing=False
    )
    run_job(job, read_items(str(source)))
    assert spread.read_bytes() == alone.read_bytes()
