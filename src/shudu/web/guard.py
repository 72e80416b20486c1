"""Which requests may come in: those to a host the server is known by, and writes only from the
page's own origin.

A browser sends a page's requests to any address the page names, with the cookies it holds for
that host, whatever site the page came from: a page on another port of the same machine is
"same-site" to the browser, so ``SameSite`` cookies do not stop it. So every write (any method but
GET, HEAD and OPTIONS) is refused (403) when the browser says it comes from elsewhere: an
``Origin`` other than the request's own, or ``Sec-Fetch-Site`` other than ``same-origin`` or
``none``. A body must also be ``application/json`` (see :mod:`shudu.web.bodies`), which a page of
another origin cannot send without the server's leave (a CORS preflight this server never grants).

The ``Host`` check (400) keeps a page of another site from reaching the server through a DNS name
that it points at this machine (DNS rebinding): the server answers only the names it is told.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: The names of this machine's loopback interface, which a local server answers to by default.
LOOPBACK = ("localhost", "127.0.0.1", "::1")
#: The methods that only read.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def allowed_for(host: str, allowed: Iterable[str] = ()) -> list[str] | None:
    """The host names a server listening on ``host`` answers: the loopback names, ``host`` itself
    and those ``allowed``. None (any name) when it listens on every address (``0.0.0.0``, ``::``)
    and no name is given, since the names others reach it by are not known."""
    given = check_hosts(allowed)
    name = host.strip().strip("[]").lower()
    try:
        every = ipaddress.ip_address(name).is_unspecified
    except ValueError:
        every = False
    if "*" in given or (every and not given):
        return None
    return list(dict.fromkeys([*LOOPBACK, *([] if every else [name]), *given]))


def check_hosts(hosts: Iterable[str]) -> list[str]:
    """``hosts`` as the guard reads them (lower case, no brackets); ValueError for one that is no
    host name: empty, with a port, a path or a space."""
    checked = []
    for host in hosts:
        name = host.strip().lower()
        bare = name[1:-1] if name.startswith("[") and name.endswith("]") else name
        if name == "*" or (name.startswith("*.") and _is_name(name[2:])):
            checked.append(name)
        elif _is_name(bare) or _is_address(bare):
            checked.append(bare)
        else:
            raise ValueError(
                f"{host!r} is not a host name: give a name or address without a port or a path"
                " (*.example.org for every name under it, * for any)"
            )
    return checked


def _is_name(name: str) -> bool:
    labels = name.split(".")
    return 0 < len(name) <= 253 and all(
        0 < len(label) <= 63 and label.replace("-", "").replace("_", "").isalnum() and label.isascii()
        for label in labels
    )


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_of(netloc: str) -> tuple[str, int | None]:
    """The host name (lower case, no brackets) and port of a ``Host`` header or URL authority."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        name, _, rest = netloc[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        name, _, port = netloc.rpartition(":") if netloc.count(":") == 1 else (netloc, "", "")
    return name, int(port) if port.isdigit() and len(port) <= 5 else None


class Guard:
    """ASGI middleware: a request to a host not allowed gets 400; a write from another origin
    gets 403. ``allowed_hosts`` None lets every host name in (an app behind a proxy that checks)."""

    def __init__(self, app: ASGIApp, *, allowed_hosts: Iterable[str] | None = None) -> None:
        self.app = app
        self.hosts = None if allowed_hosts is None else check_hosts(allowed_hosts)
        if self.hosts is not None and "*" in self.hosts:
            self.hosts = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        refusal = self._host_refusal(host) or self._origin_refusal(scope, headers, host)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _host_refusal(self, host: str) -> JSONResponse | None:
        if self.hosts is None:
            return None
        name, _ = host_of(host)
        if name and any(
            name == allowed or (allowed.startswith("*.") and name.endswith(allowed[1:]))
            for allowed in self.hosts
        ):
            return None
        shown = host[:100] or "(none)"
        return JSONResponse(
            {
                "error": f"this server does not answer to the host {shown!r}; it answers to"
                f" {', '.join(self.hosts)} (shudu serve --allowed-host NAME adds one)",
                "kind": "BadHost",
            },
            400,
            headers={"Connection": "close"},
        )

    @staticmethod
    def _origin_refusal(scope: Scope, headers: Headers, host: str) -> JSONResponse | None:
        if scope["method"] in SAFE_METHODS:
            return None
        site = headers.get("sec-fetch-site")
        origin = headers.get("origin")
        if site is not None and site.lower() not in ("same-origin", "none"):
            why = f"it comes from a page of another origin (Sec-Fetch-Site: {site[:40]})"
        elif origin is not None and not _same_origin(origin, host):
            why = f"it comes from the page of another origin ({origin[:100]})"
        else:
            return None
        return JSONResponse(
            {
                "error": f"{scope['method']} refused: {why}; this server takes writes only from its own page",
                "kind": "CrossOrigin",
            },
            403,
        )


def _same_origin(origin: str, host: str) -> bool:
    """Whether ``origin`` (an ``Origin`` header) is the server's own, as the ``Host`` names it.
    The scheme is not compared: behind a proxy that ends TLS the server sees http for an https
    page; the host and port are what tell one page's server from another's."""
    try:
        parts = urlsplit(origin)
    except ValueError:  # "http://[::1": not a URL
        return False
    if parts.scheme not in _DEFAULT_PORTS or not parts.netloc:
        return False  # "null" (a sandboxed or file page) or nonsense
    name, port = host_of(parts.netloc)
    own_name, own_port = host_of(host)
    default = _DEFAULT_PORTS[parts.scheme]  # a Host without a port: the page's scheme's port
    return bool(name) and name == own_name and (port or default) == (own_port or default)
