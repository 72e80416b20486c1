"""Players and the optional access token: who a request comes from, and whether it may come in.

Every browser gets a player key, made and signed by the server and set as an ``HttpOnly``,
``SameSite=Strict`` cookie on its first request; saved games are stored under that key, so one
browser never sees another's games. A key is a random part and its HMAC under a secret kept in the
store, so the server knows a key it issued without recording every visitor: a key the server did
not sign (one a client made up) is never adopted, and the request gets a fresh one. (A key from
before keys were signed is still taken while it owns saved games.) A shared deployment can also
require a token: a request without it gets 401. The page can be opened once with ``?token=…``;
the server then keeps the token in a cookie.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import re
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

import anyio.to_thread
from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from ..store import Store

#: The cookie that carries a browser's player key.
PLAYER_COOKIE = "shudu_player"
#: The cookie that carries the access token once the page was opened with ``?token=``.
TOKEN_COOKIE = "shudu_token"
#: How long the cookies last: ten years, so a player keeps their games.
COOKIE_AGE = 10 * 365 * 24 * 3600
_KEY = re.compile(r"[A-Za-z0-9_-]{22,64}")
_PART = re.compile(r"[A-Za-z0-9_-]{24}")
_TOKEN = re.compile(r"[A-Za-z0-9._~-]{8,200}")


#: The store's meta key of the secret that signs player keys.
SECRET_KEY = "player-key-secret"
#: The bytes of a key's signature (144 bits).
_SIGNATURE = 18


class PlayerKeys:
    """Makes player keys and knows them again: ``RANDOM.SIGNATURE``, 144 bits each."""

    def __init__(self, secret: bytes, known: Callable[[str], bool] | None = None) -> None:
        self.secret = secret
        #: Whether an unsigned key owns saved games (made before keys were signed).
        self.known = known

    @classmethod
    def of_store(cls, store: Store) -> PlayerKeys:
        """The keys of a store: signed with its secret, made on first use and kept in it."""
        secret = store.first_meta(SECRET_KEY, secrets.token_urlsafe(32))
        return cls(secret.encode(), store.has_player)

    def new(self) -> str:
        """A fresh player key."""
        nonce = secrets.token_urlsafe(18)
        return f"{nonce}.{self._sign(nonce)}"

    def is_issued(self, key: str) -> bool:
        """Whether ``key`` was made by this server (or owns games from before keys were signed)."""
        nonce, dot, signature = key.partition(".")
        if dot:
            return bool(_PART.fullmatch(nonce)) and hmac.compare_digest(
                signature.encode(errors="replace"), self._sign(nonce).encode()
            )
        return bool(_KEY.fullmatch(key)) and self.known is not None and self.known(key)

    def _sign(self, nonce: str) -> str:
        digest = hmac.new(self.secret, nonce.encode(), hashlib.sha256).digest()[:_SIGNATURE]
        return base64.urlsafe_b64encode(digest).decode()


def _cookie(name: str, value: str) -> str:
    return f"{name}={value}; Path=/; Max-Age={COOKIE_AGE}; HttpOnly; SameSite=Strict"


def check_token(token: str | None) -> None:
    """Raise ValueError unless ``token`` is None or fit to be an access token."""
    if token is not None and not _TOKEN.fullmatch(token):
        raise ValueError(
            "the access token must be 8 to 200 letters, digits or - _ . ~ (it travels in a cookie)"
        )


def host_warning(host: str) -> str | None:
    """A warning to print when ``host`` lets other machines reach the server; None for loopback."""
    name = host.strip().strip("[]")
    if name == "localhost":
        return None
    try:
        if ipaddress.ip_address(name).is_loopback:
            return None
    except ValueError:
        pass
    return (
        f"warning: listening on {host}, so other machines can reach this server; anyone who can "
        "reach it can play and keep games here. Give --token to let in only those who know it,"
        " and --allowed-host NAME for each name it is reached by."
    )


class Players:
    """ASGI middleware: checks the token (when one is set) and gives every request a player key.

    The key is in ``request.state.player``.
    """

    def __init__(self, app: ASGIApp, *, keys: PlayerKeys, token: str | None = None) -> None:
        check_token(token)
        self.app = app
        self.keys = keys
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        cookies: list[str] = []
        if self.token is not None:
            offered = connection.query_params.get("token")
            if offered is not None and self._is_token(offered):
                cookies.append(_cookie(TOKEN_COOKIE, offered))
            elif not self._is_token(self._token_of(connection)):
                response = JSONResponse(
                    {"error": "this server needs its access token: open the page with ?token=…"}, 401
                )
                await response(scope, receive, send)
                return
        player = connection.cookies.get(PLAYER_COOKIE, "")
        if not await self._is_issued(player):
            player = self.keys.new()
            cookies.append(_cookie(PLAYER_COOKIE, player))
        scope.setdefault("state", {})["player"] = player

        async def send_with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start" and cookies:
                headers = MutableHeaders(scope=message)
                for cookie in cookies:
                    headers.append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookies)

    async def _is_issued(self, key: str) -> bool:
        if "." in key or not key:
            return self.keys.is_issued(key)
        return await anyio.to_thread.run_sync(self.keys.is_issued, key)  # asks the store

    def _is_token(self, given: str | None) -> bool:
        assert self.token is not None
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    @staticmethod
    def _token_of(connection: HTTPConnection) -> str | None:
        scheme, _, value = connection.headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and value:
            return value.strip()
        return connection.cookies.get(TOKEN_COOKIE)
