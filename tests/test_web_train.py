"""Train mode in a real browser, on a desktop and on a phone: a drill of X-Wing is shown with its
candidates; marking the step's candidates and pressing Check says "correct", marking others says
which were wrong and which were missed; the step is then drawn and the player's statistics for the
technique move on. The browser, the server and the helpers are those of browser_support.py; these
tests are in the slow tier. Set SHUDU_SCREENSHOTS=DIR to keep the pictures (docs/screenshots).
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
    pytest.mark.skipif(not features()["train"], reason="this version of shudu has no trainer"),
]

TECHNIQUE = "X-Wing"


def name(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def drill_shown(page: Page, action: Any) -> dict[str, Any]:
    """The drill the page shows after ``action`` (the API's answer it drew)."""
    with page.expect_response(lambda r: r.url.endswith("/api/train") and r.request.method == "POST") as info:
        action()
    response = info.value
    assert response.ok, response.text()
    page.wait_for_function("!document.getElementById('train-check').disabled")
    return dict(response.json())


def open_train(browser: object, server: str, size: dict) -> tuple[Page, dict[str, Any]]:
    page = open_page(browser, server, viewport=size)
    page.evaluate(f"localStorage.setItem('shudu-train-technique', '{TECHNIQUE}')")
    drill = drill_shown(page, lambda: page.click("#train-button"))
    assert page.input_value("#train-technique") == TECHNIQUE
    assert drill["technique"] == TECHNIQUE
    return page, drill


def candidate(page: Page, cell: int, digit: int) -> Any:
    return page.locator(f'#train-board .cell[data-cell="{cell}"] .cands > span:nth-child({digit})')


def message(page: Page) -> str:
    return str(page.text_content("#train-message") or "")


def shown_candidates(page: Page) -> list[list[int]]:
    return list(
        page.eval_on_selector_all(
            "#train-board .cell",
            "cells => cells.map(c => [...c.querySelectorAll('.cands > span')]"
            ".map((s, k) => s.textContent ? k + 1 : 0).filter(Boolean))",
        )
    )


@pytest.mark.parametrize("size", SIZES)
def test_a_drill_checked_right_and_wrong(browser: object, server: str, size: dict, shots: Any) -> None:
    page, drill = open_train(browser, server, size)
    tag = "phone" if size is PHONE else "desktop"
    # the board shows the drill's candidates and digits
    assert shown_candidates(page) == drill["candidates"]
    answer = drill["answer"]
    assert answer["eliminations"] and not answer["placements"]
    page.screenshot(path=str(shots / f"train-{tag}-drill.png"))

    # the step's candidates, clicked: correct
    for item in answer["eliminations"]:
        candidate(page, item["cell"], item["digit"]).click()
    marked = page.text_content("#train-picked") or ""
    assert all(f"{name(i['cell'])} −{i['digit']}" in marked for i in answer["eliminations"])
    page.click("#train-check")
    page.wait_for_function("document.getElementById('train-check').disabled")
    assert message(page).startswith("Correct"), message(page)
    # the step is drawn: its eliminations struck, its explanation in words
    struck = page.eval_on_selector_all(
        "#train-board .cands > span.out",
        "ss => ss.map(s => [+s.closest('.cell').dataset.cell, +s.textContent])",
    )
    assert sorted(map(tuple, struck)) == sorted((i["cell"], i["digit"]) for i in answer["eliminations"])
    assert answer["explanation"] in (page.text_content("#train-words") or "")
    assert "1 drill done, 100% correct" in (page.text_content("#train-stats") or "")
    page.screenshot(path=str(shots / f"train-{tag}-correct.png"))

    # the next drill: one step's candidate missed, one candidate the step leaves marked
    drill = drill_shown(page, lambda: page.click("#train-next"))
    steps = [drill["answer"], *drill["others"]]
    removed = {(i["cell"], i["digit"]) for s in steps for i in s["eliminations"]}
    kept = next(
        (cell, digit)
        for cell, marks in enumerate(drill["candidates"])
        for digit in marks
        if (cell, digit) not in removed
    )
    first, *rest = drill["answer"]["eliminations"]
    for item in rest:
        candidate(page, item["cell"], item["digit"]).click()
    candidate(page, *kept).click()
    page.keyboard.press("Enter")  # Check, from the board
    page.wait_for_function("document.getElementById('train-check').disabled")
    said = message(page)
    assert said.startswith("Not quite"), said
    assert f"wrong: {name(kept[0])} −{kept[1]}" in said
    ringed = page.eval_on_selector_all(
        "#train-board .cands > span.wrong-pick",
        "ss => ss.map(s => [+s.closest('.cell').dataset.cell, +s.textContent])",
    )
    assert [tuple(r) for r in ringed] == [kept]
    if len(drill["others"]) == 0:
        assert f"missed: {name(first['cell'])} −{first['digit']}" in said
    assert "2 drills done, 50% correct" in (page.text_content("#train-stats") or "")
    page.screenshot(path=str(shots / f"train-{tag}-wrong.png"))
    assert page.errors == []


def test_the_keyboard_alone_marks_and_checks(browser: object, server: str) -> None:
    page, drill = open_train(browser, server, DESKTOP)
    page.focus("#train-board")
    n = 9
    at = page.evaluate(
        "() => [...document.querySelectorAll('#train-board .cell')].findIndex(c => c.classList.contains('selected'))"
    )
    for item in drill["answer"]["eliminations"]:
        row, col = divmod(item["cell"], n)
        here_row, here_col = divmod(at, n)
        for _ in range(abs(row - here_row)):
            page.keyboard.press("ArrowDown" if row > here_row else "ArrowUp")
        for _ in range(abs(col - here_col)):
            page.keyboard.press("ArrowRight" if col > here_col else "ArrowLeft")
        page.keyboard.press(str(item["digit"]))
        at = item["cell"]
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('train-check').disabled")
    assert message(page).startswith("Correct"), message(page)
    # the focus went to Next drill; Escape closes the dialog
    assert page.evaluate("document.activeElement.id") == "train-next"
    page.keyboard.press("Escape")
    assert not page.is_visible("#train-dialog")


@pytest.mark.parametrize("size", SIZES)
def test_no_serious_accessibility_problems_in_train(browser: object, server: str, size: dict) -> None:
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python"
    )
    page, drill = open_train(browser, server, size)
    item = drill["answer"]["eliminations"][0]
    candidate(page, item["cell"], item["digit"]).click()
    for checked in (False, True):  # marking, then the step drawn
        if checked:
            page.click("#train-check")
            page.wait_for_function("document.getElementById('train-check').disabled")
        results = axe.Axe().run(page)
        bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert bad == [], [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]


