"""The views a link opens in a real browser: ``#puzzle=…&view=explain&step=N`` opens the puzzle with
its explanation at step N (a forcing net drawn), ``#setter=PUZZLE`` the Setter with that puzzle's
givens and its panel's count; a bad value says so on the page and raises no error. The browser,
the server and the helpers are those of browser_support.py; these tests are in the slow tier.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest

import browser_support as support
import shudu
from browser_support import SIZES, Page, features, open_page

server_db, server, browser, shots = support.server_db, support.server, support.browser, support.shots

pytestmark = [pytest.mark.slow]

#: A hard 9x9 (magictour's top 1465) whose explanation takes forcing nets.
NET = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."
#: A unique 9x9 less four givens: a few solutions.
FEW = "8....3....436..1...75.9.28..5.2.7..6....457..2..1.9.3..21...3.8..8....1..9.3..4.2"


def link(server: str, **params: str) -> str:
    return server + "#" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


def steps_of(page: Page, server: str, puzzle: str) -> list[dict[str, Any]]:
    answer = page.request.post(server + "api/explain", data={"puzzle": puzzle})
    assert answer.ok, answer.text()
    return list(answer.json()["steps"])


def shown_count(page: Page) -> str:
    page.wait_for_function("document.getElementById('explain-count').textContent.includes('/ ')")
    return str(page.inner_text("#explain-count"))


def game_hash(page: Page) -> bool:
    return bool(page.evaluate("/^#game=[0-9]+$/.test(location.hash)"))


needs_explain = pytest.mark.skipif(not features()["explain"], reason="this version of shudu has no explain")
needs_setter = pytest.mark.skipif(not features()["setter"], reason="this version of shudu has no setter")


@needs_explain
@pytest.mark.parametrize("size", SIZES)
def test_an_explain_link_opens_the_explanation_at_its_step(browser: object, server: str, size: dict) -> None:
    page = open_page(browser, link(server, puzzle=NET, view="explain"), viewport=size)
    steps = steps_of(page, server, NET)
    net = next(k for k, step in enumerate(steps) if "net" in step["technique"].lower())
    assert page.locator("#explain-panel").evaluate("panel => panel.open")
    assert shown_count(page) == f"1 / {len(steps)}"
    assert steps[0]["explanation"].split(":")[0] in page.inner_text("#explain-text")
    assert game_hash(page)  # read once: the address is the game's, a reload resumes it
    # at a step: the net, drawn on the board, its words beside it
    page = open_page(browser, link(server, puzzle=NET, view="explain", step=str(net + 1)), viewport=size)
    assert shown_count(page) == f"{net + 1} / {len(steps)}"
    assert page.locator("#explain-text").is_visible()
    assert page.locator("#board .links line, #board .links path").count() > 0
    assert page.inner_text("#message") == ""
    assert page.errors == []


@needs_setter
@pytest.mark.parametrize("size", SIZES)
def test_a_setter_link_opens_the_setter_with_the_puzzle(browser: object, server: str, size: dict) -> None:
    page = open_page(browser, link(server, setter=FEW), viewport=size)
    assert page.locator("#setter-dialog").evaluate("dialog => dialog.open")
    givens = page.evaluate(
        """[...document.querySelectorAll('#setter-board .cell')].map((cell) =>
             cell.classList.contains('given') && cell.querySelector('.value')
               ? cell.querySelector('.value').textContent : '.').join('')"""
    )
    assert givens == FEW
    solutions = shudu.count(FEW, 100)
    assert solutions > 1
    page.wait_for_function(
        f"document.getElementById('setter-message').textContent.startsWith('{solutions} solutions')"
    )
    assert game_hash(page)
    assert page.errors == []


@needs_explain
@needs_setter
def test_bad_values_are_said_on_the_page(browser: object, server: str) -> None:
    page = open_page(browser, link(server, puzzle=NET, view="solution"))
    assert 'the view "solution"' in page.inner_text("#message")
    assert not page.locator("#explain-panel").evaluate("panel => panel.open")
    total = len(steps_of(page, server, NET))
    for step, shown, words in [("zero", 1, "not a step number"), ("9999", total, f"has {total} steps")]:
        page = open_page(browser, link(server, puzzle=NET, view="explain", step=step))
        assert shown_count(page) == f"{shown} / {total}"
        assert words in page.inner_text("#message")
        assert page.errors == []
    page = open_page(browser, link(server, setter="12345"))
    assert page.locator("#setter-dialog").evaluate("dialog => dialog.open")
    page.wait_for_function(
        "document.getElementById('setter-message').textContent.includes('could not be read')"
    )
    assert "bad" in (page.get_attribute("#setter-message", "class") or "")
    assert page.errors == []


@needs_explain
def test_a_link_followed_on_an_open_page_opens_its_view(browser: object, server: str) -> None:
    page = open_page(browser, server)
    first = page.evaluate("location.hash")
    page.evaluate("location.hash = '#view=explain&step=2'")
    assert shown_count(page).startswith("2 / ")
    assert page.evaluate("location.hash") == first  # the same game, its address kept
    page.go_back()  # the address before the link: the same game, nothing else changes
    assert page.evaluate("location.hash") == first
    assert page.errors == []


@needs_explain
def test_a_link_that_comes_while_the_explanation_loads_opens_at_its_step(
    browser: object, server: str
) -> None:
    page = open_page(browser, link(server, puzzle=NET))
    total = len(steps_of(page, server, NET))
    # the panel opened by hand starts the explanation at step 1; the link comes before it is back
    page.evaluate(
        "document.getElementById('explain-panel').open = true; location.hash = '#view=explain&step=4'"
    )
    page.wait_for_function(f"document.getElementById('explain-count').textContent === '4 / {total}'")
    assert page.inner_text("#message") == ""
    assert page.errors == []
