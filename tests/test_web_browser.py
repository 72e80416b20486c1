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
from shudu.web.app import features  # noqa: E402

# the slow tier: .ci/run runs it with 'pytest -m slow' (README.md, "Tests")
pytestmark = pytest.mark.slow

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
    page.keyboard.press(f"Control+Digit{solution[third]}")  # a centre mark is a candidate: a right one
    assert cell(page, third).locator(".corner span").count() == 2
    assert cell(page, third).locator(".centre").inner_text() == str(solution[third])

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
    full = "".join(str(d) for d in solution_of({"puzzle": {"json": {"size": 9, "givens": EASY}}}))
    puzzle = full[:9] + "." * 9 + full[18:]  # row 2 holds no digit; each column still fixes its own
    page = open_game(browser, server, puzzle)
    page.wait_for_function(f"document.querySelector('.cell[data-cell=\"0\"]').textContent === '{full[0]}'")
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


def test_a_random_jigsaw_from_new_puzzle_draws_its_regions(browser: object, server: str) -> None:
    page = open_page(browser, server)
    new_puzzle(page, 6, "jigsaw", "easy")
    game = current_game(page, server)
    layout = game["puzzle"]["json"]["layout"]
    regions = [int(ch, 36) for ch in layout] if isinstance(layout, str) else layout
    assert sorted(regions.count(r) for r in set(regions)) == [6] * 6
    for index in range(36):  # a thick line exactly where the region changes
        r, c = divmod(index, 6)
        classes = cell(page, index).get_attribute("class") or ""
        if c < 5:
            assert ("thick-right" in classes) == (regions[index] != regions[index + 1]), index
        if r < 5:
            assert ("thick-bottom" in classes) == (regions[index] != regions[index + 6]), index
    assert page.errors == []


# --- saves that never lose or cross moves, and players ------------------------------------------


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


def test_a_reload_right_after_a_move_keeps_it(browser: object, server: str) -> None:
    page = open_game(browser, server)
    game = current_game(page, server)
    a, b = empty_cells(game)[:2]
    for trial in range(3):
        cell(page, a).click()
        page.keyboard.press(f"Shift+Digit{trial + 1}")
        page.wait_for_timeout(300)
        cell(page, b).click()
        page.keyboard.press(f"Shift+Digit{trial + 1}")
        page.reload()  # at once, while the save may still be on its way
        page.wait_for_selector("body[data-ready]")
        assert cell(page, b).locator(".corner span").count() == trial + 1, f"trial {trial}"
        saved = wait_for_saved(page, server, lambda g, n=trial + 1: len(g["corner"][b]) == n)
        assert saved["corner"][a] == saved["corner"][b] == list(range(1, trial + 2))
    assert page.locator("#save-problem").is_hidden()
    assert page.errors == []


def test_two_pages_of_one_game_lose_nothing_and_the_stale_one_is_told(browser: object, server: str) -> None:
    first = open_game(browser, server)
    game = current_game(first, server)
    second = first.context.new_page()  # the same browser, so the same player
    second.errors = []
    second.on("pageerror", lambda error: second.errors.append(str(error)))
    second.goto(f"{server}#game={game['id']}")
    second.wait_for_selector("body[data-ready]")
    a, b = empty_cells(game)[:2]
    cell(first, a).click()
    first.keyboard.press("Shift+Digit4")
    wait_for_saved(first, server, lambda g: g["corner"][a] == [4])
    cell(second, b).click()
    second.keyboard.press("Shift+Digit5")  # based on the version before the first page's move
    second.wait_for_selector("#save-problem[data-kind=stale]")
    assert "another page" in second.inner_text("#save-problem")
    saved = current_game(first, server)
    assert saved["corner"][a] == [4] and saved["corner"][b] == []  # the first page's move is kept
    second.click("#save-reload")
    second.wait_for_function(f"document.querySelector('.cell[data-cell=\"{a}\"] .corner span')")
    assert second.locator("#save-problem").is_hidden()
    cell(second, b).click()
    second.keyboard.press("Shift+Digit5")  # now based on the latest: saved
    saved = wait_for_saved(second, server, lambda g: g["corner"][b] == [5])
    assert saved["corner"][a] == [4]
    assert first.errors == second.errors == []


