"""The web server under load: light-request latency with and without heavy clients.

Starts ``shudu serve`` on 127.0.0.1 (a free port, a fresh database in a temporary folder), then
drives it with an async HTTP client:

1. light requests alone: solve, count, save and load of a game, in turn, one at a time;
2. the same light requests while ``--heavy`` clients keep asking to rate or explain hard puzzles
   (forum_hardest_1106 from the benchmark data, or generated hard ones if it is absent).

Prints p50/p95/p99 of the light requests in each phase, every answer that was not a 2xx, the heavy
answers by status, and whether the server (with its worker processes) is idle 2 s after the last
request (CPU time read from /proc, so Linux only). Target: light p95 <= 50 ms under 4 heavy
clients, 0 errors, no CPU busy after.

    .venv/bin/python benchmarks/web_load.py --light 200 --heavy 4
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def hard_puzzles(count: int, seed: int) -> tuple[list[str], str]:
    """``count`` hard puzzles and where they come from."""
    path = DATA / "forum_hardest_1106.txt"
    if path.exists():
        lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip()]
        random.Random(seed).shuffle(lines)
        return lines[:count], path.name
    import shudu

    made = [shudu.generate(level="hard", seed=seed + k).puzzle.to_string() for k in range(count)]
    return made, "generated hard 9x9 (benchmark data absent)"


def light_puzzles() -> list[str]:
    path = DATA / "kaggle_like_easy_10k.txt"
    if path.exists():
        return [line.split()[0] for line in path.read_text().splitlines()[:50] if line.strip()]
    return [EASY]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


class Server:
    """``shudu serve`` in a child process, on 127.0.0.1 only."""

    def __init__(self, folder: Path, workers: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (folder / "serve.log").open("w+")
        command = [sys.executable, "-m", "shudu", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--db", str(folder / "load.sqlite3"), "--workers", str(workers)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=self.log)

    async def ready(self, client: httpx.AsyncClient) -> None:
        for _ in range(600):
            if self.process.poll() is not None:
                self.log.seek(0)
                raise SystemExit(f"shudu serve exited: {self.log.read()}")
            try:
                if (await client.get(self.url + "/api/features")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)
        raise SystemExit("shudu serve did not answer in 30 s")

    def cpu_seconds(self) -> float:
        """CPU time used so far by the server and every worker process it started (from /proc)."""
        parents: dict[int, int] = {}
        used: dict[int, float] = {}
        tick = os.sysconf("SC_CLK_TCK")
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # ended meanwhile
            fields = stat[stat.rfind(")") + 2 :].split()
            parents[int(entry.name)] = int(fields[1])
            used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
        tree, grew = {self.process.pid}, True
        while grew:
            found = {pid for pid, parent in parents.items() if parent in tree} - tree
            tree |= found
            grew = bool(found)
        return sum(used.get(pid, 0.0) for pid in tree)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


class Light:
    """One light client: solve, count, save, load in turn, timing each answer."""

    def __init__(self, client: httpx.AsyncClient, url: str, puzzles: list[str]) -> None:
        self.client, self.url, self.puzzles = client, url, puzzles
        self.errors: list[str] = []
        self.game: dict[str, Any] = {}
        self.by_kind: dict[str, list[float]] = {}

    async def start_game(self) -> None:
        answer = await self.client.post(self.url + "/api/games", json={"puzzle": EASY})
        answer.raise_for_status()
        self.game = answer.json()

    async def one(self, k: int) -> float:
        kind = ("solve", "count", "save", "load")[k % 4]
        puzzle = self.puzzles[k % len(self.puzzles)]
        game_url = f"{self.url}/api/games/{self.game['id']}"
        started = time.perf_counter()
        try:
            if kind == "solve":
                answer = await self.client.post(self.url + "/api/solve", json={"puzzle": puzzle})
            elif kind == "count":
                answer = await self.client.post(self.url + "/api/count", json={"puzzle": puzzle, "limit": 2})
            elif kind == "save":
                body = {"version": self.game["version"], "elapsed_ms": 1000 * k}
                answer = await self.client.put(game_url, json=body)
                if answer.status_code == 200:
                    self.game["version"] = answer.json()["version"]
            else:
                answer = await self.client.get(game_url)
            elapsed = time.perf_counter() - started
            self.by_kind.setdefault(kind, []).append(elapsed)
            if answer.status_code >= 300:
                self.errors.append(f"{kind}: {answer.status_code} {answer.text[:120]}")
        except httpx.HTTPError as exc:
            elapsed = time.perf_counter() - started
            self.errors.append(f"{kind}: {type(exc).__name__} {exc}")
        return elapsed

    async def run(self, count: int, until: float) -> list[float]:
        times = []
        for k in range(count):
            if time.monotonic() > until:
                break
            times.append(await self.one(k))
        return times


async def heavy_client(
    client: httpx.AsyncClient,
    url: str,
    puzzles: list[str],
    offset: int,
    stop: asyncio.Event,
    statuses: dict[str, int],
) -> None:
    """Rate or explain hard puzzles, one after another, until ``stop`` (the request in flight ends)."""
    for k in itertools.count(offset):
        if stop.is_set():
            return
        endpoint = ("rate", "explain")[k % 2]
        try:
            answer = await client.post(f"{url}/api/{endpoint}", json={"puzzle": puzzles[k % len(puzzles)]})
            key = f"{endpoint} {answer.status_code}"
        except httpx.HTTPError as exc:
            key = f"{endpoint} {type(exc).__name__}"
            await asyncio.sleep(0.1)
        statuses[key] = statuses.get(key, 0) + 1


def summary(name: str, times: list[float]) -> str:
    ms = [1000 * t for t in times]
    return (
        f"{name:<28} n={len(ms):<5} p50 {percentile(ms, 50):7.1f} ms  p95 {percentile(ms, 95):7.1f} ms"
        f"  p99 {percentile(ms, 99):7.1f} ms  max {max(ms):7.1f} ms  mean {statistics.fmean(ms):6.1f} ms"
    )


async def measure(args: argparse.Namespace, folder: Path) -> int:
    server = Server(folder, args.workers)
    hard, source = hard_puzzles(args.puzzles, args.seed)
    timeout = httpx.Timeout(60.0)
    limits = httpx.Limits(max_connections=args.heavy + 4)
    until = time.monotonic() + args.seconds
    try:
        async with httpx.AsyncClient(timeout=timeout, limits=limits) as client:
            await server.ready(client)
            light = Light(client, server.url, light_puzzles())
            await light.start_game()
            await light.run(20, until)  # warm up: imports, caches, the first connection
            light.errors.clear()
            alone = await light.run(args.light, until)
            alone_errors = list(light.errors)
            alone_kinds = dict(light.by_kind)
            light.errors.clear()
            light.by_kind.clear()

            stop = asyncio.Event()
            statuses: dict[str, int] = {}
            heavy = [
                asyncio.create_task(heavy_client(client, server.url, hard, k, stop, statuses))
                for k in range(args.heavy)
            ]
            await asyncio.sleep(args.ramp)  # let the heavy clients fill the workers first
            loaded = await light.run(args.light, until)
            stop.set()
            await asyncio.gather(*heavy)
            last = time.monotonic()
            loaded_errors = list(light.errors)

            await asyncio.sleep(max(0.0, last + 2.0 - time.monotonic()))
            before = server.cpu_seconds()
            await asyncio.sleep(1.0)
            busy = server.cpu_seconds() - before
    finally:
        server.stop()

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"server: shudu serve, {args.workers} worker processes; heavy puzzles: {source}")
    print(summary("light, alone", alone))
    print(
        "  by kind alone, p95: "
        + ", ".join(f"{k} {percentile([1000 * t for t in v], 95):.1f} ms" for k, v in alone_kinds.items())
    )
    print(summary(f"light, {args.heavy} heavy clients", loaded))
    print(
        "  by kind under load, p95: "
        + ", ".join(f"{k} {percentile([1000 * t for t in v], 95):.1f} ms" for k, v in light.by_kind.items())
    )
    print(f"light errors: {len(alone_errors)} alone, {len(loaded_errors)} under load")
    for error in (alone_errors + loaded_errors)[:10]:
        print(f"  {error}")
    print("heavy answers: " + (", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())) or "none"))
    print(f"server CPU from 2 s to 3 s after the last request: {100 * busy:.0f}% of one core")
    p95 = percentile([1000 * t for t in loaded], 95) if loaded else float("inf")
    met = p95 <= 50 and not alone_errors and not loaded_errors and busy < 0.05
    print(f"target (light p95 <= 50 ms under load, 0 errors, idle after): {'met' if met else 'NOT met'}")
    return 0 if met else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--light", type=int, default=200, help="light requests in each phase (default: 200)")
    parser.add_argument("--heavy", type=int, default=4, help="heavy clients in the second phase (default: 4)")
    parser.add_argument("--workers", type=int, default=2, help="the server's worker processes (default: 2)")
    parser.add_argument(
        "--puzzles", type=int, default=40, help="hard puzzles the heavy clients cycle through"
    )
    parser.add_argument(
        "--ramp", type=float, default=2.0, help="seconds of heavy load before timing (default: 2)"
    )
    parser.add_argument(
        "--seconds", type=float, default=120.0, help="stop timing after this long (default: 120)"
    )
    parser.add_argument("--seed", type=int, default=1, help="shuffles the hard puzzles (default: 1)")
    args = parser.parse_args(argv)
    if args.light < 1 or args.heavy < 0 or args.workers < 1 or args.puzzles < 1:
        parser.error("--light, --workers and --puzzles must be at least 1, --heavy at least 0")
    with tempfile.TemporaryDirectory(prefix="shudu-load-") as folder:
        return asyncio.run(measure(args, Path(folder)))


if __name__ == "__main__":
    sys.exit(main())
