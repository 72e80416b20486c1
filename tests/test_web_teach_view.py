"""The teaching view in a real browser, on a desktop and on a phone: where the words sit, the
numbered nodes of a chain or net and the words that name them, links that go round the digits,
strong and weak links told apart, a long net shown part by part, "next hard step", and the hint's
three levels. The browser, the server and the helpers are those of browser_support.py; these tests
are in the slow tier. Set SHUDU_SCREENSHOTS=DIR to keep the pictures (docs/screenshots).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import browser_support as support
from browser_support import DESKTOP, EASY, PHONE, SIZES, Page, cell, current_game, features, open_game

server_db, server, browser, shots = support.server_db, support.server, support.browser, support.shots

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not features()["hint"], reason="this version of shudu has no hint"),
]


def technique_case(name: str) -> dict[str, Any]:
    cases = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())
    return next(case for case in cases if case["technique"] == name)


def board_of(name: str) -> tuple[str, list[int], list[list[int]]]:
    """The technique file's board where ``name`` is next: puzzle, entries and candidate marks."""
    case = technique_case(name)
    puzzle, values = case["puzzle"], case["values"]
    entries = [0 if puzzle[i] != "." or values[i] == "." else int(values[i]) for i in range(81)]
    return puzzle, entries, [[int(d) for d in marks] for marks in case["candidates"]]


def playing(browser: object, server: str, name: str, size: dict) -> tuple[Page, dict[str, Any]]:
    """A page playing the board of ``name`` (its entries and marks saved, then loaded), with the
    step a full hint gives there, as the API answers it."""
    puzzle, entries, centre = board_of(name)
    page = open_game(browser, server, puzzle, viewport=size)
    game = current_game(page, server)
    saved = page.request.put(
        f"{server}api/games/{game['id']}",
        data={"version": game["version"], "entries": entries, "centre": centre},
    )
    assert saved.ok, saved.text()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    body = {"puzzle": puzzle, "entries": entries, "pencil": centre, "level": "step"}
    step = page.request.post(server + "api/hint", data=body).json()["step"]
    return page, step


def hint_to(page: Page, level: int) -> None:
    """Press Hint until it shows ``level`` (1 vague, 2 the technique, 3 the step)."""
    page.click("#hint-button")
    page.wait_for_function("document.getElementById('hint-text').textContent.length > 0")
    if level >= 2:
        page.click("#hint-button")
        page.wait_for_function("!document.getElementById('hint-text').textContent.startsWith('Look at')")
    if level >= 3:
        page.click("#hint-button")
        page.wait_for_selector("#hint-apply:not([hidden])")


def drawn_numbers(page: Page) -> list[int]:
    return sorted(
        int(n) for n in page.eval_on_selector_all(".links g.num", "gs => gs.map(g => g.dataset.number)")
    )


def named_numbers(text: str) -> set[int]:
    """The numbers the step's words name: every number in brackets (the chain's notation, whose
    brackets hold digits, is not in the words but under "Notation")."""
    return {int(k) for k in re.findall(r"\((\d+)\)", text)}


def assert_notation_kept_apart(page: Page, structure: dict[str, Any], body: str) -> None:
    """The lead names the chain by its numbers; the engine's notation is not in the words but in
    the collapsed Notation detail beside the legend."""
    notation = structure["text"]
    assert notation not in page.inner_text(body)
    assert f"(1)–({len(structure['nodes'])})" in page.inner_text(body)
    assert page.is_visible("#teach-notation") and page.get_attribute("#teach-notation", "open") is None
    assert page.text_content("#notation-text") == notation
    page.click("#teach-notation summary")
    assert page.inner_text("#notation-text") == notation
    page.click("#teach-notation summary")


#: Each link path sampled along its length, in board units (cells), with the cells holding a digit.
SAMPLED = """() => {
  const filled = [...document.querySelectorAll('.cell[data-cell]')]
    .filter((c) => c.querySelector('.value')).map((c) => Number(c.dataset.cell));
  const paths = [...document.querySelectorAll('.links path.link')].map((p) => {
    const length = p.getTotalLength();
    return Array.from({ length: 201 }, (_, k) => { const q = p.getPointAtLength((length * k) / 200); return [q.x, q.y]; });
  });
  return { filled, paths };
}"""


