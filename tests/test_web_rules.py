"""Constraint puzzles on the page: every rule drawn from the rules the server sends, and played.

The puzzles are built here from a classic grid's solution (killer cages, thermometers, arrows,
dots, X and V, lines, clues outside, odd and even cells, each true of that solution), with as few
givens as keep one solution; what the page draws is counted against those rules. The browser, the
server and the helpers are those of browser_support.py (Debian's chromium driven by Playwright).
Set SHUDU_SCREENSHOTS=DIR to keep the pictures (docs/screenshots).
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

import browser_support as web
import shudu
from browser_support import DESKTOP, EASY, PHONE, SIZES, Page, cell, current_game, open_game
from shudu.formats.convert import read_document, write_document
from shudu.notation import cell_name
from test_rule_logic import KILLER as KILLER_4X4

server_db, server, browser, shots = web.server_db, web.server, web.browser, web.shots

pytestmark = pytest.mark.slow

N = 9


@functools.cache
def solution() -> tuple[int, ...]:
    solved = shudu.solve(EASY).solution
    assert solved is not None
    return tuple(solved.cells)


def names(cells: list[int], n: int = N) -> list[str]:
    return [cell_name(c, n) for c in cells]


def neighbours(cell: int, n: int = N) -> list[int]:
    r, c = divmod(cell, n)
    return [
        r2 * n + c2
        for r2, c2 in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c))
        if 0 <= r2 < n and 0 <= c2 < n
    ]


def fewest_givens(rules: list[dict[str, Any]], sol: tuple[int, ...], n: int = N) -> str:
    """The puzzle's JSON text: givens from ``sol`` added until it has one solution, then each
    dropped that is not needed."""
    givens = ["."] * (n * n)
    order = [(i * 37) % (n * n) for i in range(n * n)]

    def text() -> str:
        return json.dumps({"size": n, "rules": rules, "givens": "".join(givens)})

    added = 0
    while shudu.count(text(), 2, node_limit=200_000) != 1:
        givens[order[added]] = str(sol[order[added]])
        added += 1
    for spot in order[:added]:
        givens[spot] = "."
        if shudu.count(text(), 2, node_limit=200_000) != 1:
            givens[spot] = str(sol[spot])
    return text()


@functools.cache
def killer() -> str:
    """A 9x9 killer: the grid cut into cages of 2 to 4 cells, each with no digit twice."""
    sol = solution()
    owner: list[int | None] = [None] * (N * N)
    cages: list[list[int]] = []
    for start, want in zip(range(N * N), itertools.cycle((3, 2, 4, 3, 2)), strict=False):
        if owner[start] is not None:
            continue
        cells = [start]
        owner[start] = len(cages)
        frontier = [start]
        while len(cells) < want and frontier:
            for nb in neighbours(frontier.pop(0))[:3]:
                if len(cells) < want and owner[nb] is None and sol[nb] not in [sol[x] for x in cells]:
                    owner[nb] = len(cages)
                    cells.append(nb)
                    frontier.append(nb)
        cages.append(cells)
    rules = [{"rule": "cage", "cells": names(cs), "total": sum(sol[c] for c in cs)} for cs in cages]
    return fewest_givens(rules, sol)


@functools.cache
def mixed() -> str:
    """A 9x9 with thermometers, arrows, kropki dots, X and V, a renban and a whisper line,
    sandwich and X-sum clues outside, a little killer, and odd and even cells."""
    sol = solution()
    rules: list[dict[str, Any]] = []
    used: set[int] = set()
    # thermometers: rising runs of 3 along a row
    for r in (1, 4, 7):
        for c in range(N - 2):
            run = [r * N + c + k for k in range(3)]
            if sol[run[0]] < sol[run[1]] < sol[run[2]] and not used & set(run):
                rules.append({"rule": "thermo", "cells": names(run)})
                used |= set(run)
                break
    # arrows: a circle and the two cells after it in a row or column that add up to it
    arrows = 0
    for a in range(N * N):
        r, c = divmod(a, N)
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            run = [(r + k * dr) * N + c + k * dc for k in range(3)]
            inside = 0 <= r + 2 * dr < N and 0 <= c + 2 * dc < N
            if arrows < 3 and inside and sol[run[0]] == sol[run[1]] + sol[run[2]] and not used & set(run):
                rules.append({"rule": "arrow", "cells": names(run)})
                used |= set(run)
                arrows += 1
    # dots and X/V on the edges of a few pairs
    kinds = {"white-dot": lambda a, b: abs(a - b) == 1, "black-dot": lambda a, b: a == 2 * b or b == 2 * a}
    kinds |= {"x": lambda a, b: a + b == 10, "v": lambda a, b: a + b == 5}
    for kind, test in kinds.items():
        found = [
            (a, b) for a in range(N * N) for b in neighbours(a)[:2] if a not in used and test(sol[a], sol[b])
        ]
        for a, b in found[1::7][:3]:
            rules.append({"rule": kind, "cells": names([a, b])})
    # a renban of three in a column, a whisper of three in a row
    for c in range(N):
        run = [(6 + k) * N + c for k in range(3)]
        if max(sol[x] for x in run) - min(sol[x] for x in run) == 2 and not used & set(run):
            rules.append({"rule": "renban", "cells": names(run)})
            used |= set(run)
            break
    for start in range(N * N - 2):
        run = [start, start + 1, start + 2]
        if (
            start % N < N - 2
            and not used & set(run)
            and all(abs(sol[a] - sol[b]) >= 5 for a, b in itertools.pairwise(run))
        ):
            rules.append({"rule": "whisper", "cells": names(run)})
            used |= set(run)
            break
    # clues outside: a sandwich on row 1, an X-sum down column 2, a little killer
    row = list(range(N))
    i, j = sorted(
        (row.index(next(c for c in row if sol[c] == 1)), row.index(next(c for c in row if sol[c] == 9)))
    )
    rules.append({"rule": "sandwich", "cells": names(row), "total": sum(sol[c] for c in row[i + 1 : j])})
    column = [r * N + 1 for r in range(N)]
    rules.append(
        {"rule": "x-sum", "cells": names(column), "total": sum(sol[c] for c in column[: sol[column[0]]])}
    )
    diagonal = [r * N + r + 1 for r in range(N - 1)]
    rules.append({"rule": "little-killer", "cells": names(diagonal), "total": sum(sol[c] for c in diagonal)})
    # odd and even cells
    free = [c for c in range(N * N) if c not in used]
    rules.append({"rule": "odd", "cells": names([c for c in free if sol[c] % 2][10:13])})
    rules.append({"rule": "even", "cells": names([c for c in free if not sol[c] % 2][10:13])})
    return fewest_givens(rules, sol)


#: A 4x4 killer (every cell caged) with two givens, for playing to the end.
SMALL = json.dumps(
    {
        "size": 4,
        "rules": KILLER_4X4,
        "givens": "..3...1.........",
    }
)


def drawn(page: Page, selector: str) -> list[dict[str, Any]]:
    """The rule groups the page drew (``data-rule``, ``data-index``) matching ``selector``."""
    return list(
        page.evaluate(
            f"[...document.querySelectorAll({selector!r})].map(g => ({{rule: g.dataset.rule,"
            " index: Number(g.dataset.index), text: g.textContent, paths: g.querySelectorAll('path').length,"
            " circles: g.querySelectorAll('circle').length}))"
        )
    )


def edge_count(rule: dict[str, Any]) -> int:
    cells = [shudu.notation.parse_cell_name(c) for c in rule["cells"]]
    return sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in itertools.combinations(cells, 2))


def test_the_api_sends_each_rule_in_its_json_form(browser: object, server: str) -> None:
    page = open_game(browser, server, killer())
    game = current_game(page, server)
    expected = json.loads(killer())["rules"]
    assert game["puzzle"]["rules"] == expected == game["puzzle"]["json"]["rules"]
    parsed = page.request.post(server + "api/parse", data={"puzzle": EASY}).json()
    assert parsed["puzzle"]["rules"] == []
    # a SudokuPad link of the same puzzle reads to the same rules
    link = write_document(read_document(killer()), "sudokupad")
    parsed = page.request.post(server + "api/parse", data={"puzzle": link}).json()
    assert parsed["puzzle"]["rules"] == expected
    # and the page offers the game's own link, which reads back to the same rules
    opener = page.locator("#sudokupad-link")
    assert opener.is_visible() and opener.get_attribute("target") == "_blank"
    href = opener.get_attribute("href")
    assert href == game["puzzle"]["sudokupad"]
    assert [rule.to_json(N) for rule in read_document(href).puzzle.geometry.variant.rules] == expected


@pytest.mark.parametrize("size", SIZES)
def test_a_killer_draws_one_outline_and_total_per_cage(
    browser: object, server: str, size: dict, shots: Path
) -> None:
    page = open_game(browser, server, killer(), viewport=size)
    rules = json.loads(killer())["rules"]
    cages = drawn(page, "svg.rules g.cage")
    assert sorted(c["index"] for c in cages) == list(range(len(rules)))
    for group in cages:
        rule = rules[group["index"]]
        assert group["paths"] >= 1 and group["text"] == str(rule["total"])
    # the total sits in the top-left cell of its cage, and over the pencil marks
    first = rules[0]
    top_left = min(shudu.notation.parse_cell_name(c) for c in first["cells"])
    index = (top_left[0] - 1) * N + top_left[1] - 1
    target = next((i for i in range(N * N) if cell(page, i).inner_text() == ""), index)
    cell(page, target).click()
    for digit in "1234":
        page.keyboard.press(f"Shift+Digit{digit}")
    marks = page.evaluate(
        f"""(() => {{ const c = document.querySelector('.cell[data-cell="{target}"]').getBoundingClientRect();
        return [...document.querySelectorAll('.cell[data-cell="{target}"] .corner span')].map(s => {{
          const b = s.getBoundingClientRect(); return [b.left - c.left, b.top - c.top]; }}); }})()"""
    )
    assert len(marks) == 4
    if any(
        target in [(p[0] - 1) * N + p[1] - 1 for p in [shudu.notation.parse_cell_name(min(r["cells"]))]]
        for r in rules
    ):
        assert all(x > 8 or y > 8 for x, y in marks)  # the top-left corner stays the total's
    assert "killer" in page.inner_text("#title")
    assert page.evaluate("document.getElementById('trace-panel').hidden")  # the search reads no rules
    # a screen reader hears each total with its cell
    labelled = page.evaluate(
        "[...document.querySelectorAll('.cell')].filter(c => c.ariaLabel.includes('cage total')).length"
    )
    assert labelled == len(rules)
    page.screenshot(
        path=str(shots / f"rules-killer-{'phone' if size is PHONE else 'desktop'}.png"),
        full_page=size is PHONE,
    )
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_thermos_arrows_dots_lines_and_outside_clues_are_drawn(
    browser: object, server: str, size: dict, shots: Path
) -> None:
    page = open_game(browser, server, mixed(), viewport=size)
    rules = json.loads(mixed())["rules"]
    by_kind: dict[str, list[int]] = {}
    for i, rule in enumerate(rules):
        by_kind.setdefault(rule["rule"], []).append(i)
    groups = {g["index"]: g for g in drawn(page, "svg.rules g[data-rule]")}
    for i, rule in enumerate(rules):
        assert i in groups, rule
        assert groups[i]["rule"] == rule["rule"]
    for i in by_kind.get("thermo", []):
        assert page.locator(f'svg.rules g[data-index="{i}"] .thermo-bulb').count() == 1
    for i in by_kind.get("arrow", []):
        assert page.locator(f'svg.rules g[data-index="{i}"] .arrow-circle').count() == 1
        assert groups[i]["paths"] == 2  # the shaft and its head
    for kind in ("white-dot", "black-dot"):
        for i in by_kind.get(kind, []):
            assert page.locator(f'svg.rules g[data-index="{i}"] circle.{kind}').count() == edge_count(
                rules[i]
            )
    for kind in ("x", "v"):
        for i in by_kind.get(kind, []):
            assert groups[i]["text"] == kind.upper() * edge_count(rules[i])
    for kind in ("sandwich", "x-sum", "little-killer"):
        for i in by_kind.get(kind, []):
            assert str(rules[i]["total"]) in groups[i]["text"]
    for kind, shape in (("odd", "circle.odd"), ("even", "rect.even")):
        for i in by_kind.get(kind, []):
            assert page.locator(f'svg.rules g[data-index="{i}"] {shape}').count() == len(rules[i]["cells"])
    # outside clues have room: the grid is inset by a cell in its frame, the clue inside the page
    frame = page.evaluate("getComputedStyle(document.getElementById('board-frame')).paddingLeft")
    assert float(frame.rstrip("px")) > 0
    clue_box = page.evaluate(
        "JSON.parse(JSON.stringify(document.querySelector('svg.rules .clue-sandwich').getBoundingClientRect()))"
    )
    assert clue_box["left"] >= 0 and clue_box["right"] <= size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]  # nothing to scroll to
    assert page.locator("#rules-list li").count() >= 8
    page.screenshot(
        path=str(shots / f"rules-mixed-{'phone' if size is PHONE else 'desktop'}.png"),
        full_page=size is PHONE,
    )
    assert page.errors == []


def test_new_puzzle_makes_a_killer_and_draws_its_cages(browser: object, server: str) -> None:
    page = open_game(browser, server, viewport=PHONE)
    page.click("#new-button")
    kinds = page.eval_on_selector_all("#new-variant option", "options => options.map(o => o.value)")
    assert {"killer", "thermo", "arrow", "kropki", "little-killer", "mixed"} <= set(kinds)
    page.select_option("#new-variant", "killer")
    sizes = page.eval_on_selector_all("#new-size option", "options => options.map(o => o.value)")
    assert "9" in sizes and "16" not in sizes  # the generator makes rule puzzles up to 9x9
    page.select_option("#new-size", "4")
    page.click("#new-start")
    page.wait_for_function(
        "!document.getElementById('new-dialog').open || document.getElementById('new-error').textContent"
    )
    assert page.inner_text("#new-error") == ""
    page.wait_for_function("document.querySelectorAll('.cell').length === 16")
    game = current_game(page, server)
    rules = game["puzzle"]["rules"]
    assert rules and {rule["rule"] for rule in rules} == {"cage"}
    page.wait_for_function(f"document.querySelectorAll('svg.rules g.cage').length === {len(rules)}")
    assert shudu.count(json.dumps(game["puzzle"]["json"]), 2) == 1
    assert page.errors == []


def test_a_pasted_iss_killer_opens_and_is_solved_to_the_end(browser: object, server: str) -> None:
    iss = write_document(read_document(SMALL), "iss")
    page = open_game(browser, server, viewport=PHONE)
    page.click("#new-button")
    page.fill("#own-text", iss)
    page.wait_for_function("!document.getElementById('own-play').disabled")
    page.click("#own-play")
    page.wait_for_function("document.querySelectorAll('.cell').length === 16")
    game = current_game(page, server)
    rules = json.loads(SMALL)["rules"]
    assert game["puzzle"]["rules"] == rules
    assert page.locator("svg.rules g.cage").count() == len(rules)
    solved = shudu.solve(SMALL).solution
    assert solved is not None
    givens = game["puzzle"]["givens"]
    # check as you go: a digit that breaks its cage's total is struck at once
    page.evaluate("document.getElementById('set-check').click()")
    first = next(i for i, g in enumerate(givens) if not g)
    wrong = next(d for d in range(1, 5) if d != solved.cells[first])
    cell(page, first).click()
    page.keyboard.press(str(wrong))
    page.wait_for_function(
        f"document.querySelector('.cell[data-cell=\"{first}\"]').className.match(/wrong|conflict/)"
    )
    page.keyboard.press("Backspace")
    for i, digit in enumerate(solved.cells):
        if not givens[i]:
            cell(page, i).click()
            page.keyboard.press(str(digit))
    page.wait_for_function("document.getElementById('message').textContent.includes('Solved')")
    assert page.errors == []


def test_a_cage_whose_digits_pass_its_total_is_marked(browser: object, server: str) -> None:
    page = open_game(browser, server, SMALL, viewport=DESKTOP)
    cell(page, 0).click()  # r1c1 and r1c2: a cage of total 3
    page.keyboard.press("3")
    cell(page, 1).click()
    page.keyboard.press("4")
    for i in (0, 1):
        assert "conflict" in (cell(page, i).get_attribute("class") or "")
    assert page.errors == []


def test_hints_read_the_rules(browser: object, server: str) -> None:
    page = open_game(browser, server, killer(), viewport=DESKTOP)
    with page.expect_response("**/api/hint") as answer:
        page.click("#hint-button")
    assert answer.value.ok
    page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_no_serious_accessibility_problems_on_a_rule_puzzle(browser: object, server: str, size: dict) -> None:
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python"
    )
    page = open_game(browser, server, mixed(), viewport=size)
    results = axe.Axe().run(page)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == [], [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]


def test_a_rule_game_is_saved_restored_and_shared_with_its_rules(browser: object, server: str) -> None:
    page = open_game(browser, server, SMALL, viewport=PHONE)
    rules = json.loads(SMALL)["rules"]
    solved = shudu.solve(SMALL).solution
    assert solved is not None
    first = next(i for i, g in enumerate(current_game(page, server)["puzzle"]["givens"]) if not g)
    cell(page, first).click()
    page.keyboard.press(str(solved.cells[first]))
    web.wait_for_saved(page, server, lambda g: g["entries"][first] == solved.cells[first])
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert cell(page, first).inner_text() == str(solved.cells[first])
    assert page.locator("svg.rules g.cage").count() == len(rules)
    # the share link carries the puzzle's JSON form, rules and all, and opens a new game of it
    page.click("#more-button")
    page.click("#share-button")
    link = page.input_value("#share-link")
    other = web.open_page(browser, link, viewport=PHONE)
    assert other.locator("svg.rules g.cage").count() == len(rules)
    assert current_game(other, server)["puzzle"]["rules"] == rules
    assert page.errors == other.errors == []


def test_cage_outlines_match_the_renderers(browser: object, server: str) -> None:
    """The page's cage outlines (rules.js) are the SVG renderer's (shudu.render), point for point,
    for random cages: holes, diagonal touches and several pieces included."""
    from shudu.render.rule_marks import cage_outlines

    rng = random.Random(7)
    cages = [[c for c in range(36) if rng.random() < p] for p in (0.3, 0.5, 0.7) for _ in range(10)]
    cages += [[0], [0, 1, 6, 7], [0, 1, 2, 6, 8, 12, 13, 14], [0, 7, 14], list(range(36))]
    page = web.open_page(browser, server)
    drawn = page.evaluate(
        "async (cages) => { const m = await import('/static/js/rules.js');"
        " return cages.map((cells) => m.cageOutlines(cells, 6)); }",
        cages,
    )

    def shape(loops: list[Any]) -> set[frozenset[tuple[float, float]]]:
        return {frozenset((round(x, 6), round(y, 6)) for x, y in loop) for loop in loops}

    for cells, loops in zip(cages, drawn, strict=True):
        assert shape(loops) == shape(cage_outlines(cells, 6)), cells


@functools.cache
def killer_with_a_three() -> str:
    """killer() with a cage of two cells totalling 3 (two neighbours holding 1 and 2) in place
    of the cages that held them."""
    sol = solution()
    a, b = next((a, b) for a in range(N * N) for b in neighbours(a) if {sol[a], sol[b]} == {1, 2})
    rules = [r for r in json.loads(killer())["rules"] if not {*names([a, b])} & {*r["cells"]}]
    rules.append({"rule": "cage", "cells": names([a, b]), "total": 3})
    return fewest_givens(rules, sol)


@pytest.mark.parametrize("size", SIZES)
def test_show_candidates_on_a_killer_reads_the_cages(
    browser: object, server: str, size: dict, shots: Path
) -> None:
    text = killer_with_a_three()
    page = open_game(browser, server, text, viewport=size)
    givens = current_game(page, server)["puzzle"]["givens"]
    sheet = not page.is_visible("#candidates-button")  # on a phone, under More
    if sheet:
        page.click("#more-button")
    page.click("#candidates-button")
    first_open = next(i for i in range(N * N) if not givens[i])
    page.wait_for_function(f"document.querySelector('.cell[data-cell=\"{first_open}\"] .centre') !== null")
    expected = shudu.basic_candidates(text)
    peers = shudu.basic_candidates(json.dumps({**json.loads(text), "rules": []}))
    narrower = 0
    for i in range(N * N):
        if givens[i]:
            continue
        assert cell(page, i).locator(".centre").inner_text() == "".join(map(str, expected[i])), i
        narrower += len(expected[i]) < len(peers[i])
    assert narrower > N  # the cages took out more than the placed digits do
    if sheet and page.is_visible("#sheet-close"):
        page.click("#sheet-close")
    three = next(r for r in json.loads(text)["rules"] if r["total"] == 3 and len(r["cells"]) == 2)
    for name in three["cells"]:
        r, c = shudu.notation.parse_cell_name(name)
        index = (r - 1) * N + c - 1
        if not givens[index]:
            assert cell(page, index).locator(".centre").inner_text() == "12"
    page.screenshot(
        path=str(shots / f"candidates-killer-{'phone' if size is PHONE else 'desktop'}.png"),
        full_page=size is PHONE,
    )
    page.click("#undo-button")  # one move: one undo takes every mark back
    assert cell(page, first_open).locator(".centre").count() == 0
    assert page.errors == []
