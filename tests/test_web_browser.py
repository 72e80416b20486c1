"""The page in a real browser: Debian's chromium driven by Playwright, the server run for real.

Screenshots of a 9x9, a 6x6 and a pyramid game (and the phone-width and dark views) go to the
test's temporary folder; set SHUDU_SCREENSHOTS=DIR to also copy them there (docs/screenshots).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
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
from shudu.web.app import features  # noqa: E402

Page = sync_api.Page


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("server") / "games.sqlite3"
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
    game_id = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    with urllib.request.urlopen(f"{url}api/games/{game_id}") as answer:
        return json.load(answer)


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


def test_play_hint_solve_reload_and_resume(browser: object, server: str, shots: Path) -> None:
    page = open_page(browser, server)
    assert page.locator(".cell").count() == 81
    game = current_game(page, server)
    solution = solution_of(game)
    givens = game["puzzle"]["givens"]
    empties = [i for i, g in enumerate(givens) if not g]

    # a right digit by keyboard, a wrong one from the pad (conflict shown), pencil marks, undo
    first, second, third = empties[:3]
    cell(page, first).click()
    page.keyboard.press(str(solution[first]))
    assert cell(page, first).inner_text() == str(solution[first])
    cell(page, second).click()
    clash = next(d for d in range(1, 10) if d != solution[second] and d in [givens[p] for p in range(9)])
    if second >= 9:  # a digit that a given in the same row holds
        row = second // 9
        clash = next(givens[row * 9 + c] for c in range(9) if givens[row * 9 + c])
    page.click(f'#pad button[data-digit="{clash}"]')
    assert "conflict" in (cell(page, second).get_attribute("class") or "")
    page.click("#undo-button")
    assert cell(page, second).inner_text() == ""
    cell(page, third).click()
    page.keyboard.press("Shift+Digit1")
    page.keyboard.press("Shift+Digit2")
    page.keyboard.press("Control+Digit3")
    assert cell(page, third).locator(".corner span").count() == 2
    assert cell(page, third).locator(".centre").inner_text() == "3"

    page.click("#check-button")
    page.wait_for_function("document.getElementById('message').textContent.includes('right so far')")

    # the moves were saved: a reload comes back to the same game
    page.wait_for_timeout(600)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert cell(page, first).inner_text() == str(solution[first])
    assert cell(page, third).locator(".corner span").count() == 2
    assert current_game(page, server)["id"] == game["id"]

    if features()["hint"]:
        page.click("#hint-button")
        page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
        assert "look at" in page.inner_text("#hint-text").lower()
        assert page.locator(".cell.area").count() > 0  # where to look is shaded
        page.click("#hint-button")
        page.wait_for_function("!document.getElementById('hint-text').textContent.startsWith('Look at')")
        page.click("#hint-button")
        page.wait_for_selector("#hint-apply:not([hidden])")
        assert page.locator(".cell.step").count() > 0  # the step's cells are drawn
        page.screenshot(path=str(shots / "play-9x9.png"))
        page.click("#hint-apply")
    else:
        page.screenshot(path=str(shots / "play-9x9.png"))

    page.click("#solve-button")
    page.wait_for_function("document.getElementById('message').textContent.includes('Solved')")
    assert [int(t) for t in page.locator(".cell").all_inner_texts()] == solution
    page.wait_for_timeout(400)
    assert current_game(page, server)["finished"] is True

    # the saved games list shows it, finished
    page.click("#games-button")
    page.wait_for_selector("#games-dialog[open]")
    listed = page.locator("#games-list li").all_inner_texts()
    assert any("9×9" in item and "finished" in item for item in listed)
    assert page.errors == []


def test_enter_your_own_puzzle_with_validation_messages(browser: object, server: str) -> None:
    page = open_page(browser, server)
    page.click("#new-button")
    page.fill("#own-text", "12x" + "." * 78)
    page.wait_for_function("document.getElementById('own-status').textContent.includes('is not a digit')")
    assert page.locator("#own-play").is_disabled()
    page.fill("#own-text", "." * 81)
    page.wait_for_function("document.getElementById('own-status').textContent.includes('several solutions')")
    six = ".2......5........53..1..6..3.2....4."
    page.fill("#own-text", "\n".join(six[r * 6 : r * 6 + 6] for r in range(6)))
    page.wait_for_function("document.getElementById('own-status').textContent.includes('one solution')")
    page.click("#own-play")
    page.wait_for_function("document.querySelectorAll('.cell').length === 36")
    assert page.inner_text("#title").startswith("6×6")
    assert page.errors == []


def test_every_row_is_as_tall_as_the_others_even_with_no_digit_in_it(browser: object, server: str) -> None:
    request = urllib.request.Request(
        server + "api/games",
        data=json.dumps({"puzzle": "123456789" + "." * 72}).encode(),  # rows 2-9 hold no digit
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        game_id = json.load(answer)["id"]
    page = open_page(browser, f"{server}#game={game_id}")
    page.wait_for_function("document.querySelector('.cell[data-cell=\"0\"]').textContent.includes('1')")
    heights = page.evaluate(
        "[...document.querySelectorAll('.cell')].map(c => c.getBoundingClientRect().height)"
    )
    board = page.evaluate("document.getElementById('board').getBoundingClientRect().height")
    assert len(heights) == 81 and max(heights) - min(heights) < 4  # thick box lines take up to 3 px
    assert sum(heights[::9]) <= board
    assert page.errors == []


def test_screenshots_of_a_6x6_a_pyramid_a_phone_and_dark_mode(
    browser: object, server: str, shots: Path
) -> None:
    page = open_page(browser, server)
    new_puzzle(page, 6, "standard", "easy")
    first_empty = next(i for i in range(36) if not cell(page, i).inner_text())
    cell(page, first_empty).click()
    page.screenshot(path=str(shots / "play-6x6.png"))
    # boxes of 2 rows x 3 columns: a thick line below row 2 and right of column 3
    assert "thick-bottom" in cell(page, 6).get_attribute("class")
    assert "thick-right" in cell(page, 2).get_attribute("class")

    new_puzzle(page, 9, "pyramid", "easy")
    shaded = page.locator(".cell[data-extra]")
    assert shaded.count() == 36  # four pyramids of 9 cells
    assert cell(page, 2).get_attribute("data-extra") == cell(page, 22).get_attribute("data-extra")
    if features()["trace"]:
        page.click("#trace-panel summary")
        page.wait_for_function("document.getElementById('trace-text').textContent.startsWith('Step 1')")
        for _ in range(12):
            page.click("#trace-next")
        assert "Step 13" in page.inner_text("#trace-text")
        page.screenshot(path=str(shots / "search-pyramid.png"))
        page.click("#trace-close")
    page.screenshot(path=str(shots / "play-pyramid.png"))

    phone = open_page(
        browser, server, viewport={"width": 390, "height": 844}, color_scheme="dark", device_scale_factor=2
    )
    new_puzzle(phone, 9, "x", "easy")
    assert phone.evaluate("document.documentElement.dataset.theme") == "dark"
    width = phone.evaluate("document.getElementById('board').getBoundingClientRect().width")
    assert 300 < width <= 390
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sticks out sideways
    phone.screenshot(path=str(shots / "phone-dark-x.png"), full_page=True)
    assert page.errors == [] and phone.errors == []
