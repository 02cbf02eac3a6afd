"""How the API says no: bad input is HTTP 422 with ``{"detail": "<one line>"}``, never a
list of problems and never a 500.

The one line names the field and the problem for a malformed request (FastAPI's validation,
whose default answer is a list, is replaced), or is the domain's own message, the one the
command line prints after ``error:``, with the command line's flags (``--me``) named as the
JSON fields they are here (``me``). A table being built is 202 (see
:mod:`solver.web.builds`); a failed build is 503, and so is a full build queue (with
``Retry-After``). What is checked before any endpoint (method, body size, encoding, depth) is
:mod:`solver.web.guard`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import click
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from solver.web.builds import RETRY_AFTER, BuildFailed, Building, QueueFull
from solver.web.guard import Guard

MAX_DETAIL = 300  # characters of a message; the rest is cut (an echoed value, say)
_FLAG = re.compile(r"--([a-z][a-z-]*)")
FLAG_FIELDS = {"variant": "variants"}  # a flag whose field is named otherwise


def one_line(text: object) -> str:
    """Any message as a single line (whitespace runs, newlines included, become one space) of
    at most ``MAX_DETAIL`` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= MAX_DETAIL else line[:MAX_DETAIL - 3] + "..."


def body_fields(routes: list) -> set[str]:
    """Every field of every endpoint's request body, included routers' too."""
    names: set[str] = set()
    for route in routes:
        field = getattr(route, "body_field", None)
        model = getattr(field, "type_", None) or getattr(
            getattr(field, "field_info", None), "annotation", None)
        names |= set(getattr(model, "model_fields", None) or ())
        inner = getattr(route, "original_router", None)
        if inner is not None:
            names |= body_fields(inner.routes)
    return names


def json_fields(message: str, fields: set[str]) -> str:
    """A domain message with the command line's flags named as the API's JSON ``fields``:
    ``--me`` -> ``me``, ``--sudden-death`` -> ``sudden_death``, ``--variant`` ->
    ``variants`` (a flag that is no field is left as it is)."""

    def field(match: re.Match) -> str:
        name = FLAG_FIELDS.get(match[1], match[1].replace("-", "_"))
        return name if name in fields else match[0]
    return _FLAG.sub(field, message)


def _where(loc: Sequence[object]) -> str:
    """A field's place in the body, e.g. ``variants[1]``; empty for the body itself."""
    parts = list(loc[1:] if loc and loc[0] == "body" else loc)
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.lstrip(".")


def validation_line(errors: Sequence[dict]) -> str:
    """FastAPI's list of validation errors as one line: the first, and how many more."""
    if not errors:
        return "invalid request"
    first = errors[0]
    kind, where = first.get("type", ""), _where(first.get("loc", ()))
    if kind == "json_invalid":
        line = "the body is not valid JSON"
    elif kind == "missing" and not where:
        line = "the body is missing: send a JSON object"
    elif not where and kind == "value_error":
        line = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    elif not where:
        line = "the body must be a JSON object"
    elif kind == "missing":
        line = f"{where}: required field missing"
    elif kind == "extra_forbidden":
        line = f"{where}: unknown field"
    else:
        message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        line = f"{where or 'body'}: {message}"
    more = len(errors) - 1
    return one_line(line + (f" (and {more} more problem{'s' * (more != 1)})" if more else ""))


def _unprocessable(detail: str) -> JSONResponse:
    return JSONResponse({"detail": one_line(detail)}, status_code=422)


def _fields(request: Request) -> set[str]:
    """The app's body fields, found once."""
    state = request.app.state
    if getattr(state, "body_fields", None) is None:
        state.body_fields = body_fields(request.app.router.routes)
    return state.body_fields


def install(app: FastAPI) -> None:
    """Register the handlers and the :class:`~solver.web.guard.Guard` on ``app``."""
    app.add_middleware(Guard, router=app.router)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, err: HTTPException) -> JSONResponse:
        # the body parser's 400 (the guard leaves it nothing to find) is bad input too
        status = 422 if err.status_code == 400 else err.status_code
        return JSONResponse({"detail": one_line(err.detail)}, status_code=status,
                            headers=getattr(err, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        return _unprocessable(validation_line(err.errors()))

    @app.exception_handler(ValueError)  # solver.errors.InputError, and the domain's checks
    async def _bad_value(request: Request, err: ValueError) -> JSONResponse:
        return _unprocessable(json_fields(str(err), _fields(request)) or "invalid value")

    @app.exception_handler(click.ClickException)  # click.BadParameter and its kin
    async def _bad_parameter(request: Request, err: click.ClickException) -> JSONResponse:
        return _unprocessable(json_fields(err.format_message(), _fields(request)))

    @app.exception_handler(Building)
    async def _building(request: Request, err: Building) -> JSONResponse:
        return JSONResponse({"status": "building", "detail": one_line(err.detail),
                             "retry_after": RETRY_AFTER}, status_code=202,
                            headers={"Retry-After": str(RETRY_AFTER)})

    @app.exception_handler(BuildFailed)
    async def _failed(request: Request, err: BuildFailed) -> JSONResponse:
        return JSONResponse({"detail": one_line(err)}, status_code=503)

    @app.exception_handler(QueueFull)
    async def _full(request: Request, err: QueueFull) -> JSONResponse:
        return JSONResponse({"detail": one_line(err), "retry_after": err.retry_after},
                            status_code=503, headers={"Retry-After": str(err.retry_after)})