def test_two_idle_pages_of_one_game_never_warn(browser: object, server: str) -> None:
    """Both pages' clocks run and both save the time every 15 s; only a move moves the version."""
    first = open_game(browser, server)
    game = current_game(first, server)
    second = first.context.new_page()
    second.errors = []
    second.on("pageerror", lambda error: second.errors.append(str(error)))
    for page in (first, second):
        page.clock.install()
        page.goto(f"{server}#game={game['id']}")
        page.wait_for_selector("body[data-ready]")
    for _ in range(3):  # 45 s of both pages' time, in turns
        for page in (first, second):
            page.clock.run_for(15_500)
            page.wait_for_timeout(200)
    saved = wait_for_saved(first, server, lambda g: g["elapsed_ms"] >= 40_000)
    assert saved["version"] == game["version"]  # time alone: no other page need hear of it
    assert first.locator("#save-problem").is_hidden() and second.locator("#save-problem").is_hidden()
    a = empty_cells(game)[0]
    cell(second, a).click()
    second.keyboard.press("Shift+Digit2")  # a move from the second page is saved, not refused
    saved = wait_for_saved(second, server, lambda g: g["corner"][a] == [2])
    assert saved["version"] == game["version"] + 1 and second.locator("#save-problem").is_hidden()
    assert first.errors == second.errors == []


def test_a_deleted_games_page_says_its_moves_are_not_saved(browser: object, server: str) -> None:
    page = open_game(browser, server)
    game = current_game(page, server)
    assert page.request.delete(f"{server}api/games/{game['id']}").status == 204  # as from another page
    newer = page.request.post(server + "api/games", data={"puzzle": EASY}).json()
    assert newer["id"] != game["id"]  # ids are never reused
    cell(page, empty_cells(game)[0]).click()
    page.keyboard.press("Shift+Digit1")
    page.wait_for_selector("#save-problem[data-kind=gone]")
    assert "deleted" in page.inner_text("#save-problem")
    untouched = page.request.get(f"{server}api/games/{newer['id']}").json()
    assert untouched["version"] == 1 and all(m == [] for m in untouched["corner"])


def test_each_browser_has_its_own_games(browser: object, server: str) -> None:
    alice = open_game(browser, server)
    game = current_game(alice, server)
    cookies = {c["name"]: c for c in alice.context.cookies()}
    assert cookies["shudu_player"]["httpOnly"] and cookies["shudu_player"]["sameSite"] == "Strict"
    bob = open_game(browser, server, puzzle=PUZZLE)  # another browser, with a game of its own
    bob.goto(f"{server}#game={game['id']}")  # given alice's address
    bob.reload()
    bob.wait_for_selector("body[data-ready]")
    assert bob.evaluate("location.hash") != f"#game={game['id']}"  # not opened: not bob's
    listed = bob.request.get(server + "api/games").json()["games"]
    assert game["id"] not in [g["id"] for g in listed]
    request = urllib.request.Request(f"{server}api/games/{game['id']}")  # raw HTTP, no cookie
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert refused.value.code == 404
    assert alice.request.get(f"{server}api/games/{game['id']}").ok
    assert alice.errors == bob.errors == []