def test_another_technique_picked_and_a_placement_marked(browser: object, server: str) -> None:
    page, _ = open_train(browser, server, PHONE)
    drill = drill_shown(page, lambda: page.select_option("#train-technique", "Hidden single"))
    assert drill["technique"] == "Hidden single" and drill["answer"]["placements"]
    assert "the digit it places" in message(page)
    page.check("#train-place")
    (item,) = drill["answer"]["placements"]
    candidate(page, item["cell"], item["digit"]).click()
    assert f"{name(item['cell'])} ={item['digit']}" in (page.text_content("#train-picked") or "")
    page.click("#train-check")
    page.wait_for_function("document.getElementById('train-check').disabled")
    assert message(page).startswith("Correct"), message(page)
    # each technique keeps its own statistics; the choice is kept for the next visit
    assert "Hidden single: 1 drill done, 100% correct" in (page.text_content("#train-stats") or "")
    assert page.evaluate("localStorage.getItem('shudu-train-technique')") == "Hidden single"
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_a_level_picked_with_the_keyboard_is_sent_and_kept(
    browser: object, server: str, size: dict, shots: Any
) -> None:
    page, _ = open_train(browser, server, size)
    # "any" first; X-Wing is a hard technique, which no easy or medium puzzle needs
    options = dict(
        page.eval_on_selector_all("#train-level option", "os => os.map(o => [o.value, o.disabled])")
    )
    assert page.input_value("#train-level") == "" and options[""] is False
    assert options["easy"] and options["medium"] and not options["hard"] and not options["extreme"]
    assert page.evaluate("document.querySelector('label[for=train-level]').textContent") == "Level"
    page.focus("#train-level")
    with page.expect_request(lambda r: r.url.endswith("/api/train") and r.method == "POST") as sent:
        drill = drill_shown(page, lambda: page.keyboard.press("h"))  # the select's type-ahead: hard
    assert sent.value.post_data_json == {"technique": TECHNIQUE, "level": "hard"}
    assert drill["technique"] == TECHNIQUE
    assert shown_candidates(page) == drill["candidates"]  # the drill came back and is drawn
    givens = "".join(str(d) if d else "." for d in drill["puzzle"]["givens"])
    assert shudu.rate(givens).level == "hard"
    assert page.evaluate("localStorage.getItem('shudu-train-level')") == "hard"
    page.screenshot(path=str(shots / f"train-{'phone' if size is PHONE else 'desktop'}-level.png"))
    # an easier technique keeps the level; the next visit starts from it
    drill = drill_shown(page, lambda: page.select_option("#train-technique", "Hidden single"))
    assert page.input_value("#train-level") == "hard"
    page.reload()
    page.wait_for_selector("body[data-ready]")
    with page.expect_request(lambda r: r.url.endswith("/api/train") and r.method == "POST") as sent:
        drill_shown(page, lambda: page.click("#train-button"))
    assert sent.value.post_data_json == {"technique": "Hidden single", "level": "hard"}
    assert page.input_value("#train-level") == "hard"
    assert page.errors == []
