"""The web server safe by default, tested through a real uvicorn server and real sockets: writes
only from the page's own origin and only as JSON, player keys only from the server, the Host
checked, slow clients timed out, a client gone mid-body one quiet log line, an idle save that
keeps the version."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install 'shudu[web]')")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.datastructures import Headers  # noqa: E402
from starlette.responses import JSONResponse  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from shudu.web import bodies, create_app  # noqa: E402
from shudu.web.guard import Guard, allowed_for, check_hosts, host_of  # noqa: E402
from shudu.web.players import PLAYER_COOKIE, PlayerKeys  # noqa: E402
from shudu.web.server import TimedH11Protocol  # noqa: E402

PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
#: The deadlines of the server under test: short, so a slow client is seen timed out quickly.
DEADLINE = 1.0


class QuickProtocol(TimedH11Protocol):
    header_deadline = DEADLINE


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body)  # type: ignore[no-any-return]


@dataclass
class Server:
    port: int
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | str | dict | None = None,
        headers: dict[str, str] | None = None,
        *,
        host: str | None = None,
        keep_cookies: bool = True,
    ) -> Answer:
        """One request on a fresh connection, with this client's cookies (and the ones it is set)."""
        sent = {"Host": f"127.0.0.1:{self.port}" if host is None else host, **(headers or {})}
        if isinstance(body, dict):
            body = json.dumps(body)
            sent.setdefault("Content-Type", "application/json")
        if self.cookies:
            sent.setdefault("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in sent.items():
                connection.putheader(name, value)
            data = body.encode() if isinstance(body, str) else body
            if data is not None:
                connection.putheader("Content-Length", str(len(data)))
            connection.endheaders(data)
            response = connection.getresponse()
            answer = Answer(
                response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
            )
            for cookie in response.headers.get_all("set-cookie") or []:
                name, _, rest = cookie.partition("=")
                if keep_cookies:
                    self.cookies[name] = rest.partition(";")[0]
            return answer
        finally:
            connection.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A real uvicorn server on 127.0.0.1, as ``shudu serve`` runs it, with short deadlines."""
    db = tmp_path_factory.mktemp("safety") / "games.sqlite3"
    saved = bodies.BODY_DEADLINE
    bodies.BODY_DEADLINE = DEADLINE
    app = create_app(db, workers=1, allowed_hosts=allowed_for("127.0.0.1"))
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, http=QuickProtocol, log_level="info")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(600):
            if server.started:
                break
            time.sleep(0.05)
        assert server.started, "the server did not start"
        yield port
    finally:
        server.should_exit = True
        thread.join(30)
        bodies.BODY_DEADLINE = saved


@pytest.fixture
def player(running: int) -> Server:
    """A client with a player key of the server's making."""
    client = Server(running)
    assert client.request("GET", "/api/games").status == 200 and PLAYER_COOKIE in client.cookies
    return client


def game_count(client: Server) -> int:
    return len(client.request("GET", "/api/games").json()["games"])


# --- writes only from the page's own origin, only as JSON -----------------------------------------


def test_a_same_origin_json_write_works(player: Server) -> None:
    origin = f"http://127.0.0.1:{player.port}"
    headers = {"Origin": origin, "Sec-Fetch-Site": "same-origin"}
    made = player.request("POST", "/api/games", {"puzzle": PUZZLE}, headers)
    assert made.status == 201, made.body
    assert game_count(player) == 1
    # as the page names the server: localhost, and without a port on a server at port 80's place
    local = player.request(
        "POST",
        "/api/parse",
        {"puzzle": PUZZLE},
        {"Origin": f"http://localhost:{player.port}"},
        host=f"localhost:{player.port}",
    )
    assert local.status == 200


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/plain;charset=UTF-8", json.dumps({"puzzle": PUZZLE})),  # fetch(..., {mode: "no-cors"})
        ("text/plain", '{"puzzle": "' + PUZZLE + '", "x": "="}'),  # <form enctype="text/plain">
        ("application/x-www-form-urlencoded", "puzzle=" + PUZZLE),  # a plain <form>
        ("multipart/form-data; boundary=x", "--x\r\n\r\n{}\r\n--x--"),
    ],
)
def test_a_cross_origin_write_a_page_can_send_without_asking_is_refused(
    player: Server, content_type: str, body: str
) -> None:
    """What a browser sends for a page on another port of the same host: its Origin, "same-site"
    (ports do not make sites), and a body type no preflight guards."""
    before = game_count(player)
    for headers in (
        {"Origin": "http://127.0.0.1:9", "Sec-Fetch-Site": "same-site", "Content-Type": content_type},
        {"Origin": "http://127.0.0.1:9", "Content-Type": content_type},  # a browser without Sec-Fetch
        {"Sec-Fetch-Site": "cross-site", "Content-Type": content_type},
        {"Origin": "null", "Content-Type": content_type},  # a sandboxed frame or a file
        {"Origin": "http://[::1", "Content-Type": content_type},  # not even a URL
    ):
        answer = player.request("POST", "/api/games", body, headers)
        assert answer.status == 403, (headers, answer.body)
        assert answer.json()["kind"] == "CrossOrigin" and "another" in answer.json()["error"]
    # without an Origin (not a browser), a body that is not JSON is still refused
    plain = player.request("POST", "/api/games", body, {"Content-Type": content_type})
    assert plain.status == 415 and "application/json" in plain.json()["error"]
    assert game_count(player) == before


