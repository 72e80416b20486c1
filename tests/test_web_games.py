"""The web API's saved games and players, through the ASGI test client: a game saved, listed,
versioned and seen only by its player; the token and the host warning."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")

from starlette.testclient import TestClient

import shudu
from shudu.web import create_app
from shudu.web.players import host_warning

PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
PYRAMID = "...8..7....1.42....65...1...49.......8.6........9...6.......4.......15..1........"


def solution_of(puzzle: str, **options: object) -> list[int]:
    result = shudu.solve(puzzle, **options)
    assert result.solution is not None
    return list(result.solution.cells)


def test_a_game_is_created_saved_listed_and_survives_a_restart(client: TestClient, db: Path) -> None:
    created = client.post("/api/games", json={"puzzle": PYRAMID, "variant": "pyramid", "level": "hard"})
    assert created.status_code == 201
    game = created.json()
    assert game["puzzle"]["variant"] == "pyramid" and game["entries"] == [0] * 81
    solution = solution_of(PYRAMID, variant="pyramid")
    entries = [0] * 81
    entries[0] = solution[0]
    corner = [[] for _ in range(81)]
    corner[1] = [1, 2]
    history = {"undo": [[{"cell": 0, "before": {"v": 0}, "after": {"v": solution[0]}}]], "redo": []}
    body = {"version": 1, "entries": entries, "corner": corner, "history": history, "elapsed_ms": 4200}
    saved = client.put(f"/api/games/{game['id']}", json=body)
    assert saved.status_code == 200 and saved.json()["filled"] == 19 and saved.json()["version"] == 2

    restarted = TestClient(create_app(db), cookies=client.cookies)  # a new server on the same file
    listed = restarted.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    loaded = restarted.get(f"/api/games/{game['id']}").json()
    assert loaded["entries"] == entries and loaded["corner"][1] == [1, 2]
    assert loaded["history"] == history and loaded["elapsed_ms"] == 4200 and loaded["level"] == "hard"
    assert loaded["puzzle"]["extras"][0]["name"] == "pyramid top"

    assert restarted.delete(f"/api/games/{game['id']}").status_code == 204
    assert restarted.get(f"/api/games/{game['id']}").status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"entries": [5] + [0] * 80}, 422, '"entries": r1c1 is a given and cannot hold an entry'),
        ({"entries": [0] * 80}, 422, '"entries" has 80 cells'),
        ({"entries": [0] * 80 + [10]}, 422, '"entries": r9c9 holds 10; use 0 (empty) to 9'),
        ({"corner": [[]] * 80}, 422, "corner marks list 80 cells"),
        ({"history": {"undo": []}}, 400, '"history.redo" is missing'),
        (
            {"history": {"undo": [[{"cell": 81}]], "redo": []}},
            422,
            "names cell 81; a 9x9 puzzle has cells 0 to 80",
        ),
        ({"history": {"undo": [], "redo": ["r1c1"]}}, 400, '"history.redo.0" must be a list'),
        ({"history": {"undo": [], "redo": [], "x": []}}, 400, "unknown field 'x' in \"history\""),
        ({"elapsed_ms": 2**63}, 400, '"elapsed_ms" must be 0 to 3153600000000'),
        ({"elapsed_ms": "soon"}, 400, '"elapsed_ms" must be a whole number'),
        ({"elapsed_ms": 1.5}, 400, '"elapsed_ms" must be a whole number'),
        ({"finished": "yes"}, 400, '"finished" must be true or false'),
        ({"colour": "red"}, 400, "unknown field 'colour' in a saved game"),
    ],
)
def test_bad_saves_are_refused_and_change_nothing(
    client: TestClient, body: dict, status: int, message: str
) -> None:
    game = client.post("/api/games", json={"puzzle": PUZZLE}).json()
    answer = client.put(f"/api/games/{game['id']}", json={"version": 1, **body})
    assert answer.status_code == status and message in answer.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["entries"] == [0] * 81


def test_missing_games_are_404(client: TestClient) -> None:
    assert client.get("/api/games/99").json()["error"] == "no saved game 99"
    assert client.get("/api/games/99").status_code == 404
    assert client.put("/api/games/99", json={"version": 1, "elapsed_ms": 1}).status_code == 404
    assert client.delete("/api/games/99").status_code == 404
    for bad in ("abc", "0", "-1", "99999999999999999999999", "%C2%B2", "1e3", "%20"):
        answer = client.get(f"/api/games/{bad}")
        assert answer.status_code == 404 and "error" in answer.json(), bad
    assert client.put("/api/games/%C2%B2", json={"version": 1}).status_code == 404


def test_a_save_names_its_version_and_a_stale_one_is_refused_with_409(client: TestClient) -> None:
    game = client.post("/api/games", json={"puzzle": PUZZLE}).json()
    path = f"/api/games/{game['id']}"
    missing = client.put(path, json={"elapsed_ms": 5})
    assert missing.status_code == 400 and 'the request has no "version"' in missing.json()["error"]
    entries = [0] * 81
    entries[1] = 1
    assert client.put(path, json={"version": 1, "entries": entries}).json()["version"] == 2
    stale = client.put(path, json={"version": 1, "entries": [0] * 81})  # a second page, still on version 1
    assert stale.status_code == 409
    assert stale.json()["version"] == 2 and "reload" in stale.json()["error"]
    assert client.get(path).json()["entries"] == entries  # the first page's move is kept


def test_a_stale_save_of_the_moves_saved_already_is_no_conflict(client: TestClient) -> None:
    # a page reloaded right after a move sends that move again, based on the version it loaded,
    # while the last page's save of the same move is still on its way: whichever lands second
    # overwrites nothing and is no conflict
    game = client.post("/api/games", json={"puzzle": PUZZLE}).json()
    path = f"/api/games/{game['id']}"
    corner = [[] for _ in range(81)]
    corner[1] = [1, 2]
    assert client.put(path, json={"version": 1, "corner": corner, "elapsed_ms": 50}).json()["version"] == 2
    again = client.put(path, json={"version": 1, "corner": corner, "elapsed_ms": 80})
    assert again.status_code == 200 and again.json()["version"] == 2
    saved = client.get(path).json()
    assert saved["corner"] == corner and saved["elapsed_ms"] == 80 and saved["version"] == 2
    other = [[] for _ in range(81)]
    other[1] = [1]
    refused = client.put(path, json={"version": 1, "corner": other})  # a move the saved game lacks
    assert refused.status_code == 409 and refused.json()["version"] == 2
    assert client.get(path).json()["corner"] == corner


def test_a_stale_save_that_carries_on_from_the_saved_moves_is_no_conflict(client: TestClient) -> None:
    # a page reloaded before its save of move 1 landed holds moves 1 and 2, based on the version
    # before move 1: once move 1 lands, that save carries on from it and overwrites nothing
    game = client.post("/api/games", json={"puzzle": PUZZLE}).json()
    path = f"/api/games/{game['id']}"
    one = {"cell": 1, "before": {"corner": []}, "after": {"corner": [1]}}
    two = {"cell": 2, "before": {"corner": []}, "after": {"corner": [1]}}
    corner = [[] for _ in range(81)]
    corner[1] = [1]
    first = {"corner": corner, "history": {"undo": [[one]], "redo": []}}
    assert client.put(path, json={"version": 1, **first}).json()["version"] == 2
    both = [list(marks) for marks in corner]
    both[2] = [1]
    later = {"corner": both, "history": {"undo": [[one], [two]], "redo": []}}
    carried = client.put(path, json={"version": 1, **later})
    assert carried.status_code == 200 and carried.json()["version"] == 3
    assert client.get(path).json()["corner"] == both
    # a history that does not hold the saved moves, in order, is still a conflict
    other = {"corner": both, "history": {"undo": [[two], [one]], "redo": []}}
    assert client.put(path, json={"version": 2, **other}).status_code == 409
    shorter = {"corner": corner, "history": {"undo": [[one]], "redo": []}}
    assert client.put(path, json={"version": 2, **shorter}).status_code == 409
    # nor does a save carry on from a game whose last move was undone (the undo would be lost)
    undone = {"corner": corner, "history": {"undo": [[one]], "redo": [[two]]}}
    assert client.put(path, json={"version": 3, **undone}).json()["version"] == 4
    redone = {"corner": both, "history": {"undo": [[one], [two]], "redo": []}}
    assert client.put(path, json={"version": 3, **redone}).status_code == 409
    assert client.get(path).json()["history"]["redo"] == [[two]]


def test_ids_are_not_reused_so_a_deleted_games_page_cannot_write_into_a_new_game(client: TestClient) -> None:
    old = client.post("/api/games", json={"puzzle": PUZZLE}).json()
    assert client.delete(f"/api/games/{old['id']}").status_code == 204
    new = client.post("/api/games", json={"puzzle": PUZZLE}).json()
    assert new["id"] != old["id"]
    late = client.put(f"/api/games/{old['id']}", json={"version": 1, "elapsed_ms": 9})
    assert late.status_code == 404
    assert client.get(f"/api/games/{new['id']}").json()["elapsed_ms"] == 0


def test_only_a_puzzle_with_one_solution_is_saved_as_a_game(client: TestClient) -> None:
    several = client.post("/api/games", json={"puzzle": "." * 81})
    assert several.status_code == 422 and "several solutions" in several.json()["error"]
    none = client.post("/api/games", json={"puzzle": "12345678." + "........9" + "." * 63})
    assert none.status_code == 422 and "no solution" in none.json()["error"]
    assert client.get("/api/games").json()["games"] == []


# --- players and the token -------------------------------------------------------------------------


def test_each_player_sees_only_their_own_games(db: Path) -> None:
    app = create_app(db)
    alice, bob = TestClient(app), TestClient(app)
    first = alice.get("/")
    cookie = first.headers["set-cookie"]
    assert "shudu_player=" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    game = alice.post("/api/games", json={"puzzle": PUZZLE}).json()
    path = f"/api/games/{game['id']}"
    assert [g["id"] for g in alice.get("/api/games").json()["games"]] == [game["id"]]
    assert bob.get("/api/games").json()["games"] == []
    for answer in (bob.get(path), bob.put(path, json={"version": 1, "elapsed_ms": 1}), bob.delete(path)):
        assert answer.status_code == 404 and answer.json()["error"] == f"no saved game {game['id']}"
    assert alice.get(path).json()["elapsed_ms"] == 0 and alice.get(path).json()["version"] == 1
    assert "set-cookie" not in alice.get("/api/games").headers  # the key is kept, not renewed
    forged = TestClient(app, cookies={"shudu_player": "x"})  # not a key the server would make
    assert forged.get("/api/games").json()["games"] == []


def test_a_token_keeps_out_whoever_lacks_it(db: Path) -> None:
    app = create_app(db, token="s3cret-token")
    stranger = TestClient(app)
    for answer in (stranger.get("/"), stranger.get("/api/games"), stranger.get("/api/features")):
        assert answer.status_code == 401 and "token" in answer.json()["error"]
    assert TestClient(app, cookies={"shudu_token": "wrong-token"}).get("/api/games").status_code == 401
    friend = TestClient(app)
    page = friend.get("/?token=s3cret-token")
    assert page.status_code == 200 and "shudu_token=s3cret-token" in page.headers["set-cookie"]
    assert friend.get("/api/games").status_code == 200  # the cookie carries it from now on
    bearer = TestClient(app, headers={"Authorization": "Bearer s3cret-token"})
    assert bearer.get("/api/features").status_code == 200
    with pytest.raises(ValueError, match="access token"):
        create_app(db, token="a b")


@pytest.mark.parametrize(
    ("host", "warned"),
    [("127.0.0.1", False), ("localhost", False), ("::1", False), ("0.0.0.0", True), ("192.168.1.4", True)],
)
def test_a_host_other_than_loopback_gets_a_warning(host: str, warned: bool) -> None:
    warning = host_warning(host)
    assert (warning is not None) == warned
    if warning:
        assert host in warning and "--token" in warning
