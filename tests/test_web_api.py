"""The web API, through the ASGI test client: answers, and precise 4xx for bad input."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")

from starlette.routing import Route
from starlette.testclient import TestClient

import shudu
from shudu.formats import to_json
from shudu.notation import LEVELS
from shudu.store import BankEntry, Store
from shudu.web import create_app
from shudu.web.app import features
from shudu.web.bodies import MAX_BODY

PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
PYRAMID = "...8..7....1.42....65...1...49.......8.6........9...6.......4.......15..1........"
SIX = ".2......5........53..1..6..3.2....4."


def solution_of(puzzle: str, **options: object) -> list[int]:
    result = shudu.solve(puzzle, **options)
    assert result.solution is not None
    return list(result.solution.cells)


# --- about ---------------------------------------------------------------------------------------


def test_features_say_what_the_library_has(client: TestClient) -> None:
    data = client.get("/api/features").json()
    assert data["features"] == features()
    assert data["features"]["solve"] and data["features"]["count"]
    assert data["features"]["rate"] == hasattr(shudu, "rate")
    assert data["features"]["generate"] == hasattr(shudu, "generate")
    assert "pyramid" in data["variants"] and 9 in data["sizes"]
    assert data["version"] == shudu.__version__


def test_the_openapi_document_describes_every_api_route(client: TestClient) -> None:
    doc = client.get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    for route in client.app.routes:
        if isinstance(route, Route) and route.path.startswith("/api/") and route.path != "/api/openapi.json":
            methods = {m.lower() for m in route.methods} - {"head"}
            assert methods <= set(doc["paths"][route.path]), route.path


def test_the_page_and_its_modules_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'type="module"' in page.text
    for name in ("app.js", "board.js", "game.js", "api.js", "replay.js"):
        module = client.get(f"/static/js/{name}")
        assert module.status_code == 200
        assert "javascript" in module.headers["content-type"]
    assert client.get("/static/style.css").status_code == 200


def test_the_page_preloads_every_module_and_text_travels_compressed(client: TestClient) -> None:
    page = client.get("/")
    modules = sorted(path.name for path in (Path(shudu.web.__file__).parent / "static" / "js").glob("*.js"))
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/js/([\w.]+)">', page.text)
    assert preloaded == modules and page.text.index("modulepreload") < page.text.index("</head>")
    packed = client.get("/static/js/app.js", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip" and "import" in packed.text
    plain = client.get("/static/js/app.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == packed.text


def test_unknown_paths_and_methods_answer_json(client: TestClient) -> None:
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and missing.json()["error"] == "no such page or endpoint: /api/nothing"
    wrong = client.get("/api/solve")
    assert wrong.status_code == 405 and "GET is not allowed" in wrong.json()["error"]


# --- puzzles ---------------------------------------------------------------------------------------


def test_parse_describes_a_pyramid_for_drawing(client: TestClient) -> None:
    data = client.post("/api/parse", json={"puzzle": PYRAMID, "variant": "pyramid"}).json()["puzzle"]
    assert (data["size"], data["variant"], data["box"], data["clues"]) == (9, "pyramid", [3, 3], 18)
    extras = {e["name"]: e for e in data["extras"]}
    assert set(extras) == {"pyramid top", "pyramid bottom", "pyramid left", "pyramid right"}
    # top: r1c3-r1c7, r2c4-r2c6, r3c5
    assert sorted(extras["pyramid top"]["cells"]) == [2, 3, 4, 5, 6, 12, 13, 14, 22]
    assert not any(e["diagonal"] for e in extras.values())
    assert data["region"][0] == 0 and data["region"][80] == 8 and data["region"][30] == 4
    assert len(data["houses"]) == 27 + 4 and data["links"] is None
    assert shudu.parse_puzzle(json.dumps(data["json"])).to_string() == PYRAMID  # the JSON form rebuilds it


def test_parse_marks_x_diagonals_and_takes_other_formats(client: TestClient) -> None:
    grid = "1" + "." * 80
    block = "\n".join(" ".join(grid[r * 9 : r * 9 + 9]) for r in range(9))
    data = client.post("/api/parse", json={"puzzle": block, "variant": "x+anti-king"}).json()["puzzle"]
    assert [e["diagonal"] for e in data["extras"]] == [True, True]
    assert data["links"] is not None and 12 in data["links"][2]  # r1c3 and r2c4: a king's move, no house
    six = client.post("/api/parse", json={"puzzle": {"size": 6, "box": "2x3", "givens": SIX}}).json()
    assert six["puzzle"]["box"] == [2, 3] and six["puzzle"]["digits"] == list("123456")


def test_parse_a_jigsaw_layout(client: TestClient) -> None:
    layout = "1122112233443344"
    data = client.post("/api/parse", json={"puzzle": "1...............", "layout": layout}).json()
    assert data["puzzle"]["jigsaw"] and data["puzzle"]["region"] == [0, 0, 1, 1] * 2 + [2, 2, 3, 3] * 2


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        # a body that breaks its model (the OpenAPI document): 400
        ({"puzzle": PUZZLE, "variant": 7}, 400, '"variant" must be a string, not 7'),
        ({"puzzle": 42}, 400, '"puzzle" must be a string or an object, not 42'),
        ({"puzzle": "." * 30_000}, 400, '"puzzle" is 30000 characters; at most 20000'),
        ({}, 400, 'the request has no "puzzle"'),
        ({"puzzle": PUZZLE, "colour": "red"}, 400, "unknown field 'colour'; the fields are puzzle, variant"),
        # a body that fits its model, with a puzzle that cannot be read: 422
        ({"puzzle": PUZZLE[:-1] + "x"}, 422, "character 'x' at position 81 (r9c9) is not a digit"),
        ({"puzzle": PUZZLE[:-1]}, 422, "the puzzle has 80 cells"),
        ({"puzzle": "55" + "." * 79}, 422, "r1c1 and r1c2 both hold 5 in row 1"),
        ({"puzzle": PUZZLE, "variant": "hexagonal"}, 422, "unknown variant 'hexagonal'"),
        ({"puzzle": SIX, "variant": "pyramid"}, 422, "pyramid needs an odd square size"),
        ({"puzzle": PUZZLE, "box": "2x2"}, 422, "boxes of 2x2 do not tile a 9x9 grid"),
        ({"puzzle": "   "}, 422, "the puzzle is empty"),
        ({"puzzle": {"size": 9}}, 422, 'JSON puzzle has no "givens"'),
    ],
)
def test_bad_puzzles_get_a_precise_4xx(client: TestClient, body: dict, status: int, message: str) -> None:
    answer = client.post("/api/parse", json=body)
    assert answer.status_code == status
    assert message in answer.json()["error"]


def test_a_conflict_names_its_cells(client: TestClient) -> None:
    data = client.post("/api/solve", json={"puzzle": "55" + "." * 79}).json()
    assert data["cells"] == ["r1c1", "r1c2"] and data["kind"] == "ConflictError"


@pytest.mark.parametrize(
    ("content", "status", "message"),
    [
        (b"", 400, "the request has no body"),
        (b"{", 400, "the body is not valid JSON: Expecting property name"),
        (b"[1, 2]", 400, "the body must be a JSON object"),
        (b"\xff\xfe{}", 400, "not UTF-8"),
        (b"{" + b" " * MAX_BODY + b"}", 413, f"at most {MAX_BODY} are accepted"),
    ],
)
def test_bad_bodies_get_a_precise_4xx(client: TestClient, content: bytes, status: int, message: str) -> None:
    answer = client.post("/api/solve", content=content, headers={"content-type": "application/json"})
    assert answer.status_code == status
    assert message in answer.json()["error"]


def test_solve_answers_status_and_solution(client: TestClient) -> None:
    data = client.post("/api/solve", json={"puzzle": PUZZLE}).json()
    assert data["status"] == "unique"
    assert data["solution"] == solution_of(PUZZLE)
    none = client.post("/api/solve", json={"puzzle": "12....3........."}).json()
    several = client.post("/api/solve", json={"puzzle": "." * 16}).json()
    assert none["status"] in ("none", "unique", "multiple")  # any honest answer; checked below
    assert several["status"] == "multiple"
    assert none["status"] == shudu.solve("12....3.........").status
    bad = client.post("/api/solve", json={"puzzle": PUZZLE, "algorithm": "magic"})
    assert bad.status_code == 422 and "unknown algorithm 'magic'" in bad.json()["error"]


def test_count_stops_at_the_limit(client: TestClient) -> None:
    assert client.post("/api/count", json={"puzzle": "." * 16, "limit": 1000}).json() == {
        "count": 288,
        "complete": True,
        "reason": None,
    }
    capped = client.post("/api/count", json={"puzzle": "." * 16, "limit": 10}).json()
    assert capped["count"] == 10 and not capped["complete"]
    bad = client.post("/api/count", json={"puzzle": "." * 16, "limit": 0})
    assert bad.status_code == 400 and '"limit" must be 1 to 1000000, not 0' in bad.json()["error"]
    assert client.post("/api/count", json={"puzzle": "." * 16, "limit": "9"}).status_code == 400


def test_a_search_past_the_deadline_answers_instead_of_hanging(db: Path) -> None:
    client = TestClient(create_app(db, deadline=0.05))
    data = client.post("/api/count", json={"puzzle": "." * 81, "limit": 1_000_000}).json()
    assert data["complete"] is False and data["reason"] == "deadline" and data["count"] < 1_000_000


@pytest.mark.skipif(not features()["hint"], reason="this shudu has no hint yet")
def test_a_hint_points_at_a_real_step(client: TestClient) -> None:
    solution = solution_of(EASY)
    texts = []
    for level in ("vague", "technique", "step"):
        data = client.post("/api/hint", json={"puzzle": EASY, "level": level}).json()
        assert data["mistakes"] == [] and not data["solved"]
        texts.append(data["text"])
        step = data["step"]
        assert step["technique"] and (step["placements"] or step["eliminations"])
        for placed in step["placements"]:
            assert solution[placed["cell"]] == placed["digit"]  # cells are indices, digits right
        for struck in step["eliminations"]:
            assert solution[struck["cell"]] != struck["digit"]
    assert len(set(texts)) == 3  # each level says something different


@pytest.mark.skipif(not features()["hint"], reason="this shudu has no hint yet")
def test_a_hint_first_points_at_wrong_entries(client: TestClient) -> None:
    solution = solution_of(EASY)
    entries = [0] * 81
    entries[1] = solution[1] % 9 + 1  # wrong
    entries[2] = solution[2]  # right
    data = client.post("/api/hint", json={"puzzle": EASY, "entries": entries}).json()
    assert data["mistakes"] == [1] and data["step"] is None and "r1c2" in data["text"]
    bad = client.post("/api/hint", json={"puzzle": EASY, "entries": [0] * 80})
    assert bad.status_code == 422 and '"entries" has 80 cells; a 9x9 puzzle needs 81' in bad.json()["error"]
    level = client.post("/api/hint", json={"puzzle": EASY, "level": "everything"})
    assert level.status_code == 400 and "unknown hint level 'everything'" in level.json()["error"]


@pytest.mark.skipif(not features()["explain"], reason="this shudu has no explain yet")
def test_explain_gives_steps_that_solve_the_puzzle(client: TestClient) -> None:
    data = client.post("/api/explain", json={"puzzle": EASY}).json()
    solution = solution_of(EASY)
    values = [int(c) if c != "." else 0 for c in EASY]
    for step in data["steps"]:
        for placed in step["placements"]:
            assert solution[placed["cell"]] == placed["digit"]
            values[placed["cell"]] = placed["digit"]
    assert values == solution


@pytest.mark.skipif(not features()["rate"], reason="this shudu has no rate yet")
def test_rate_gives_a_level(client: TestClient) -> None:
    data = client.post("/api/rate", json={"puzzle": EASY}).json()
    assert data["level"] in ("easy", "medium", "hard", "unfair", "extreme")


@pytest.mark.parametrize("name", ["hint", "explain", "rate", "generate"])
def test_absent_features_answer_501(client: TestClient, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.delattr(shudu, name, raising=False)
    monkeypatch.delitem(shudu._LAZY, name)  # nor loaded on first use
    path = "/api/generate" if name == "generate" else f"/api/{name}"
    answer = client.post(path, json={"puzzle": EASY})
    assert answer.status_code == 501 and f"has no {name} yet" in answer.json()["error"]
    assert client.get("/api/features").json()["features"][name] is False


@pytest.mark.skipif(not features()["trace"], reason="this shudu has no enumeration trace yet")
def test_the_search_trace_replays_to_the_solution(client: TestClient) -> None:
    solved = solution_of(EASY)
    start = "".join(str(d) for d in [0] * 45 + solved[45:])
    data = client.post("/api/trace", json={"puzzle": start}).json()
    letters = {kind: letter for kind, (letter, _) in data["fields"].items()}
    steps = data["steps"]
    assert steps[0][0] == letters["start"] and len(steps[0][1]) == 81
    assert data["truncated"] is False, "the replay runs to the end of the search"
    solutions = [s[1] for s in steps if s[0] == letters["solution"]]
    assert solutions, "the search runs until it reaches a solution"
    for grid in solutions:  # each a full grid that keeps the givens and breaks no rule
        assert 0 not in grid and grid[45:] == solved[45:]
        assert shudu.count("".join(map(str, grid)), 2) == 1
    short = client.post("/api/trace", json={"puzzle": EASY, "limit": 5}).json()
    assert len(short["steps"]) == 5 and short["truncated"] is True
    assert client.post("/api/trace", json={"puzzle": EASY, "limit": 10**9}).status_code == 400


def test_new_puzzle_offers_only_kinds_the_generator_can_make(client: TestClient) -> None:
    offered = client.get("/api/features").json()["offered"]
    assert 4 not in offered["anti-king"], "4x4 anti-king has no solution"
    assert 6 in offered["anti-king"] and offered["pyramid"] == [9, 25] and 6 not in offered["windoku"]
    assert "jigsaw" in offered and 9 in offered["jigsaw"]
    for variant, sizes in offered.items():
        for size in sizes:
            if size <= 9 and variant != "jigsaw":
                empty = shudu.parse_puzzle(
                    json.dumps({"size": size, "givens": "0" * size * size}), variant=variant
                )
                assert shudu.count(empty, 1) == 1, (variant, size)


# --- new puzzles and the bank -----------------------------------------------------------------------


def bank_counts(client: TestClient) -> list[dict]:
    return client.get("/api/features").json()["bank"]


def check_new(data: dict, size: int, variant: str) -> shudu.Puzzle:
    """The puzzle of a /api/new answer, checked to be of the kind asked, unique and rated as said."""
    puzzle = shudu.parse_puzzle(json.dumps(data["puzzle"]["json"]))
    assert (puzzle.size, puzzle.variant.name) == (size, variant)
    assert shudu.count(puzzle, 2, algorithm="dlx") == 1
    assert data["level"] == shudu.rate(puzzle).level
    return puzzle


def test_a_new_puzzle_is_taken_from_the_bank_while_it_holds_that_kind(client: TestClient, db: Path) -> None:
    made = [shudu.generate(size=6, variant="x", level="easy", seed=seed) for seed in range(2)]
    banked = {m.puzzle.to_string() for m in made}
    Store(db).add_to_bank([(to_json(m.puzzle), "easy") for m in made], source="generated")
    assert bank_counts(client) == [{"size": 6, "variant": "x", "level": "easy", "puzzles": 2}]
    served = set()
    for left in (1, 0):
        data = client.post("/api/new", json={"size": 6, "variant": "x", "level": "easy"}).json()
        assert data["source"] == "bank" and data["level"] == "easy"
        served.add(check_new(data, 6, "x").to_string())
        assert sum(k["puzzles"] for k in bank_counts(client)) == left  # consumed from the bank
    assert served == banked
    data = client.post("/api/new", json={"size": 6, "variant": "x", "level": "easy"}).json()
    assert data["source"] == "generated" and data["puzzle"]["json"]["givens"] not in banked
    check_new(data, 6, "x")


def test_the_bank_picture_counts_waiting_puzzles_by_kind_and_level(client: TestClient, db: Path) -> None:
    assert client.get("/api/bank").json() == {"levels": list(LEVELS), "kinds": [], "total": 0}
    easy = [shudu.generate(size=6, level="easy", seed=seed) for seed in range(3)]
    hard = [shudu.generate(size=6, level="hard", seed=seed) for seed in range(2)]
    x = shudu.generate(size=4, variant="x", seed=1)
    Store(db).add_to_bank(
        [(to_json(m.puzzle), str(m.level)) for m in easy + hard] + [(to_json(x.puzzle), "easy")],
        source="generated",
    )
    bank = client.get("/api/bank").json()
    assert bank["kinds"] == [
        {"size": 4, "variant": "x", "level": "easy", "puzzles": 1},
        {"size": 6, "variant": "standard", "level": "easy", "puzzles": 3},
        {"size": 6, "variant": "standard", "level": "hard", "puzzles": 2},
    ]
    assert bank["total"] == 6
    # a puzzle served is no longer waiting
    assert client.post("/api/new", json={"size": 6, "level": "hard"}).json()["source"] == "bank"
    after = {(k["size"], k["level"]): k["puzzles"] for k in client.get("/api/bank").json()["kinds"]}
    assert after[6, "hard"] == 1 and client.get("/api/bank").json()["total"] == 5


@pytest.mark.parametrize(
    ("size", "variant", "level"),
    [
        (4, "standard", "easy"),
        (6, "standard", "easy"),
        (9, "standard", "easy"),
        (9, "pyramid", None),
        (6, "jigsaw", "easy"),
        (9, "jigsaw", None),
    ],
)
def test_from_an_empty_bank_a_new_puzzle_is_generated_with_one_solution_and_its_level(
    client: TestClient, size: int, variant: str, level: str | None
) -> None:
    data = client.post("/api/new", json={"size": size, "variant": variant, "level": level}).json()
    assert data["source"] == "generated"
    check_new(data, size, variant)
    if level is not None:
        assert data["level"] == level
    assert bank_counts(client) == []


@pytest.mark.parametrize(
    ("route", "rules", "size"), [("/api/new", "killer", 4), ("/api/generate", "thermo", 6)]
)
def test_a_new_puzzle_of_a_rule_set_is_made_with_its_rules(
    client: TestClient, route: str, rules: str, size: int
) -> None:
    assert size in client.get("/api/features").json()["rule_sets"][rules]
    answer = client.post(route, json={"size": size, "rules": rules})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    kinds = {rule["rule"] for rule in data["puzzle"]["rules"]}
    assert kinds == {"cage" if rules == "killer" else "thermo"}
    puzzle = shudu.parse_puzzle(json.dumps(data["puzzle"]["json"]))
    assert shudu.count(puzzle, 2) == 1
    assert data["source"] == "generated" and data["level"] == shudu.rate(puzzle).level
    assert bank_counts(client) == []  # rule puzzles are made on demand, not banked


def test_a_new_puzzle_of_a_rule_set_is_taken_from_the_bank_when_it_holds_one(
    client: TestClient, db: Path
) -> None:
    made = shudu.generate(4, rules="killer", level="easy", seed=2)
    entry = BankEntry(to_json(made.puzzle), "easy", rule_set="killer")
    Store(db).add_to_bank([entry], source="generated")
    assert bank_counts(client) == [{"size": 4, "variant": "killer", "level": "easy", "puzzles": 1}]
    assert client.post("/api/new", json={"size": 4, "level": "easy"}).json()["source"] == "generated"
    data = client.post("/api/new", json={"size": 4, "rules": "killer", "level": "easy"}).json()
    assert data["source"] == "bank" and data["puzzle"]["rules"]
    assert to_json(shudu.parse_puzzle(json.dumps(data["puzzle"]["json"]))) == to_json(made.puzzle)
    data = client.post("/api/new", json={"size": 4, "rules": "killer", "level": "easy"}).json()
    assert data["source"] == "generated"


def test_a_rule_set_the_generator_does_not_make_is_a_clear_4xx(client: TestClient) -> None:
    answer = client.post("/api/new", json={"size": 9, "rules": "renban"})
    assert answer.status_code == 422
    assert "does not make 'renban' puzzles" in answer.json()["error"] and "killer" in answer.json()["error"]
    answer = client.post("/api/new", json={"size": 9, "rules": "killer", "variant": "x"})
    assert answer.status_code == 422, answer.text


def test_generate_makes_a_puzzle_of_the_kind_asked(client: TestClient) -> None:
    data = client.post("/api/generate", json={"size": 9, "variant": "x", "level": "easy"}).json()
    assert data["source"] == "generated" and data["level"] == "easy"
    check_new(data, 9, "x")


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"size": 9, "level": "impossible"}, 400, "unknown level 'impossible'"),
        ({"size": 3}, 400, '"size" must be 4 to 25, not 3'),
        ({"size": "9"}, 400, '"size" must be a whole number'),
        ({"size": 9.5}, 400, '"size" must be a whole number'),
        ({"size": 19}, 400, "a 19x19 grid has no box shape"),  # the document's enum says so too
        ({"size": 9, "colour": "red"}, 400, "unknown field 'colour'"),
        ({"size": 6, "variant": "pyramid"}, 422, "pyramid needs an odd square size"),
    ],
)
def test_new_puzzle_requests_are_checked(client: TestClient, body: dict, status: int, message: str) -> None:
    answer = client.post("/api/new", json=body)
    assert answer.status_code == status and message in answer.json()["error"]


def test_a_request_the_generator_can_never_meet_gets_its_message(client: TestClient) -> None:
    answer = client.post("/api/new", json={"size": 4, "level": "extreme"})
    assert answer.status_code == 422 and answer.json()["kind"] == "GeneratorError"
    assert "no 4x4 puzzle is extreme" in answer.json()["error"]


def wait_for_new(client: TestClient, body: dict, polls: int = 1500) -> tuple[dict, list[dict]]:
    """Ask /api/new until it answers a puzzle; the answer and the progress reports seen before."""
    reports = []
    for _ in range(polls):
        answer = client.post("/api/new", json=body)
        if answer.status_code == 200:
            return answer.json(), reports
        assert answer.status_code == 202, answer.text
        reports.append(answer.json()["making"])
        time.sleep(0.2)
    raise AssertionError(f"no puzzle after {polls} asks: {reports[-1:]}")


@pytest.mark.c_speed  # two minutes on the pure-Python core; the 9x9 case below makes one in the background on both
def test_a_big_puzzle_is_made_in_the_background_with_progress_never_a_503(db: Path) -> None:
    # a level, so that the making takes a second rather than the minute or two of rating a
    # minimal 16x16 puzzle of any level in full (its Franken fish are searched in Python)
    kind = {"size": 16, "level": "hard"}
    with TestClient(create_app(db)) as client:
        first = client.post("/api/new", json=kind)
        assert first.status_code == 202  # 16x16 is never made within one request
        data, polled = wait_for_new(client, kind)
        assert data["source"] in ("generated", "bank")  # made, then put in the bank for this ask
        check_new(data, 16, "standard")
        assert data["level"] == "hard"
        reports = [first.json()["making"], *polled]
        assert all(r["size"] == 16 and r["level"] == "hard" and r["state"] == "making" for r in reports)
        assert [r["seconds"] for r in reports] == sorted(r["seconds"] for r in reports)
        assert bank_counts(client) == []  # made for this request, and served to it
        assert client.app.state.api.maker.running() == []  # type: ignore[attr-defined]


def test_a_kind_that_overruns_the_deadline_is_made_in_the_background(db: Path) -> None:
    with TestClient(create_app(db, deadline=0.01)) as client:
        body = {"size": 9, "variant": "x", "level": "easy"}
        first = client.post("/api/new", json=body)
        assert first.status_code in (200, 202)  # in time only on a very fast machine
        data, _ = wait_for_new(client, body)
        assert data["level"] == "easy"
        check_new(data, 9, "x")


def test_too_many_makings_at_once_get_429(db: Path) -> None:
    with TestClient(create_app(db, workers=1)) as client:
        assert client.post("/api/new", json={"size": 25}).status_code == 202
        refused = client.post("/api/new", json={"size": 16, "level": "easy"})
        assert refused.status_code == 429 and "being made already" in refused.json()["error"]
        assert refused.headers["Retry-After"] == "5"
        again = client.post("/api/new", json={"size": 25})  # the same kind: its progress
        assert again.status_code == 202 and again.json()["making"]["size"] == 25


# --- hostile input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 100_000, "nested more than"),
        (b'{"puzzle": ' + b"[" * 40 + b"]" * 40 + b"}", "nested more than"),
        (b'{"puzzle": "x", "limit": ' + b"7" * 5000 + b"}", "5000 digits"),
        (b'{"limit": 1e999}', "too large"),
        (b'{"limit": NaN}', "NaN is not a JSON number"),
    ],
)
def test_hostile_bodies_get_a_4xx_not_a_500(client: TestClient, content: bytes, message: str) -> None:
    for path in ("/api/solve", "/api/count", "/api/games"):
        answer = client.post(path, content=content, headers={"content-type": "application/json"})
        assert answer.status_code == 422 and message in answer.json()["error"], path


def test_an_unforeseen_failure_answers_json(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(shudu, "solve", broken)
    answer = TestClient(create_app(db), raise_server_exceptions=False).post(
        "/api/solve", json={"puzzle": PUZZLE}
    )
    assert answer.status_code == 500 and "ZeroDivisionError" in answer.json()["error"]
