"""The server's memory stays flat under many requests of puzzles with new layouts.

Every random jigsaw layout is a new shape for the caches keyed by shape (geometry, the compiled
solver's tables); unbounded, they would grow with every new layout. 10,000 requests, mostly with a
layout not seen before, go through the app in one process, and its resident memory after them
is compared with its memory after the first 1,000.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")
httpx = pytest.importorskip("httpx2", reason="httpx2 is not installed (pip install 'shudu[web]')")

from shudu.generator.grids import grow_layout  # noqa: E402
from shudu.web import create_app  # noqa: E402

# the slow tier: .ci/run runs it with 'pytest -m slow' (README.md, "Tests")
pytestmark = pytest.mark.slow

REQUESTS = 10_000
WARM = 1_000
#: Growth allowed after the warm-up, in MiB: an unbounded cache of 6,000 shapes would take far more.
TOLERANCE = 16.0


def resident_mib() -> float:
    """This process's resident memory (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads memory from /proc (Linux)")
def test_ten_thousand_random_jigsaw_requests_leave_memory_flat(tmp_path: Path) -> None:
    rng = random.Random(11)
    app = create_app(tmp_path / "web.sqlite3")
    seen: set[str] = set()
    statuses: dict[str, int] = {}

    async def drive() -> tuple[float, float]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://shudu.test") as client:
            warm = 0.0
            for k in range(REQUESTS):
                layout = "".join(str(label + 1) for label in grow_layout(6, rng, swaps=20))
                seen.add(layout)
                body = {"puzzle": "." * 36, "variant": "jigsaw", "layout": layout}
                answer = await client.post("/api/solve", json=body)
                assert answer.status_code == 200, answer.text
                status = answer.json()["status"]
                statuses[status] = statuses.get(status, 0) + 1
                if k + 1 == WARM:
                    warm = resident_mib()
            return warm, resident_mib()

    warm, end = asyncio.run(drive())
    assert len(seen) > 0.6 * REQUESTS  # most requests a shape the caches had not seen
    assert set(statuses) <= {"multiple", "none"} and statuses.get("multiple", 0) > 0.5 * REQUESTS
    assert end - warm <= TOLERANCE, f"memory grew from {warm:.1f} to {end:.1f} MiB"

    from shudu import geometry
    from shudu.solvers import fast

    shapes = geometry._build.cache_info()  # the caches keyed by shape are bounded
    assert shapes.currsize <= geometry.CACHE_SIZE and shapes.misses >= len(seen)
    assert fast._shape.cache_info().currsize <= fast.SHAPE_CACHE_SIZE
