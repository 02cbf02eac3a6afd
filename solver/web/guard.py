"""What the API checks before a request reaches an endpoint: the HTTP method, the body's size,
encoding and depth. A plain ASGI middleware (:class:`Guard`), so that these answers hold for
every endpoint, the ones other modules add included.

* A method the path does not take: **405** with an ``Allow`` header naming the ones it takes
  (without this, the pages' catch-all mount answered 404 to ``GET /api/sabords/hold``).
* **HEAD** wherever GET works: answered as GET, headers only.
* A body over :data:`MAX_BODY` bytes: **413**, from the declared ``Content-Length`` before
  anything is read, or as soon as a streamed body passes the bound.
* A body that is not UTF-8, or whose JSON nests deeper than :data:`MAX_DEPTH`: **422** with
  one line (the JSON parser answered 400 to both; the bodies are an object holding a list at
  most, so the bound costs no valid request); a string with a control character (NUL...;
  tab and line ends aside) in any endpoint's body: 422 naming the field.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

MAX_BODY = 64 * 1024  # bytes; every valid body is under 1 kB
MAX_DEPTH = 16  # nested objects and lists; every valid body is 2 deep
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def nesting(text: str) -> int:
    """How deep the JSON text's objects and lists nest (brackets inside strings aside)."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def control_in(value: object, where: str = "") -> str | None:
    """``field: control character ...`` for the first string (key or value) in a JSON value
    holding a control character other than tab and line ends (which a pasted position file
    needs), else None."""
    if isinstance(value, str):
        bad = next((c for c in value if unicodedata.category(c) == "Cc" and c not in "\t\n\r"),
                   None)
        return None if bad is None else f"{where or 'body'}: control character {bad!r} not allowed"
    if isinstance(value, dict):
        for key, item in value.items():
            found = control_in(key, where or "body") or control_in(
                item, f"{where}.{key}" if where else key)
            if found:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = control_in(item, f"{where}[{i}]")
            if found:
                return found
    return None


def body_problem(body: bytes) -> str | None:
    """Why the body cannot be a request, in one line; None when it may be one (whether it
    is valid JSON of the right shape is the endpoint's business). Control characters are
    refused in every endpoint's strings here (an endpoint's model may refuse more: the
    companion's own refuse tab and line ends too)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        return f"the body is not valid UTF-8 (byte {err.start})"
    if nesting(text) > MAX_DEPTH:
        return f"the body nests objects or lists more than {MAX_DEPTH} deep"
    try:
        value = json.loads(text)
    except ValueError:
        return None  # the endpoint says what is wrong with it
    return control_in(value)


async def answer(send: Send, status: int, detail: str, headers: dict[str, str] | None = None,
                 body: bool = True) -> None:
    """Send ``{"detail": detail}`` with ``status`` (headers only when ``body`` is False)."""
    data = json.dumps({"detail": detail}).encode()
    raw = [(b"content-type", b"application/json"),
           (b"content-length", str(len(data)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": data if body else b""})


def _headers_only(send: Send) -> Send:
    """A ``send`` that drops the body (HEAD answered as GET)."""
    done = False

    async def wrapped(message: Message) -> None:
        nonlocal done
        if message["type"] != "http.response.body":
            await send(message)
        elif not done:
            done = True
            await send({"type": "http.response.body", "body": b""})
    return wrapped


class Guard:
    """The middleware (``app.add_middleware(Guard, router=app.router)``); it guards paths
    under ``/api/`` and reads the router's routes at each request, so routes added later
    count."""

    def __init__(self, app: Callable, router: Any) -> None:
        self.app = app
        self.router = router

    def methods(self, path: str) -> set[str]:
        """The methods of the routes whose path matches (empty: no such endpoint)."""
        found = _methods(self.router.routes, path)
        if "GET" in found:
            found.add("HEAD")
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        method, allowed = scope["method"], self.methods(scope["path"])
        if allowed and method not in allowed:
            await answer(send, 405, f"method {method} not allowed here; use "
                         f"{' or '.join(sorted(allowed))}", {"Allow": ", ".join(sorted(allowed))},
                         body=method != "HEAD")
            return
        if method == "HEAD":
            scope, send = {**scope, "method": "GET"}, _headers_only(send)
        elif method in BODY_METHODS:
            body = await _read(scope, receive)
            if body is None:
                await answer(send, 413, f"the body is larger than {MAX_BODY // 1024} KB")
                return
            problem = body_problem(body)
            if problem:
                await answer(send, 422, problem)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)


def _methods(routes: list, path: str) -> set[str]:
    """The methods of the routes whose path matches, looking into included routers (which
    FastAPI keeps as routers of their own, under their prefix)."""
    found: set[str] = set()
    for route in routes:
        regex, methods = getattr(route, "path_regex", None), getattr(route, "methods", None)
        if regex is not None and methods and regex.match(path):
            found |= set(methods)
        inner = getattr(route, "original_router", None)
        if inner is not None:
            context = getattr(route, "include_context", None)
            prefix = getattr(context, "prefix", "") or ""
            if path.startswith(prefix):
                found |= _methods(inner.routes, path[len(prefix):])
    return found


async def _read(scope: Scope, receive: Receive) -> bytes | None:
    """The whole body, or None once it is known to pass :data:`MAX_BODY`."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length" and value.isdigit() and int(value) > MAX_BODY:
            return None
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then waits as the original does."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replay