def test_a_page_on_another_port_cannot_write_into_a_players_games(browser: object, server: str) -> None:
    """The attack of a page on another port of the same host: to the browser it is the same site,
    so the player's SameSite cookie goes with its no-cors fetch and its text/plain form."""
    import http.server
    import threading

    page = open_game(browser, server)
    before = page.request.get(server + "api/games").json()["games"]
    target = server + "api/games"
    body = json.dumps({"puzzle": PUZZLE})
    attack = f"""<!doctype html><title>waiting</title>
<form id="form" method="POST" action="{target}" enctype="text/plain">
<input name='{{"puzzle": "{PUZZLE}", "x": "' value='"}}'></form>
<script>
fetch({json.dumps(target)}, {{method: "POST", mode: "no-cors", credentials: "include", body: {json.dumps(body)}}})
  .then(() => (document.title = "sent"), () => (document.title = "failed"));
</script>"""

    class Attacker(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            data = attack.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        other = page.context.new_page()  # the same browser: it holds the player's cookie
        other.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        other.wait_for_function("document.title !== 'waiting'")
        with other.expect_navigation():
            other.evaluate("document.getElementById('form').submit()")
        refused = json.loads(other.inner_text("body"))
        assert refused["kind"] == "CrossOrigin" and "another origin" in refused["error"]
    finally:
        evil.shutdown()
    assert page.request.get(server + "api/games").json()["games"] == before  # nothing was written
    game = current_game(page, server)
    cell(page, empty_cells(game)[0]).click()
    page.keyboard.press("Shift+Digit3")  # the page's own writes still go through
    wait_for_saved(page, server, lambda g: g["corner"][empty_cells(game)[0]] == [3])
    assert page.errors == []


# --- every size legible ------------------------------------------------------------------------------

PHONE = {"width": 390, "height": 844}
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


def test_16x16_pencil_marks_are_legible_and_a_phone_can_zoom(browser: object, server: str) -> None:
    puzzle = sixteen()
    page = open_game(browser, server, puzzle)
    a, b = [i for i, ch in enumerate(puzzle) if ch == "."][:2]
    cell(page, a).click()
    page.keyboard.press("Shift+Digit1")
    page.keyboard.press("Shift+Digit2")
    cell(page, b).click()
    page.keyboard.press("Control+Digit3")
    assert font_px(page, f'.cell[data-cell="{a}"] .corner span') >= 9
    assert font_px(page, f'.cell[data-cell="{b}"] .centre') >= 9
    assert page.locator("#zoom-button").is_hidden()  # a desktop needs no zoom

    phone = open_game(browser, server, puzzle, viewport=PHONE)
    frame = phone.evaluate("document.getElementById('board-frame').getBoundingClientRect().width")
    phone.click("#zoom-button")
    board = phone.evaluate("document.getElementById('board').getBoundingClientRect().width")
    assert board >= 1.9 * frame  # twice the size, scrolled within its frame
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.click("#zoom-button")
    assert phone.evaluate("document.getElementById('board').getBoundingClientRect().width") <= frame
    nine = open_game(browser, server, viewport=PHONE)
    assert nine.locator("#zoom-button").is_hidden()  # a 9x9 fits a phone as it is
    assert page.errors == phone.errors == nine.errors == []


def shadow_spread(page: Page, index: int) -> float:
    """The spread of a cell's inset box shadow in px (0 without one): a fill spreads over the cell."""
    shadow = page.evaluate(
        f"getComputedStyle(document.querySelector('.cell[data-cell=\"{index}\"]')).boxShadow"
    )
    if shadow == "none":
        return 0.0
    lengths = [float(x[:-2]) for x in shadow.split() if x.endswith("px")]
    return lengths[3] if len(lengths) >= 4 else 0.0


def test_the_selection_is_an_outline_and_region_tints_stay_whole(browser: object, server: str) -> None:
    page = open_game(browser, server, PYRAMID, variant="pyramid")
    tinted = page.evaluate(
        "[...document.querySelectorAll('.cell[data-extra]')].map(c => Number(c.dataset.cell))"
    )
    chosen = next(i for i in tinted if PYRAMID[i] == ".")
    region = cell(page, chosen).get_attribute("data-extra")
    colour = "getComputedStyle(document.querySelector('.cell[data-cell=\"%d\"]')).backgroundColor"
    before = page.evaluate(colour % chosen)
    cell(page, chosen).click()
    assert "selected" in (cell(page, chosen).get_attribute("class") or "")
    assert page.evaluate(colour % chosen) == before  # the tint stays
    assert 0 < shadow_spread(page, chosen) <= 4  # a ring, not a fill
    cell_size = page.evaluate("document.querySelector('.cell').getBoundingClientRect().width")
    assert cell_size > 20
    same_region = [i for i in tinted if cell(page, i).get_attribute("data-extra") == region]
    for i in same_region:  # in the selection's houses or not, the region reads as one colour
        assert shadow_spread(page, i) <= 4, i
    plain = next(
        i for i in range(81) if i not in tinted and "house" in (cell(page, i).get_attribute("class") or "")
    )
    assert shadow_spread(page, plain) > 4  # an untinted cell of the houses is filled as before
    assert page.errors == []


@pytest.mark.skipif(not features()["hint"], reason="this version of shudu has no hint")
def test_the_hint_text_shows_on_a_phone_without_scrolling(browser: object, server: str) -> None:
    phone = open_game(browser, server, viewport=PHONE)
    phone.click("#hint-button")
    phone.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    phone.click("#hint-button")
    phone.wait_for_function("!document.getElementById('hint-text').textContent.startsWith('Look at')")
    phone.click("#hint-button")
    phone.wait_for_selector("#hint-apply:not([hidden])")
    phone.evaluate("window.scrollTo(0, 0)")
    box = phone.evaluate(
        "JSON.parse(JSON.stringify(document.getElementById('hint-text').getBoundingClientRect()))"
    )
    assert box["height"] > 0 and box["top"] >= 0 and box["bottom"] <= PHONE["height"], box
    assert phone.errors == []


@pytest.mark.skipif(not features()["explain"], reason="this version of shudu has no explain")
def test_pressing_next_while_the_explanation_loads_sends_one_request(browser: object, server: str) -> None:
    page = open_game(browser, server)
    held = []
    page.route("**/api/explain", lambda route: held.append(route))  # answered only when released
    page.click("#explain-panel summary")
    for _ in range(4):
        page.click("#explain-next")
    page.wait_for_function("document.getElementById('explain-text').textContent === 'Working…'")
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_function("document.getElementById('explain-count').textContent.startsWith('1 /')")
    assert len(held) == 1
    assert page.errors == []


def test_a_slow_new_puzzle_shows_its_progress_until_it_is_made(browser: object, server: str) -> None:
    page = open_page(browser, server)
    asks = []

    def answer(route: object) -> None:
        asks.append(route)
        if len(asks) <= 2:  # being made: progress, as the server reports it
            making = {
                "size": 9,
                "variant": "standard",
                "level": "easy",
                "state": "making",
                "grids": 40 * len(asks),
                "rated": len(asks),
                "seconds": 1.5 * len(asks),
            }
            route.fulfill(status=202, content_type="application/json", body=json.dumps({"making": making}))
        else:
            route.continue_()

    page.route("**/api/new", answer)
    page.click("#new-button")
    page.select_option("#new-size", "9")
    page.select_option("#new-variant", "standard")
    page.select_option("#new-level", "easy")
    page.click("#new-start")
    page.wait_for_function(
        "document.getElementById('new-progress').textContent.includes('80 grids tried, 2 rated')"
    )
    assert page.locator("#new-start").is_disabled()
    page.wait_for_function("!document.getElementById('new-dialog').open")
    assert len(asks) == 3 and page.inner_text("#new-error") == ""
    assert page.inner_text("#title").startswith("9×9")
    assert page.errors == []


def test_the_new_puzzle_dialog_pictures_the_banks_counts_by_level(
    browser: object, server: str, server_db: Path
) -> None:
    from shudu.formats import to_json
    from shudu.generator import generate_many
    from shudu.store import Store

    # kinds no other test asks for, so nothing takes them from the bank meanwhile
    made = {
        ("windoku", "easy"): list(generate_many(3, size=4, variant="windoku", seed=5)),
        ("anti-knight", "easy"): list(generate_many(1, size=4, variant="anti-knight", seed=6)),
    }
    Store(server_db).add_to_bank(
        [(to_json(m.puzzle), level) for (_, level), puzzles in made.items() for m in puzzles], source="test"
    )
    page = open_page(browser, server)
    page.click("#new-button")
    page.wait_for_selector("#bank-chart .bank-row")
    bank = page.request.get(f"{server}api/bank").json()
    # every bar is one kind's count at one level, as the server counts them
    drawn = page.eval_on_selector_all(
        "#bank-chart .bank-row rect",
        """rects => rects.map(r => [Number(r.parentNode.dataset.size), r.parentNode.dataset.variant,
                                   r.dataset.level, Number(r.dataset.count)])""",
    )
    expected = [[k["size"], k["variant"], k["level"], k["puzzles"]] for k in bank["kinds"]]
    assert sorted(drawn) == sorted(expected)
    assert [4, "windoku", "easy", 3] in drawn and [4, "anti-knight", "easy", 1] in drawn
    assert page.get_attribute("#bank-chart", "data-total") == str(bank["total"])
    # the bars of one scale: three puzzles draw three times as wide as one
    widths = {
        variant: float(
            page.get_attribute(
                f'#bank-chart .bank-row[data-size="4"][data-variant="{variant}"] rect', "width"
            )
        )
        for variant in ("windoku", "anti-knight")
    }
    assert widths["windoku"] == pytest.approx(3 * widths["anti-knight"], rel=0.02)
    assert page.errors == []


# --- the teaching view ------------------------------------------------------------------------------


def technique_case(name: str) -> dict:
    """A board from the technique file where ``name`` is the next step: puzzle, values, candidates."""
    cases = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())
    return next(case for case in cases if case["technique"] == name)