def test_every_write_method_is_guarded_and_reads_are_not(player: Server) -> None:
    made = player.request("POST", "/api/games", {"puzzle": PUZZLE}).json()
    path = f"/api/games/{made['id']}"
    other = {"Origin": "http://evil.example:8000"}
    put = player.request("PUT", path, {"version": 1, "entries": [0] * 81, "finished": True}, other)
    assert player.request("DELETE", path, headers=other).status == put.status == 403
    assert (
        player.request("GET", path, headers=other).status == 200
    )  # a read: the browser keeps it from the page
    assert player.request("GET", path).json()["finished"] is False


def test_an_unknown_field_is_refused_by_name(player: Server) -> None:
    answer = player.request("POST", "/api/games", {"puzzle": PUZZLE, "owner": "mallory"})
    assert answer.status == 400 and answer.json()["field"] == "owner"
    assert "unknown field 'owner'" in answer.json()["error"]


# --- player keys from the server only -------------------------------------------------------------


def test_a_player_key_the_server_did_not_make_is_never_adopted(running: int) -> None:
    forged = "A" * 22  # the shape of an old key, chosen by the client
    for key in (forged, "A" * 24 + "." + "B" * 24, "x"):
        client = Server(running, cookies={PLAYER_COOKIE: key})
        answer = client.request("POST", "/api/games", {"puzzle": PUZZLE})
        assert answer.status == 201
        issued = client.cookies[PLAYER_COOKIE]
        assert issued != key  # a fresh key was set instead
        assert (
            Server(running, cookies={PLAYER_COOKIE: key}).request("GET", "/api/games").json()["games"] == []
        )
        mine = Server(running, cookies={PLAYER_COOKIE: issued}).request("GET", "/api/games").json()["games"]
        assert [g["id"] for g in mine] == [answer.json()["id"]]


def test_an_issued_key_is_kept_and_a_tampered_one_is_not(player: Server) -> None:
    key = player.cookies[PLAYER_COOKIE]
    again = player.request("GET", "/api/games")
    assert "set-cookie" not in again.headers
    nonce, _, signature = key.partition(".")
    tampered = Server(player.port, cookies={PLAYER_COOKIE: f"{nonce}.{signature[::-1]}"})
    assert "set-cookie" in tampered.request("GET", "/api/games").headers


def test_keys_are_checked_without_a_fault_whatever_they_hold() -> None:
    keys = PlayerKeys(b"a secret")
    key = keys.new()
    assert keys.is_issued(key) and not PlayerKeys(b"another secret").is_issued(key)
    for odd in ("", ".", "A" * 24 + ".é", "é" * 24 + "." + key.partition(".")[2], key + "x", "A" * 22):
        assert not keys.is_issued(odd), odd