def assert_links_clear_the_digits(page: Page, n: int = 9, inset: float = 0.02) -> None:
    drawn = page.evaluate(SAMPLED)
    filled = set(drawn["filled"])
    assert drawn["paths"]
    for points in drawn["paths"]:
        for x, y in points:
            c, r = int(x), int(y)
            inside = inset < x - c < 1 - inset and inset < y - r < 1 - inset
            assert not (inside and r * n + c in filled), (x, y, r * n + c)


#: Each ring (centre and radius in px) with the glyph boxes of its cell's candidates.
RINGS = """() => [...document.querySelectorAll('.links circle.node')].map((ring) => {
  const box = ring.getBoundingClientRect();
  const [x, y, r] = [box.x + box.width / 2, box.y + box.height / 2, box.width / 2];
  const under = document.elementsFromPoint(x, y).find((e) => e.classList.contains('cell'));
  const glyphs = [...under.querySelectorAll('.cands span')].filter((s) => s.textContent).map((s) => {
    const range = document.createRange(); range.selectNodeContents(s);
    // the digit's ink: its line box, less the room above and below a digit (a quarter of it)
    const g = range.getBoundingClientRect(); const trim = g.height * 0.125;
    return [g.left, g.top + trim, g.right, g.bottom - trim];
  });
  return { x, y, r, stroke: parseFloat(getComputedStyle(ring).strokeWidth) * box.width / 2 / Number(ring.getAttribute('r')), glyphs };
})"""


def assert_rings_hold_one_candidate(page: Page) -> None:
    """Each ring holds its own candidate's glyph inside and touches no other candidate's."""
    rings = page.evaluate(RINGS)
    assert rings
    for ring in rings:
        x, y, r, half = ring["x"], ring["y"], ring["r"], ring["stroke"] / 2
        glyphs = ring["glyphs"]
        # the ringed candidate: the glyph whose middle is nearest the ring's; wholly inside it
        own = min(glyphs, key=lambda g: ((g[0] + g[2]) / 2 - x) ** 2 + ((g[1] + g[3]) / 2 - y) ** 2)
        left, top, right, bottom = own
        corners = [(left, top), (right, top), (left, bottom), (right, bottom)]
        assert all((cx - x) ** 2 + (cy - y) ** 2 < (r - half) ** 2 for cx, cy in corners), (ring, own)
        for left, top, right, bottom in glyphs:  # every other candidate wholly outside
            if [left, top, right, bottom] == own:
                continue
            near_x, near_y = min(max(x, left), right), min(max(y, top), bottom)
            assert (near_x - x) ** 2 + (near_y - y) ** 2 > (r + half) ** 2, (ring, own)


def assert_strong_solid_weak_dashed(page: Page) -> None:
    dashes = page.eval_on_selector_all(
        ".links path.link",
        "ps => ps.map(p => [p.classList.contains('strong'), getComputedStyle(p).strokeDasharray])",
    )
    assert {strong for strong, _ in dashes} == {True, False}
    for strong, dash in dashes:
        assert (dash == "none") == strong, dashes
    # the legend shows both, the same way
    assert page.locator("#teach-nav").is_visible()
    legend = "getComputedStyle(document.querySelector('.legend line.%s')).strokeDasharray"
    assert page.evaluate(legend % "strong") == "none" and page.evaluate(legend % "weak") != "none"


