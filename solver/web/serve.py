"""``treasure serve``: run the table companion (pages and JSON API) with uvicorn.

The listening socket is opened here, before uvicorn starts, so that a port in use or an
unknown host is one line and exit status 2 like every other bad input, and the address
printed is one that works.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from solver.errors import InputError, os_error_text

EVERYWHERE = ("0.0.0.0", "::")


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening (one-line errors)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError):
        raise InputError(f"cannot listen on {host!r}: no such host or address") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as err:
        sock.close()
        raise InputError(f"cannot listen on {host} port {port}: {os_error_text(err)}") from None
    return sock


@contextmanager
def in_thread(app: Any) -> Iterator[str]:
    """Run ``app`` with uvicorn on a free local port in a thread (for the browser tests and
    ``make bench``); yield its base URL."""
    import uvicorn

    sock = listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as its host name resolves them
    (no packet is sent)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return sorted({info[4][0] for info in infos if not info[4][0].startswith("127.")})


def url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def address_lines(host: str, port: int) -> list[str]:
    """What to tell the person who started the server: where to point a browser and, when it
    listens on every interface, who else can reach it."""
    if host not in EVERYWHERE:
        return [f"treasure serve: open {url(host, port)} in a browser (Ctrl-C stops it)"]
    found = network_addresses()
    phone = (", ".join(url(a, port) for a in found) if found else
             f"http://<this machine's address>:{port}/ (`hostname -I` shows it)")
    return [f"treasure serve: open {url('127.0.0.1', port)} on this machine (Ctrl-C stops it)",
            f"from a phone on the same network: {phone}",
            "warning: every interface is listening; anyone who can reach this machine on the "
            "network can use the solver (no authentication). Nothing leaves the machine."]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets a phone on the same network in "
                   "(and anyone else on it).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="TCP port to listen on.")
def serve(host: str, port: int) -> None:
    """The table companion: a web page per game for "what should I hold", and its JSON API.

    Open the address it prints in a browser. The answers are those of the `--json` commands.
    A table that takes minutes to solve (the Mille Sabords whole game for a new target or
    reading) is solved in the background while the page waits.

    \b
    Examples:
      treasure serve
      treasure serve --port 8080
      treasure serve --host 0.0.0.0    # reachable from a phone on the same network
    """
    from solver.cache import size_limit

    size_limit()  # a malformed $TREASURE_CACHE_LIMIT is said now, not at the first build
    sock = listening_socket(host, port)
    import uvicorn

    from solver.web.app import create_app
    from solver.web.dragon import warm_up

    warm_up()
    for line in address_lines(host, port):
        click.echo(line)
    config = uvicorn.Config(create_app(), host=host, port=port, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