def test_a_key_from_before_keys_were_signed_is_taken_while_it_owns_games(tmp_path: Path) -> None:
    from shudu.store import Game, Store

    store = Store(tmp_path / "old.sqlite3")
    old = "q" * 22
    store.save_game(Game.new({"size": 4, "givens": "1..............."}, player=old))
    client = TestClient(create_app(store=store), cookies={PLAYER_COOKIE: old})
    assert len(client.get("/api/games").json()["games"]) == 1
    assert "set-cookie" not in client.get("/api/games").headers


# --- the Host -------------------------------------------------------------------------------------


def test_a_request_naming_another_host_gets_400(running: int) -> None:
    client = Server(running)
    for host in (f"127.0.0.1:{running}", f"localhost:{running}", f"[::1]:{running}", "localhost"):
        assert client.request("GET", "/api/features", host=host).status == 200, host
    for host in ("evil.example", f"evil.example:{running}", f"127.0.0.1.evil.example:{running}", ""):
        answer = client.request("GET", "/api/features", host=host, keep_cookies=False)
        assert answer.status == 400, host
        assert answer.json()["kind"] == "BadHost" and "--allowed-host" in answer.json()["error"]
        assert "set-cookie" not in answer.headers


def test_the_allowed_hosts_of_a_server() -> None:
    assert allowed_for("127.0.0.1") == ["localhost", "127.0.0.1", "::1"]
    assert allowed_for("192.168.1.4", ["Sudoku.Example.org"]) == [
        "localhost",
        "127.0.0.1",
        "::1",
        "192.168.1.4",
        "sudoku.example.org",
    ]
    assert allowed_for("0.0.0.0") is None and allowed_for("::") is None  # names unknown: any
    assert allowed_for("0.0.0.0", ["box.lan"]) == ["localhost", "127.0.0.1", "::1", "box.lan"]
    assert allowed_for("127.0.0.1", ["*"]) is None
    assert check_hosts(["[::1]", "*.example.org"]) == ["::1", "*.example.org"]
    for bad in ("", "host:8000", "a/b", "a b", "http://x"):
        with pytest.raises(ValueError, match="not a host name"):
            check_hosts([bad])
    assert host_of("[::1]:8000") == ("::1", 8000) and host_of("Example.org") == ("example.org", None)


def test_wildcard_hosts_and_any_host(db_path: Path) -> None:
    app = create_app(db_path, allowed_hosts=["*.example.org"])
    assert TestClient(app, base_url="http://a.example.org").get("/api/features").status_code == 200
    assert TestClient(app, base_url="http://example.org.evil").get("/api/features").status_code == 400
    assert TestClient(create_app(db_path), base_url="http://anything").get("/api/features").status_code == 200


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


# --- slow and vanishing clients -------------------------------------------------------------------


def raw(port: int) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=10 * DEADLINE)
    return connection