# --- a chain's hint ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ["X-Chain", "AIC"])
def test_a_chains_nodes_are_numbered_as_its_words_number_them(
    browser: object, server: str, shots: Path, size: dict, name: str
) -> None:
    page, step = playing(browser, server, name, size)
    structure = step["structure"]
    hint_to(page, 3)
    which = "phone" if size == PHONE else "desktop"
    page.screenshot(path=str(shots / f"teach-{name.lower()}-{which}.png"))
    nodes = structure["nodes"]
    assert drawn_numbers(page) == list(range(1, len(nodes) + 1))
    text = page.inner_text("#hint-words")
    assert named_numbers(text) == set(range(1, len(nodes) + 1))
    assert structure["numbered"] in text
    assert named_numbers(page.inner_text("#hint-text")) <= set(range(1, len(nodes) + 1))
    assert_notation_kept_apart(page, structure, "#hint-text")
    # each number is drawn in the cell of its own node
    for node in nodes:
        box = page.locator(f'.links g.num[data-number="{node["number"]}"] rect').bounding_box()
        assert box is not None
        at = page.evaluate(
            "([x, y]) => Number(document.elementsFromPoint(x, y).find(e => e.dataset.cell).dataset.cell)",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert at in node["at"], (node, at)
    links = structure["links"]
    assert page.locator(".links path.link").count() == len(links)
    assert_strong_solid_weak_dashed(page)
    assert_links_clear_the_digits(page)
    assert_rings_hold_one_candidate(page)
    assert page.errors == []


# --- a long net, part by part -------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_long_net_is_shown_part_by_part(browser: object, server: str, shots: Path, size: dict) -> None:
    page, step = playing(browser, server, "Forcing Net", size)
    branch = step["structure"]["branches"][0]
    assert len(branch["lines"]) > 10  # long: shown in parts
    hint_to(page, 3)
    assert page.locator("#net-nav").is_visible()
    assert page.locator("#net-prev").is_disabled()
    seen = []
    while True:
        numbers = drawn_numbers(page)
        text = page.inner_text("#hint-words")
        assert numbers == list(range(1, len(numbers) + 1))  # each part adds to the one before
        assert named_numbers(text) == set(numbers)
        for line in branch["numbered"][: len(numbers)]:
            assert line in text
        assert_links_clear_the_digits(page)
        if seen:  # the parts before are drawn faint, this part's lines in full
            assert_strong_solid_weak_dashed(page)
            faint = page.eval_on_selector_all(
                ".links g.num.earlier", "gs => gs.map(g => Number(g.dataset.number))"
            )
            assert sorted(faint) == seen[-1]
        seen.append(numbers)
        if page.locator("#net-next").is_disabled():
            break
        page.click("#net-next")
    assert len(seen) >= 2 and len(seen[-1]) == len(branch["lines"]) > len(seen[0])
    assert branch["ending"] in page.inner_text("#hint-words")
    which = "phone" if size == PHONE else "desktop"
    page.screenshot(path=str(shots / f"teach-net-{which}.png"))
    page.click("#net-prev")
    assert drawn_numbers(page) == seen[-2]
    assert page.errors == []


# --- hints, level by level -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_hint_tells_more_each_time_and_applying_it_moves_on(
    browser: object, server: str, size: dict
) -> None:
    page = open_game(browser, server, EASY, viewport=size)
    game = current_game(page, server)
    body = {"puzzle": EASY, "entries": game["entries"], "level": "step"}
    step = page.request.post(server + "api/hint", data=body).json()["step"]
    target = (
        set(step["cells"])
        | {p["cell"] for p in step["placements"]}
        | {e["cell"] for e in step["eliminations"]}
    )
    hint_to(page, 1)
    shaded = page.eval_on_selector_all(".cell.area, .cell.step", "cs => cs.map(c => Number(c.dataset.cell))")
    assert shaded and not set(shaded) & target  # where to look, not what to find
    assert page.locator(".cell.placing").count() == 0
    page.click("#hint-button")  # the technique, named
    page.wait_for_function("!document.getElementById('hint-text').textContent.startsWith('Look at')")
    assert step["technique"].lower() in page.inner_text("#hint-text").lower()
    assert page.locator("#hint-apply").is_hidden()
    page.click("#hint-button")  # the step
    page.wait_for_selector("#hint-apply:not([hidden])")
    placed = {p["cell"]: p["digit"] for p in step["placements"]}
    page.click("#hint-apply")
    for spot, digit in placed.items():
        assert cell(page, spot).inner_text() == str(digit)
    assert "Hint again for the next" in page.inner_text("#hint-text")
    page.click("#hint-button")  # the next step, from its vaguest
    page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('Look at')")
    assert page.locator("#hint-apply").is_hidden()
    assert page.errors == []


# --- the explanation ----------------------------------------------------------------------------------


def open_explanation(page: Page) -> None:
    if page.locator("#more-button").is_visible():
        page.click("#more-button")
    page.click("#explain-panel summary")
    page.wait_for_function("document.getElementById('explain-count').textContent.includes('/ ')")


def shown_index(page: Page) -> int:
    return int(page.inner_text("#explain-count").split("/")[0]) - 1


def is_single(step: dict[str, Any]) -> bool:
    return bool(re.search("single|full house", step["technique"], re.I))


