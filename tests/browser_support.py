"""The browser tests' fixtures and helpers: a real server (``shudu serve``) on a free port, Debian's
chromium driven by Playwright, and the small steps every browser test takes (open a game, read
the server's copy, click a cell). A test module takes the fixtures with
``server_db, server, browser, shots = support.server_db, …``; this module is skipped where
chromium or playwright is absent.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is absent (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install 'shudu[web]')"
)

import shudu  # noqa: E402
from shudu.web.app import features  # noqa: E402  (for the tests' skipif marks)

__all__ = ["features"]

Page = sync_api.Page


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database file of the server the tests drive."""
    return tmp_path_factory.mktemp("server") / "games.sqlite3"


@pytest.fixture(scope="module")
def server(server_db: Path) -> Iterator[str]:
    db = server_db
    port = free_port()
    command = [sys.executable, "-m", "shudu", "serve", "--port", str(port), "--db", str(db)]
    # the server's log goes to a file: a pipe nobody reads would fill up and stall the server
    log = (db.parent / "serve.log").open("w+")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, text=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "api/features", timeout=1).close()
                break
            except OSError:
                if process.poll() is not None:
                    log.seek(0)
                    pytest.fail(f"shudu serve exited: {log.read()}")
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def shots(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    target = os.environ.get("SHUDU_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        for png in tmp_path.glob("*.png"):
            shutil.copy(png, Path(target) / png.name)


def open_page(browser: object, url: str, **options: object) -> Page:
    context = browser.new_context(viewport=options.pop("viewport", {"width": 1100, "height": 820}), **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    return page


def current_game(page: Page, url: str) -> dict:
    """The page's game as the server holds it, asked with the page's own player cookie."""
    game_id = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    answer = page.request.get(f"{url}api/games/{game_id}")
    assert answer.ok, answer.text()
    return answer.json()


def wait_for_saved(page: Page, url: str, check: object, tries: int = 100) -> dict:
    """The server's copy of the page's game once ``check(game)`` holds (polled, not timed)."""
    for _ in range(tries):
        game = current_game(page, url)
        if check(game):  # type: ignore[operator]
            return game
        page.wait_for_timeout(50)
    raise AssertionError(f"the server's copy never matched: {game}")


PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def solution_of(game: dict) -> list[int]:
    result = shudu.solve(json.dumps(game["puzzle"]["json"]))
    assert result.solution is not None
    return list(result.solution.cells)


def cell(page: Page, index: int):
    return page.locator(f'.cell[data-cell="{index}"]')


def new_puzzle(page: Page, size: int, variant: str, level: str = "") -> None:
    page.click("#new-button")
    page.select_option("#new-size", str(size))
    page.select_option("#new-variant", variant)
    page.select_option("#new-level", level)
    page.click("#new-start")
    page.wait_for_function(
        "!document.getElementById('new-dialog').open || document.getElementById('new-error').textContent"
    )
    assert page.inner_text("#new-error") == "", "the page could not start the new puzzle"
    name = f"{size}×{size}" + ("" if variant == "standard" else f" {variant}")
    page.wait_for_function(f"document.getElementById('title').textContent.startsWith({name!r})")
    assert page.locator(".cell").count() == size * size


def open_game(browser: object, url: str, puzzle: str = EASY, **options: object) -> Page:
    """A page in a new browser playing a new game of ``puzzle`` (its own player, as a browser is);
    ``variant`` goes with the puzzle, the rest to the browser context."""
    body = {"puzzle": puzzle, **({"variant": options.pop("variant")} if "variant" in options else {})}
    context = browser.new_context(viewport=options.pop("viewport", {"width": 1100, "height": 820}), **options)
    assert context.request.get(url).ok  # the first visit: the server sets the player cookie
    answer = context.request.post(url + "api/games", data=body)
    assert answer.ok, answer.text()
    game_id = answer.json()["id"]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(f"{url}#game={game_id}")
    page.wait_for_selector("body[data-ready]")
    return page


def empty_cells(game: dict) -> list[int]:
    return [i for i, g in enumerate(game["puzzle"]["givens"]) if not g]


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 820}
#: The two sizes every view is checked at.
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
PYRAMID = "...8..7....1.42....65...1...49.......8.6........9...6.......4.......15..1........"


def sixteen() -> str:
    """A 16x16 puzzle with one solution, from the known-answer file."""
    known = Path(__file__).parent / "data" / "known.txt"
    return next(
        line.split(":")[0] for line in known.read_text().splitlines() if len(line.split(":")[0]) == 256
    )


def font_px(page: Page, selector: str) -> float:
    return float(
        page.evaluate(f"parseFloat(getComputedStyle(document.querySelector({selector!r})).fontSize)")
    )
