"""The page in a real browser: Debian's chromium driven by Playwright, the server run for real
(the fixtures and helpers are in browser_support.py): play, hints, reloads, saves from two pages,
players and cross-site writes.

Screenshots of a 9x9, a 6x6 and a pyramid game (and the phone-width and dark views) go to the
test's temporary folder; set SHUDU_SCREENSHOTS=DIR to also copy them there (docs/screenshots).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import browser_support as support
from browser_support import (
    EASY,
    PUZZLE,
    cell,
    current_game,
    empty_cells,
    features,
    new_puzzle,
    open_game,
    open_page,
    solution_of,
    wait_for_saved,
)

server_db, server, browser, shots = support.server_db, support.server, support.browser, support.shots

# the slow tier: .ci/run runs it with 'pytest -m slow' (README.md, "Tests")
pytestmark = pytest.mark.slow


def test_play_hint_solve_reload_and_resume(browser: object, server: str, shots: Path) -> None:
    page = open_page(browser, server)
    assert page.locator(".cell").count() == 81
    game = current_game(page, server)
    solution = solution_of(game)
    givens = game["puzzle"]["givens"]
    empties = [i for i, g in enumerate(givens) if not g]

    # a right digit by keyboard, a wrong one from the pad (conflict shown), pencil marks, undo
    first = empties[0]
    # an empty cell with a given in its row, and that given's digit: a clash
    second, clash = next(
        (i, givens[i // 9 * 9 + c]) for i in empties[1:] for c in range(9) if givens[i // 9 * 9 + c]
    )
    third = next(i for i in empties if i not in (first, second))
    cell(page, first).click()
    page.keyboard.press(str(solution[first]))
    assert cell(page, first).inner_text() == str(solution[first])
    cell(page, second).click()
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
