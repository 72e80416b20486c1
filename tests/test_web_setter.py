"""Setter mode in a real browser, on a desktop and on a phone: givens typed into an empty grid and a
pasted puzzle update the panel after each change; the true candidates drawn in the empty cells are
those of every solution, a suggested given clicked makes the puzzle unique, the redundant givens
are marked, and an answer about an older grid is never shown. The browser, the server and the
helpers are those of browser_support.py; these tests are in the slow tier. Set
SHUDU_SCREENSHOTS=DIR to keep the pictures (docs/screenshots).
"""

from __future__ import annotations

from typing import Any

import pytest

import browser_support as support
import shudu
from browser_support import DESKTOP, PHONE, SIZES, Page, features, open_page

server_db, server, browser, shots = support.server_db, support.server, support.browser, support.shots

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not features()["setter"], reason="this version of shudu has no setter's workshop"),
]

#: A unique 9x9 with 34 givens (Inkala's puzzle and twelve digits of its solution); many can go.
RICH = "8....3....436..1...75.9.28..5.2.7..6....457..2..1.9.3..21...368..85...1..9.3..4.2"
#: RICH less four givens: a few solutions.
FEW = "8....3....436..1...75.9.28..5.2.7..6....457..2..1.9.3..21...3.8..8....1..9.3..4.2"


def panel_answer(page: Page, action: Any) -> dict[str, Any]:
    """The answer the panel shows after ``action``: the last /api/setter answer of the grid as it
    stands once the page has asked about it (an edit made while one is in flight is asked next)."""
    with page.expect_response(lambda r: r.url.endswith("/api/setter") and r.request.method == "POST") as info:
        action()
    page.wait_for_function(
        "!document.getElementById('setter-panel').hasAttribute('aria-busy')"
        " && !document.getElementById('setter-facts').classList.contains('stale')"
    )
    response = info.value
    assert response.ok, response.text()
    return dict(response.json())


def open_setter(browser: object, server: str, size: dict) -> tuple[Page, dict[str, Any]]:
    page = open_page(browser, server, viewport=size)
    if size == PHONE:  # on a phone, Setter waits under More (the header has no room for it)
        assert not page.is_visible("#setter-button")
        page.click("#more-button")
        answer = panel_answer(page, lambda: page.click("#setter-more"))
    else:
        assert not page.is_visible("#setter-more")
        answer = panel_answer(page, lambda: page.click("#setter-button"))
    return page, answer


def message(page: Page) -> str:
    return str(page.text_content("#setter-message") or "")


def grid_givens(page: Page) -> str:
    """The givens the board shows, as one line."""
    return str(
        page.evaluate(
            """[...document.querySelectorAll('#setter-board .cell')].map((cell) =>
                cell.classList.contains('given') && cell.querySelector('.value')
                  ? cell.querySelector('.value').textContent : '.').join('')"""
        )
    )


def shown_candidates(page: Page) -> dict[int, list[int]]:
    """The small digits drawn in each empty cell."""
    found = page.evaluate(
        """Object.fromEntries([...document.querySelectorAll('#setter-board .cell')]
             .filter((cell) => cell.querySelector('.cands'))
             .map((cell) => [cell.dataset.cell, [...cell.querySelectorAll('.cands > span')]
               .map((span) => span.textContent).filter(Boolean).map(Number)]))"""
    )
    return {int(cell): digits for cell, digits in found.items()}


def suggestions(page: Page) -> dict[int, int]:
    """The suggested givens drawn on the board."""
    found = page.evaluate(
        """Object.fromEntries([...document.querySelectorAll('#setter-board .cell')]
             .filter((cell) => cell.querySelector('.suggested'))
             .map((cell) => [cell.dataset.cell, Number(cell.querySelector('.suggested').textContent)]))"""
    )
    return {int(cell): digit for cell, digit in found.items()}


def type_puzzle(page: Page, puzzle: str) -> None:
    """Enter ``puzzle``'s givens cell by cell with a click and a digit key, as a setter does,
    without waiting between them, and wait for the panel to catch up with the grid."""
    cells = [(i, ch) for i, ch in enumerate(puzzle) if ch != "."]

    def enter() -> None:
        for cell, digit in cells:
            page.locator(f'#setter-board .cell[data-cell="{cell}"]').click()
            page.keyboard.press(digit)

    panel_answer(page, enter)


@pytest.mark.parametrize("size", SIZES)
def test_givens_typed_and_a_suggestion_clicked_update_the_panel(
    browser: object, server: str, size: dict, shots: Any
) -> None:
    page, first = open_setter(browser, server, size)
    tag = "phone" if size == PHONE else "desktop"
    if size == PHONE:  # the phone's picture in the dark theme
        page.evaluate("document.documentElement.dataset.theme = 'dark'")
    assert first["count"]["complete"] is False and "at least 1000 solutions" in message(page).lower()
    # the givens of FEW typed in one after another: the panel catches up with the grid as typed
    type_puzzle(page, FEW)
    assert grid_givens(page) == FEW
    solutions = [grid.cells for grid in shudu.solutions(FEW)]
    page.wait_for_function(
        f"document.getElementById('setter-message').textContent.startsWith('{len(solutions)} solutions')"
    )
    union = {c: sorted({s[c] for s in solutions}) for c, ch in enumerate(FEW) if ch == "."}
    # each empty cell shows its true candidates, but a cell with a suggested given shows that
    suggested = suggestions(page)
    assert suggested and all(digit in union[cell] for cell, digit in suggested.items())
    assert shown_candidates(page) == {c: d for c, d in union.items() if c not in suggested}
    if size == PHONE:
        page.screenshot(path=str(shots / f"setter-{tag}.png"))
    # a suggested given, clicked, makes it unique
    suggested = page.locator("#setter-board .suggested").first
    cell = int(suggested.locator("xpath=..").get_attribute("data-cell") or -1)
    answer = panel_answer(page, suggested.click)
    givens = grid_givens(page)
    assert givens[cell] != "." and shudu.count(givens, 2) == 1
    assert answer["count"]["status"] == "unique" and message(page).startswith("One solution")
    facts = page.inner_text("#setter-facts")
    assert answer["rating"]["level"] in facts
    # the redundant givens are marked on the board, and each can go
    marked = page.eval_on_selector_all(
        "#setter-board .cell.redundant", "cells => cells.map(c => Number(c.dataset.cell))"
    )
    assert marked == answer["redundant"]["givens"]
    for given in marked:
        assert shudu.count(givens[:given] + "." + givens[given + 1 :], 2) == 1
    if size != PHONE:
        page.screenshot(path=str(shots / f"setter-{tag}.png"))
    assert page.errors == []