def closed_within(connection: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closes ``connection`` within ``seconds``, and what it sent first."""
    connection.settimeout(seconds)
    received = b""
    try:
        while chunk := connection.recv(4096):
            received += chunk
    except TimeoutError:
        return False, received
    except ConnectionResetError:
        pass
    return True, received


def test_headers_that_never_finish_are_cut_off(running: int) -> None:
    silent = raw(running)  # connects and sends nothing
    trickle = raw(running)
    trickle.sendall(b"GET /api/features HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    for _ in range(3):  # a header line now and then, never the blank line that ends them
        time.sleep(DEADLINE / 2)
        try:
            trickle.sendall(b"X-Slow: 1\r\n")
        except OSError:
            break
    assert closed_within(trickle, 3 * DEADLINE)[0]
    assert closed_within(silent, 3 * DEADLINE)[0]
    silent.close()
    trickle.close()


def test_a_kept_alive_connection_is_not_cut_while_requests_come(running: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", running, timeout=10)
    for _ in range(3):  # one connection, a request every 0.6 deadlines: 1.8 deadlines in all
        connection.request("GET", "/api/features")
        response = connection.getresponse()
        assert response.status == 200 and response.read()
        time.sleep(DEADLINE * 0.6)
    connection.close()


def test_a_body_that_never_finishes_gets_408(running: int) -> None:
    connection = raw(running)
    connection.sendall(
        f"POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:{running}\r\nContent-Type: application/json\r\n"
        'Content-Length: 100\r\n\r\n{"puzzle":'.encode()
    )
    closed, received = closed_within(connection, 5 * DEADLINE)
    assert closed and received.startswith(b"HTTP/1.1 408")
    assert b"did not arrive within" in received
    connection.close()


def test_a_client_gone_mid_body_is_one_quiet_log_line(running: int, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    connection = raw(running)
    connection.sendall(
        f"PUT /api/games/1 HTTP/1.1\r\nHost: 127.0.0.1:{running}\r\nContent-Type: application/json\r\n"
        'Content-Length: 5000\r\n\r\n{"version": 1, '.encode()
    )
    time.sleep(0.2)
    connection.close()
    for _ in range(100):
        if any("499" in r.getMessage() for r in caplog.records):
            break
        time.sleep(0.05)
    time.sleep(0.2)
    lines = [r for r in caplog.records if "/api/games/1" in r.getMessage() or r.exc_info]
    assert len(lines) == 1, [r.getMessage() for r in caplog.records]
    assert "499" in lines[0].getMessage() and "went away" in lines[0].getMessage()
    assert lines[0].levelno == logging.INFO and lines[0].exc_info is None
    assert "Traceback" not in caplog.text and "unexpected error" not in caplog.text


# --- the idle save ----------------------------------------------------------------------------------


def test_an_idle_save_keeps_the_version_so_two_idle_pages_never_clash(player: Server) -> None:
    game = player.request("POST", "/api/games", {"puzzle": PUZZLE}).json()
    path = f"/api/games/{game['id']}"
    state = {k: game[k] for k in ("entries", "corner", "centre", "history", "finished")}
    # two pages of the game, both idle: their clocks run, their saves change only the time
    for elapsed in (15_000, 16_000, 30_000, 31_000, 45_000):
        saved = player.request("PUT", path, {"version": 1, **state, "elapsed_ms": elapsed})
        assert saved.status == 200 and saved.json()["version"] == 1
    assert player.request("PUT", path, {"version": 1, **state, "elapsed_ms": 31_000}).status == 200
    assert player.request("GET", path).json()["elapsed_ms"] == 45_000  # time is never wound back
    unchanged = player.request("PUT", path, {"version": 1})
    assert unchanged.status == 200 and unchanged.json()["version"] == 1
    # a move does move the version on; a page still on the old one is told
    entries = list(state["entries"])
    entries[1] = 1
    assert player.request("PUT", path, {"version": 1, "entries": entries}).json()["version"] == 2
    stale = player.request("PUT", path, {"version": 1, **state, "elapsed_ms": 50_000})
    assert stale.status == 409
    assert player.request("PUT", path, {"version": 2, "entries": entries}).json()["version"] == 2


# --- the 405 ----------------------------------------------------------------------------------------


def test_a_method_a_path_lacks_gets_405_with_allow(player: Server) -> None:
    for method, path, allowed in (
        ("TRACE", "/api/solve", {"POST"}),
        ("PATCH", "/api/games", {"GET", "HEAD", "POST"}),
        ("POST", "/api/games/1", {"GET", "HEAD", "PUT", "DELETE"}),
        ("PUT", "/api/features", {"GET", "HEAD"}),
    ):
        answer = player.request(method, path, {"puzzle": PUZZLE})
        assert answer.status == 405, (method, path)
        assert {m.strip() for m in answer.headers["allow"].split(",")} == allowed
        assert f"{method} is not allowed here" in answer.json()["error"]


@settings(max_examples=300, deadline=None)
@given(host=st.text(max_size=40), origin=st.text(max_size=40), site=st.text(max_size=20))
def test_any_host_origin_or_fetch_site_gets_an_answer_never_a_fault(
    host: str, origin: str, site: str
) -> None:
    app = Guard(lambda scope, receive, send: None, allowed_hosts=["localhost", "*.example.org"])  # type: ignore[arg-type,return-value]
    assert isinstance(app._host_refusal(host), JSONResponse | None)
    headers = Headers(raw=[(b"origin", origin.encode()), (b"sec-fetch-site", site.encode())])
    assert isinstance(app._origin_refusal({"method": "POST"}, headers, host), JSONResponse | None)