def peer_candidates(values: str) -> list[set[int]]:
    """Each empty cell's candidates on a 9x9 grid: the digits no row, column or box peer holds."""
    out = []
    for i in range(81):
        if values[i] != ".":
            out.append(set())
            continue
        r, c = divmod(i, 9)
        peers = {r * 9 + k for k in range(9)} | {k * 9 + c for k in range(9)}
        peers |= {(r // 3 * 3 + a) * 9 + c // 3 * 3 + b for a in range(3) for b in range(3)}
        out.append(set(range(1, 10)) - {int(values[p]) for p in peers if values[p] != "."})
    return out


#: For each cell on the page, its candidate spans in order: whether each shows text, and its class.
CANDIDATE_SPANS = """() => Object.fromEntries([...document.querySelectorAll('.cell[data-cell]')].map(
    (c) => [c.dataset.cell, [...c.querySelectorAll('.cands span')].map((s) => [s.innerText !== '', s.className])]))"""


def shown_candidates(page: Page) -> dict[int, tuple[set[int], set[int], set[int]]]:
    """The candidates drawn in each cell, read in one call: all shown, those struck, those placed."""
    drawn = {}
    for index, spans in page.evaluate(CANDIDATE_SPANS).items():
        shown, struck, placed = set(), set(), set()
        for k, (text, kind) in enumerate(spans):
            if text:
                shown.add(k + 1)
            if "out" in kind:
                struck.add(k + 1)
            if "in" in kind.split():
                placed.add(k + 1)
        drawn[int(index)] = (shown, struck, placed)
    return drawn


@pytest.mark.skipif(not features()["hint"], reason="this version of shudu has no hint")
def test_a_chain_hint_draws_every_candidate_the_struck_ones_and_its_links(
    browser: object, server: str, shots: Path
) -> None:
    case = technique_case("X-Chain")
    puzzle, values = case["puzzle"], case["values"]
    entries = [0 if puzzle[i] != "." or values[i] == "." else int(values[i]) for i in range(81)]
    centre = [[int(d) for d in marks] for marks in case["candidates"]]
    page = open_game(browser, server, puzzle)
    game = current_game(page, server)
    saved = page.request.put(
        f"{server}api/games/{game['id']}",
        data={"version": game["version"], "entries": entries, "centre": centre},
    )
    assert saved.ok, saved.text()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    answer = page.request.post(
        server + "api/hint", data={"puzzle": puzzle, "entries": entries, "pencil": centre, "level": "step"}
    ).json()
    step = answer["step"]
    assert step["structure"]["type"] in ("chain", "loop")
    page.click("#hint-button")
    page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    page.click("#hint-button")
    page.wait_for_function("!document.getElementById('hint-text').textContent.startsWith('Look at')")
    page.click("#hint-button")
    page.wait_for_selector(".links line.link", state="attached")
    empties = [i for i in range(81) if values[i] == "."]
    removed = {(e["cell"], e["digit"]) for e in step["eliminations"]}
    drawn = shown_candidates(page)
    for i in empties:  # every candidate of the board at this moment, from the player's marks
        shown, struck, _ = drawn[i]
        assert shown == set(centre[i]), i
        assert struck == {d for (c, d) in removed if c == i}, i
    links = step["structure"]["links"]
    strong = sum(link["kind"] == "strong" for link in links)
    assert page.locator(".links line.strong").count() == strong
    assert page.locator(".links line.weak").count() == len(links) - strong
    assert strong and len(links) - strong
    dash = "getComputedStyle(document.querySelector('.links line.%s')).strokeDasharray"
    assert page.evaluate(dash % "strong") == "none" and page.evaluate(dash % "weak") != "none"
    rings = sum(len(node["cells"]) for node in step["structure"]["nodes"])
    assert page.locator(".links circle.node").count() == rings
    page.screenshot(path=str(shots / "teach-chain.png"))
    page.click("#theme-button")  # dark: the struck candidates keep a tinted chip behind them
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    chip = page.evaluate("getComputedStyle(document.querySelector('.cands .out')).backgroundColor")
    assert chip not in ("rgba(0, 0, 0, 0)", "transparent"), chip
    page.screenshot(path=str(shots / "teach-chain-dark.png"))
    page.click("#theme-button")
    page.click("#hint-apply")
    assert page.locator(".links").count() == 0  # applied: the drawing goes with the hint
    assert page.errors == []


@pytest.mark.skipif(not features()["explain"], reason="this version of shudu has no explain")
def test_each_explanation_step_draws_the_candidates_of_its_moment(browser: object, server: str) -> None:
    page = open_game(browser, server, EASY)
    page.click("#explain-panel summary")
    page.wait_for_function("document.getElementById('explain-count').textContent.startsWith('1 /')")
    steps = page.request.post(server + "api/explain", data={"puzzle": EASY}).json()["steps"]
    values = list(EASY)
    removed: set[tuple[int, int]] = set()  # candidates taken out by earlier steps
    for index, step in enumerate(steps[:8]):
        if index:
            page.click("#explain-next")
            page.wait_for_function(
                f"document.getElementById('explain-count').textContent.startsWith('{index + 1} /')"
            )
        expected = peer_candidates("".join(values))
        placed = {p["cell"]: p["digit"] for p in step["placements"]}
        drawn = shown_candidates(page)
        for i in range(81):
            if values[i] != ".":
                continue
            shown, struck, put = drawn[i]
            assert shown == {d for d in expected[i] if (i, d) not in removed}, (index, i)
            assert put == ({placed[i]} if i in placed else set())
            assert struck == {e["digit"] for e in step["eliminations"] if e["cell"] == i}
        for i, d in placed.items():
            values[i] = str(d)
        removed |= {(e["cell"], e["digit"]) for e in step["eliminations"]}
    assert page.errors == []


def test_show_candidates_fills_the_centre_marks_and_a_wrong_mark_is_named(
    browser: object, server: str
) -> None:
    page = open_game(browser, server, EASY)
    game = current_game(page, server)
    page.click("#candidates-button")
    expected = peer_candidates(EASY)
    for i in [i for i in range(81) if EASY[i] == "."][:30]:
        assert cell(page, i).locator(".centre").inner_text() == "".join(map(str, sorted(expected[i])))
    saved = wait_for_saved(page, server, lambda g: any(g["centre"]))
    assert [set(m) for m in saved["centre"]] == expected
    page.click("#undo-button")
    assert cell(page, next(i for i in range(81) if EASY[i] == ".")).locator(".centre").count() == 0
    page.click("#redo-button")
    if features()["hint"]:
        solution = solution_of(game)
        target = next(i for i in range(81) if EASY[i] == "." and len(expected[i]) > 1)
        cell(page, target).click()
        page.keyboard.press(f"Control+Digit{solution[target]}")  # take the right digit out of the marks
        page.click("#hint-button")
        page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
        name = f"r{target // 9 + 1}c{target % 9 + 1}"
        assert f"pencil marks of {name}" in page.inner_text("#hint-text")
        assert "wrong-marks" in (cell(page, target).get_attribute("class") or "")
    assert page.errors == []