def test_a_pasted_puzzle_and_the_keyboard_alone(browser: object, server: str) -> None:
    page, _ = open_setter(browser, server, DESKTOP)
    page.fill("#setter-paste", RICH)
    answer = panel_answer(page, lambda: page.click("#setter-load"))
    assert grid_givens(page) == RICH and answer["count"]["status"] == "unique"
    # from the keyboard: r1c2 (empty) gets the 8 of r1c1 — a clash, said at once, asked for nothing
    page.focus("#setter-board")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("8")
    page.wait_for_function("document.getElementById('setter-message').textContent.includes('clash')")
    assert "r1c1" in message(page) and "r1c2" in message(page)
    # Backspace clears it; the panel answers about RICH again
    answer = panel_answer(page, lambda: page.keyboard.press("Backspace"))
    assert grid_givens(page) == RICH and message(page).startswith("One solution")
    # r1c1's given cleared from the keyboard (it is needed): several solutions, and Enter on a
    # suggested given adds it
    assert shudu.count("." + RICH[1:], 2) == 2
    page.keyboard.press("ArrowLeft")
    answer = panel_answer(page, lambda: page.keyboard.press("Delete"))
    assert answer["count"]["status"] == "multiple" and grid_givens(page) == "." + RICH[1:]
    row, col = divmod(answer["make_unique"]["added"][0]["cell"], 9)
    for _ in range(row):
        page.keyboard.press("ArrowDown")
    for _ in range(col):
        page.keyboard.press("ArrowRight")
    answer = panel_answer(page, lambda: page.keyboard.press("Enter"))
    assert answer["count"]["status"] == "unique"
    # Z undoes, step by step, back to RICH
    for _ in range(4):
        if grid_givens(page) == RICH:
            break
        page.keyboard.press("z")
    assert grid_givens(page) == RICH
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_no_serious_accessibility_problems_in_the_setter(browser: object, server: str, size: dict) -> None:
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python"
    )
    page, _ = open_setter(browser, server, size)
    for puzzle in (FEW, RICH):  # suggestions, then redundant givens and backdoors
        page.fill("#setter-paste", puzzle)
        panel_answer(page, lambda: page.click("#setter-load"))
        for theme in ("light", "dark"):
            page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
            results = axe.Axe().run(page)
            bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
            assert bad == [], [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]


def test_an_answer_about_an_older_grid_is_never_shown(browser: object, server: str) -> None:
    page, _ = open_setter(browser, server, DESKTOP)
    page.fill("#setter-paste", RICH)
    panel_answer(page, lambda: page.click("#setter-load"))
    # hold every answer until the test lets it through
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route("**/api/setter", hold)

    def wait_held(count: int) -> None:
        for _ in range(500):
            if len(held) >= count:
                return
            page.wait_for_timeout(20)
        raise AssertionError(f"the page sent {len(held)} requests, not {count}")

    page.focus("#setter-board")  # r1c1, RICH's 8, which it needs
    page.keyboard.press("Delete")
    wait_held(1)  # asked about RICH less r1c1: two solutions
    # the board answers at once while the request is out: the 8 goes back in
    page.keyboard.press("8")
    assert grid_givens(page) == RICH
    held[0].continue_()
    wait_held(2)  # the older answer came, and the page asked about the grid as it stands
    assert not message(page).startswith("2 solutions")
    assert "stale" in (page.get_attribute("#setter-facts", "class") or "")
    held[1].continue_()
    page.wait_for_function("!document.getElementById('setter-facts').classList.contains('stale')")
    assert message(page).startswith("One solution") and len(held) == 2
    assert page.errors == []


def test_a_plain_line_pasted_takes_the_variant_chosen(browser: object, server: str) -> None:
    page, _ = open_setter(browser, server, PHONE)
    panel_answer(page, lambda: page.select_option("#setter-variant", "x"))
    # a line that fits X: read as X, the diagonals drawn, the count X's
    panel_answer(page, lambda: (page.fill("#setter-paste", "1...........2..."), page.click("#setter-load")))
    assert (
        page.input_value("#setter-variant") == "x"
        and page.locator("#setter-board .overlay line").count() == 2
    )
    assert shudu.count("1...........2...", 1000, variant="x") == 4
    page.wait_for_function("document.getElementById('setter-message').textContent.startsWith('4 solutions')")
    # a line whose givens break X: read as standard, and the message says why
    panel_answer(page, lambda: (page.fill("#setter-paste", FEW), page.click("#setter-load")))
    assert page.input_value("#setter-variant") == "standard"
    page.wait_for_function("document.getElementById('setter-message').textContent.startsWith('2 solutions')")
    assert "Read as standard (as x: r2c2 and r5c5 both hold 4 in diagonal 1)" in message(page)
    assert page.errors == []