@pytest.mark.skipif(not features()["explain"], reason="this version of shudu has no explain")
@pytest.mark.parametrize("size", SIZES)
def test_next_hard_step_skips_the_singles_and_the_words_sit_by_the_board(
    browser: object, server: str, shots: Path, size: dict
) -> None:
    puzzle = technique_case("X-Chain")["puzzle"]
    page = open_game(browser, server, puzzle, viewport=size)
    steps = page.request.post(server + "api/explain", data={"puzzle": puzzle}).json()["steps"]
    open_explanation(page)
    chain = next(k for k, s in enumerate(steps) if s.get("structure", {}).get("type") == "chain")
    while shown_index(page) < chain:
        before = shown_index(page)
        page.click("#explain-hard")
        page.wait_for_function(
            f"!document.getElementById('explain-count').textContent.startsWith('{before + 1} /')"
        )
        after = shown_index(page)
        assert not is_single(steps[after])
        assert all(is_single(s) for s in steps[before + 1 : after])
    assert shown_index(page) == chain
    structure = steps[chain]["structure"]
    text = page.inner_text("#explain-text")
    assert drawn_numbers(page) == list(range(1, len(structure["nodes"]) + 1))
    assert named_numbers(text) == set(drawn_numbers(page))
    assert_notation_kept_apart(page, structure, "#explain-text")
    assert_strong_solid_weak_dashed(page)
    assert_links_clear_the_digits(page)
    # where the words sit: beside the board on a desktop, in a sheet below a board left in view
    board = page.locator("#board").bounding_box()
    words = page.locator("#explain-text").bounding_box()
    legend = page.locator("#teach-nav").bounding_box()
    assert board and words and legend
    height = size["height"]
    if size == DESKTOP:
        assert words["x"] >= board["x"] + board["width"]
        assert words["y"] < board["y"] + board["height"] and words["y"] + words["height"] <= height
        assert legend["y"] + legend["height"] <= height
    else:
        sheet = page.locator("#sheet").bounding_box()
        assert sheet
        assert board["y"] >= 0 and board["y"] + board["height"] <= sheet["y"] + 1
        assert sheet["y"] <= words["y"] and words["y"] < height
    which = "phone" if size == PHONE else "desktop"
    page.screenshot(path=str(shots / f"teach-explain-{which}.png"))
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_no_serious_accessibility_problems_in_the_teaching_view(
    browser: object, server: str, size: dict
) -> None:
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python"
    )
    page, _ = playing(browser, server, "Forcing Net", size)
    hint_to(page, 3)
    page.click("#net-next")
    results = axe.Axe().run(page)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == [], [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]
    if features()["explain"]:
        open_explanation(page)
        page.click("#explain-hard")
        results = axe.Axe().run(page)
        bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert bad == [], [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]


# --- the link router alone ------------------------------------------------------------------------

ROUTED = """async (cases) => {
  const { linkPath } = await import('/static/js/board.js');
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  document.body.append(svg);
  return cases.map(([a, b, filled]) => {
    const blocked = filled.map((c) => [c % 9, Math.floor(c / 9)]);
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', linkPath(a, b, 0.15, blocked, 9));
    svg.append(path);
    const length = path.getTotalLength();
    return Array.from({ length: 301 }, (_, k) => { const q = path.getPointAtLength((length * k) / 300); return [q.x, q.y]; });
  });
}"""


def test_the_link_router_never_enters_a_cell_holding_a_digit(browser: object, server: str) -> None:
    """Random boards (a third to two thirds of the cells filled), a link between candidates of
    two empty cells: every point of its path stays on the board, out of every filled cell, and
    its ends stop at the rings (0.15 from each candidate)."""
    rng = random.Random(11)
    cases = []
    for _ in range(150):
        filled = [c for c in range(81) if rng.random() < rng.uniform(0.33, 0.67)]
        empty = [c for c in range(81) if c not in filled]
        if len(empty) < 2:
            continue
        ends = []
        for c in rng.sample(empty, 2):
            k = rng.randrange(9)
            ends.append([c % 9 + 0.04 + 0.92 * (k % 3 + 0.5) / 3, c // 9 + 0.04 + 0.92 * (k // 3 + 0.5) / 3])
        cases.append([ends[0], ends[1], filled])
    page = support.open_page(browser, server)
    for (a, b, filled), points in zip(cases, page.evaluate(ROUTED, cases), strict=True):
        blocked = set(filled)
        for x, y in points:
            assert -1e-6 <= x <= 9 + 1e-6 and -1e-6 <= y <= 9 + 1e-6, (a, b, x, y)
            c, r = int(x), int(y)
            inside = 0.02 < x - c < 0.98 and 0.02 < y - r < 0.98
            assert not (inside and r * 9 + c in blocked), (a, b, x, y)
        for end, point in ((a, points[0]), (b, points[-1])):
            assert abs(((end[0] - point[0]) ** 2 + (end[1] - point[1]) ** 2) ** 0.5 - 0.15) < 1e-3
    assert page.errors == []
