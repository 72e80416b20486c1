"""The page as players use it, at a phone's size (390x844) and a desktop's: the layout, the digit
counts, notes, settings, pause, the completion screen, the share link and accessibility.

The browser, the server and the helpers are those of browser_support.py (Debian's chromium driven
by Playwright); these tests are in the slow tier too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# the fixtures and helpers of the browser tests (this module is skipped where they are absent)
import browser_support as web
from browser_support import (
    EASY,
    PHONE,
    SIZES,
    Page,
    cell,
    current_game,
    empty_cells,
    features,
    new_puzzle,
    open_game,
    solution_of,
    wait_for_saved,
)

server_db, server, browser, shots = web.server_db, web.server, web.browser, web.shots

pytestmark = pytest.mark.slow


def box(page: Page, selector: str) -> dict:
    return dict(
        page.evaluate(
            f"JSON.parse(JSON.stringify(document.querySelector({selector!r}).getBoundingClientRect()))"
        )
    )


def in_view(page: Page, selector: str, size: dict) -> bool:
    b = box(page, selector)
    return b["height"] > 0 and b["top"] >= 0 and b["bottom"] <= size["height"] and b["right"] <= size["width"]


def left_of(page: Page, digit: int) -> str:
    return page.inner_text(f'#pad button[data-digit="{digit}"] .left')


@pytest.mark.skipif(not features()["hint"], reason="this version of shudu has no hint")
@pytest.mark.parametrize("size", SIZES)
def test_the_board_comes_first_and_the_pad_stays_in_view_after_a_hint(
    browser: object, server: str, size: dict, shots: Path
) -> None:
    page = open_game(browser, server, viewport=size, has_touch=True)
    board, pad = box(page, "#board"), box(page, "#pad")
    if size is PHONE:
        assert board["bottom"] <= pad["top"]  # the pad under the board
        pad_rows = {
            round(b["top"])
            for b in page.evaluate(
                "[...document.querySelectorAll('#pad button')].map(b => b.getBoundingClientRect().toJSON())"
            )
        }
        assert len(pad_rows) == 1  # one row of digits
        assert box(page, "#undo-button")["top"] >= pad["bottom"]  # then Undo, Erase, Notes, Hint
    else:
        assert pad["left"] >= board["right"]  # beside the board
    page.click("#hint-button")
    page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    page.click("#hint-button")
    page.wait_for_function("!document.getElementById('hint-text').textContent.startsWith('Look at')")
    page.click("#hint-button")
    page.wait_for_selector("#hint-apply:not([hidden])")
    for selector in (
        "#board",
        "#pad",
        "#undo-button",
        "#erase-button",
        "#notes-button",
        "#hint-button",
        "#hint-text",
    ):
        assert in_view(page, selector, size), selector
    page.screenshot(path=str(shots / f"hint-{'phone' if size is PHONE else 'desktop'}.png"))
    assert page.errors == []


def test_taps_on_the_pad_and_tools_never_scroll_the_page(browser: object, server: str) -> None:
    page = open_game(browser, server, viewport=PHONE, has_touch=True)
    game = current_game(page, server)
    cell(page, empty_cells(game)[0]).tap()
    page.evaluate("window.scrollTo(0, 0)")
    for selector in (
        '#pad button[data-digit="3"]',
        '#pad button[data-digit="5"]',
        "#undo-button",
        "#notes-button",
        "#erase-button",
    ):
        page.locator(selector).tap()
        assert page.evaluate("window.scrollY") == 0, selector
    assert page.evaluate("document.activeElement.id") == "board"  # the keyboard still drives the board
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_digit_counts_go_down_and_a_finished_digit_is_greyed(
    browser: object, server: str, size: dict
) -> None:
    page = open_game(browser, server, viewport=size)
    game = current_game(page, server)
    solution = solution_of(game)
    givens = game["puzzle"]["givens"]
    # the digit with the fewest cells left to fill
    digit = min(
        range(1, 10), key=lambda d: sum(1 for i, g in enumerate(givens) if not g and solution[i] == d)
    )
    cells = [i for i, g in enumerate(givens) if not g and solution[i] == digit]
    assert left_of(page, digit) == str(len(cells))
    for k, index in enumerate(cells):
        cell(page, index).click()
        page.keyboard.press(str(digit))
        left = len(cells) - k - 1
        assert left_of(page, digit) == (str(left) if left else "")
    assert "done" in (page.get_attribute(f'#pad button[data-digit="{digit}"]', "class") or "")
    assert "0 left" in (page.get_attribute(f'#pad button[data-digit="{digit}"]', "aria-label") or "")
    page.click("#undo-button")  # a digit taken back is to be placed again
    assert left_of(page, digit) == "1"
    assert "done" not in (page.get_attribute(f'#pad button[data-digit="{digit}"]', "class") or "")
    assert page.errors == []


def test_n_toggles_notes_and_the_selected_digit_is_lit_in_marks(browser: object, server: str) -> None:
    page = open_game(browser, server)
    game = current_game(page, server)
    a, b = empty_cells(game)[:2]
    cell(page, a).click()
    page.keyboard.press("n")
    assert page.get_attribute("#notes-button", "aria-pressed") == "true"
    page.keyboard.press("4")
    page.keyboard.press("6")
    assert cell(page, a).locator(".centre").text_content() == "46"
    assert cell(page, a).locator(".value").count() == 0
    page.keyboard.press("n")
    assert page.get_attribute("#notes-button", "aria-pressed") == "false"
    cell(page, b).click()
    page.keyboard.press("Shift+Digit4")  # Shift: a corner mark, whatever the toggle
    assert cell(page, b).locator(".corner span").inner_text() == "4"
    # a cell holding 4 selected: every mark 4 is lit, the others not
    given_four = next(i for i, g in enumerate(game["puzzle"]["givens"]) if g == 4)
    cell(page, given_four).click()
    assert cell(page, a).locator(".centre .lit").inner_text() == "4"
    assert cell(page, b).locator(".corner .lit").count() == 1
    page.keyboard.press("z")  # Z undoes, Y redoes
    assert cell(page, b).locator(".corner").count() == 0
    page.keyboard.press("y")
    assert cell(page, b).locator(".corner span").inner_text() == "4"
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_settings_persist_across_a_reload(browser: object, server: str, size: dict) -> None:
    page = open_game(browser, server, viewport=size)
    game = current_game(page, server)
    page.click("#settings-button")
    page.wait_for_selector("#set-check", state="visible")
    assert box(page, "#board")["top"] >= 0  # the board stays in view
    page.check("#set-check")
    page.uncheck("#set-highlight")
    page.check("#set-dark")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert (
        page.is_checked("#set-check")
        and not page.is_checked("#set-highlight")
        and page.is_checked("#set-dark")
    )
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    a = empty_cells(game)[0]
    cell(page, a).click()
    assert page.locator(".cell.house").count() == 0  # highlights off
    # check as you go: a wrong digit is marked at once
    solution = solution_of(game)
    wrong = next(d for d in range(1, 10) if d != solution[a])
    page.keyboard.press(str(wrong))
    page.wait_for_function(f"document.querySelector('.cell[data-cell=\"{a}\"]').classList.contains('wrong')")
    assert page.errors == []


def test_pause_hides_the_grid_and_stops_play(browser: object, server: str) -> None:
    page = open_game(browser, server, viewport=PHONE)
    game = current_game(page, server)
    a = empty_cells(game)[0]
    cell(page, a).click()
    page.keyboard.press("p")
    assert page.is_visible("#paused")
    cover, board = box(page, "#paused"), box(page, "#board")
    assert cover["width"] >= board["width"] and cover["height"] >= board["height"]
    page.keyboard.press("5")  # nothing while paused
    assert cell(page, a).inner_text() == ""
    page.click("#paused")
    assert page.is_hidden("#paused")
    page.focus("#board")
    page.keyboard.press("5")
    assert cell(page, a).inner_text() == "5"
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_solving_shows_the_completion_screen(browser: object, server: str, size: dict, shots: Path) -> None:
    page = open_game(browser, server, viewport=size)
    game = current_game(page, server)
    solution = solution_of(game)
    empties = empty_cells(game)
    if features()["hint"]:
        page.click("#hint-button")
        page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    for index in empties:
        cell(page, index).click()
        page.keyboard.press(str(solution[index]))
    page.wait_for_selector("#done-dialog[open]")
    facts = page.inner_text("#done-facts")
    assert "Time" in facts and "Mistakes" in facts and "Level" in facts
    assert (
        f"Hints\n{1 if features()['hint'] else 0}" in facts
        or f"Hints\t{1 if features()['hint'] else 0}" in facts
    )
    page.wait_for_function("document.querySelectorAll('#done-history tbody tr').length > 0")
    page.screenshot(path=str(shots / f"done-{'phone' if size is PHONE else 'desktop'}.png"))
    assert wait_for_saved(page, server, lambda g: g["finished"])["finished"]
    assert page.errors == []


def test_a_share_link_opens_the_puzzle_for_anyone(browser: object, server: str) -> None:
    page = open_game(browser, server)
    game = current_game(page, server)
    cell(page, empty_cells(game)[0]).click()
    page.keyboard.press("1")  # the player's moves stay theirs
    page.click("#share-button")
    link = page.input_value("#share-link")
    assert "#puzzle=" in link and "game=" not in link
    stranger = browser.new_context(viewport=PHONE)  # no cookie, no storage
    other = stranger.new_page()
    other.goto(link)
    other.wait_for_selector("body[data-ready]")
    other.wait_for_function("location.hash.startsWith('#game=')")
    theirs = current_game(other, server)
    assert theirs["puzzle"]["givens"] == game["puzzle"]["givens"]
    assert not any(theirs["entries"])
    assert theirs["id"] != game["id"]
    stranger.close()
    assert page.errors == []


def test_jigsaw_regions_are_tinted_neighbours_apart(browser: object, server: str) -> None:
    page = open_game(browser, server)
    new_puzzle(page, 6, "jigsaw", "easy")
    layout = current_game(page, server)["puzzle"]["json"]["layout"]
    regions = [int(ch, 36) for ch in layout] if isinstance(layout, str) else layout
    tints = page.evaluate("[...document.querySelectorAll('.cell')].map(c => c.dataset.tint)")
    assert all(t is not None for t in tints)
    for i in range(36):
        for j in (i + 1 if i % 6 < 5 else None, i + 6 if i < 30 else None):
            if j is None:
                continue
            assert (tints[i] == tints[j]) == (regions[i] == regions[j]), (i, j)
    standard = open_game(browser, server)
    assert standard.locator(".cell[data-tint]").count() == 0  # boxes need no tint
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_no_serious_accessibility_problems(browser: object, server: str, size: dict) -> None:
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python"
    )
    page = open_game(browser, server, EASY, viewport=size)
    if size is PHONE:
        page.click("#more-button")
    page.click("#settings-panel summary")
    results = axe.Axe().run(page)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == [], [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]


@pytest.mark.skipif(not features()["hint"], reason="this version of shudu has no hint")
def test_the_vague_hint_shades_a_house_less_the_steps_cells(browser: object, server: str) -> None:
    page = open_game(browser, server, viewport=PHONE)
    with page.expect_response("**/api/hint") as answer:
        page.click("#hint-button")
    step = answer.value.json()["step"]
    page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    shaded = page.evaluate("[...document.querySelectorAll('.cell.area')].map(c => Number(c.dataset.cell))")
    # a house, less the cells the step is about: where to look, not what to find
    target = set(step["cells"]) | {p["cell"] for p in step["placements"]}
    target |= {e["cell"] for e in step["eliminations"]}
    assert shaded and not set(shaded) & target
    houses = [{r * 9 + c for c in range(9)} for r in range(9)] + [
        {r * 9 + c for r in range(9)} for c in range(9)
    ]
    houses += [{(b // 3 * 3 + k // 3) * 9 + b % 3 * 3 + k % 3 for k in range(9)} for b in range(9)]
    assert any(set(shaded) <= house and house - set(shaded) <= target for house in houses)
    assert page.locator(".cell.step").count() == 0
    page.click("#hint-button")  # the next level marks the step's cells
    page.wait_for_function("!document.getElementById('hint-text').textContent.startsWith('Look at')")
    assert page.locator(".cell.step").count() > 0
    assert page.errors == []
