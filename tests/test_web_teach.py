"""The page in a real browser, continued: every size legible (16x16 marks, a phone's zoom), the
selection and region tints, the hint text on a phone, the explanation, slow new puzzles and the
bank's picture, and the teaching view's candidates and links. The browser, the server and the
helpers are those of browser_support.py; these tests are in the slow tier too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import browser_support as support
from browser_support import (
    EASY,
    PHONE,
    PYRAMID,
    Page,
    cell,
    current_game,
    features,
    font_px,
    open_game,
    open_page,
    sixteen,
    solution_of,
    wait_for_saved,
)

server_db, server, browser, shots = support.server_db, support.server, support.browser, support.shots

# the slow tier: .ci/run runs it with 'pytest -m slow' (README.md, "Tests")
pytestmark = pytest.mark.slow


# --- every size legible ------------------------------------------------------------------------------


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
    page.wait_for_selector(".links path.link", state="attached")
    empties = [i for i in range(81) if values[i] == "."]
    removed = {(e["cell"], e["digit"]) for e in step["eliminations"]}
    drawn = shown_candidates(page)
    for i in empties:  # every candidate of the board at this moment, from the player's marks
        shown, struck, _ = drawn[i]
        assert shown == set(centre[i]), i
        assert struck == {d for (c, d) in removed if c == i}, i
    links = step["structure"]["links"]
    strong = sum(link["kind"] == "strong" for link in links)
    assert page.locator(".links path.strong").count() == strong
    assert page.locator(".links path.weak").count() == len(links) - strong
    assert strong and len(links) - strong
    dash = "getComputedStyle(document.querySelector('.links path.%s')).strokeDasharray"
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
