"""Answers already given, kept for the same query asked again (the web server's hot path).

Under load, as when a table's phones all ask about the same dice, the server's requests share
one interpreter lock, so each answer's cost counts many times over (`make bench` measures it).
A query's answer never changes while the server runs (the rules are read once; tables, once
built, are only read), so the body is kept, keyed by the endpoint, the query's fields and the
cache folder the tables come from, and the same query is answered from it. Only answers are
kept: bad input and "building" are exceptions and are computed again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from fastapi.responses import Response

from solver.cache import cache_dir
from solver.io import dumps_json

SIZE = 2048  # answers kept (about 8 kB each: 16 MB at most)


class Answers:
    """The most recently used ``SIZE`` answer bodies, by query. Requests for the same query
    that arrive together compute it once: the others wait for the first."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[tuple, str] = OrderedDict()
        self._running: dict[tuple, threading.Lock] = {}
        self._lock = threading.Lock()
        self.made = 0  # answers computed (the rest were kept ones)

    def clear(self) -> None:
        """Forget every kept answer (``make bench`` times computed ones)."""
        with self._lock:
            self._kept.clear()

    def body(self, endpoint: str, query: object, make: Callable[[], dict]) -> str:
        """The JSON body of ``make()`` (as :func:`solver.io.dumps_json` writes it), kept for
        the same ``endpoint`` and ``query`` (its ``repr``: every field, and a pydantic model
        prints them all)."""
        key = (endpoint, repr(query), str(cache_dir()))
        while True:
            with self._lock:
                body = self._kept.get(key)
                if body is not None:
                    self._kept.move_to_end(key)
                    return body
                running = self._running.get(key)
                if running is None:
                    running = self._running[key] = threading.Lock()
                    running.acquire()
                    break
            with running:  # another request is computing it: wait, then look again
                pass
            with self._lock:
                if key not in self._kept:  # it failed (bad input, a table building)
                    break  # compute it here, so this request gets its own answer or error
        try:
            body = dumps_json(make())
            with self._lock:
                self.made += 1
                self._kept[key] = body
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
            return body
        finally:
            with self._lock:
                mine = self._running.get(key)
                if mine is not None and mine.locked() and mine is running:
                    del self._running[key]
                    mine.release()


def json_response(doc: dict | str) -> Response:
    """A document exactly as the command line's ``--json`` prints it (or already printed)."""
    return Response(doc if isinstance(doc, str) else dumps_json(doc),
                    media_type="application/json")
