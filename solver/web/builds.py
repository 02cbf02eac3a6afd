"""Background builds for the web server: tables that take minutes to solve.

A request that needs such a table is never left waiting: the first one queues a build (one
per table, keyed by its cache file) and every request for it, that one included, is answered
"building" (HTTP 202) until the table is in the cache. Builds run one at a time on one worker
thread, in the order asked: the machine has few cores, and two solves at once would only make
both late. A failed build is reported once to the next request for that table, which may then
queue it again.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

RETRY_AFTER = 5  # seconds between the page's polls


class Building(Exception):
    """The table a query needs is being built: answer 202 and ask again later."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class BuildFailed(Exception):
    """The background build of a table a query needs failed (answer 503, one line)."""


@dataclass
class Build:
    """One table being built: what it is for people, how long it should take, its state."""

    key: str
    what: str
    expected: float  # seconds, a rough estimate
    run: Callable[[], object]
    state: str = "queued"  # queued, building, failed (a finished build is dropped)
    queued: float = field(default_factory=time.monotonic)
    started: float | None = None
    error: str = ""

    def doc(self) -> dict:
        """The build as ``GET /api/status`` lists it."""
        since = self.started if self.started is not None else self.queued
        return {"what": self.what, "state": self.state,
                "seconds": round(time.monotonic() - since, 1),
                "expected_seconds": round(self.expected)}


def duration_text(seconds: float) -> str:
    """A rough duration for people: ``a few seconds``, ``about 20 seconds``, ``about 5
    minutes``."""
    if seconds < 10:
        return "a few seconds"
    if seconds < 90:
        return f"about {round(seconds, -1):.0f} seconds"
    return f"about {round(seconds / 60):.0f} minutes"


class Builds:
    """The queue of background builds and its worker thread (started on the first build)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[str, Build] = {}
        self._queue: queue.Queue[Build] = queue.Queue()
        self._worker: threading.Thread | None = None

    def build_in_background(self, key: str, what: str, expected: float,
                 run: Callable[[], object]) -> NoReturn:
        """Called when the table ``key`` is not in the cache: make sure its build is queued
        (once) and raise :class:`Building` with a line saying what is built and how long it
        takes, or :class:`BuildFailed` (once) if the build failed. A build that succeeded is
        forgotten at once: the table in the cache is the news."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.state == "failed":
                del self._jobs[key]
                raise BuildFailed(f"{job.what} failed: {job.error}; ask again to retry")
            if job is None:
                job = self._jobs[key] = Build(key, what, expected, run)
                self._queue.put(job)
                if self._worker is None:
                    self._worker = threading.Thread(target=self._work, name="table-builds",
                                                    daemon=True)
                    self._worker.start()
            ahead = sum(1 for other in self._jobs.values()
                        if other.state in ("queued", "building") and other.queued < job.queued)
        wait = f"; queued behind {ahead} other build{'s' * (ahead != 1)}" if ahead else ""
        raise Building(f"{job.what}: {duration_text(job.expected)}, once; it is then cached"
                       f"{wait}")

    def status(self) -> list[dict]:
        """The builds queued, running, or failed and not yet reported, oldest first."""
        with self._lock:
            return [job.doc() for job in sorted(self._jobs.values(), key=lambda j: j.queued)]

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            with self._lock:
                job.state, job.started = "building", time.monotonic()
            try:
                job.run()
                state, error = "done", ""
            except Exception as err:  # reported to the next request, never lost
                state, error = "failed", " ".join(str(err).split()) or type(err).__name__
            with self._lock:
                job.state, job.error = state, error
                if state == "done" and self._jobs.get(job.key) is job:
                    del self._jobs[job.key]  # the table is in the cache: nothing to report
