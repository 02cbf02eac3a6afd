"""Background builds for the web server: tables that take minutes to solve.

A request that needs such a table is never left waiting: the first one queues a build (one
per table, keyed by its cache file) and every request for it, that one included, is answered
"building" (HTTP 202) until the table is in the cache. Builds run one at a time on one worker
thread, in the order asked: the machine has few cores, and two solves at once would only make
both late. At most :data:`MAX_BUILDS` builds are queued or running at once: a request that
would queue another is answered 503 with ``Retry-After`` (when the queue should have room).
A failed build is reported once to the next request for that table, which may then queue it
again.

How long a build takes is estimated from this machine, never from a constant alone: once a
build of a kind has finished, from its own time (per unit of work: the whole game grows with
the square of the scores kept); before that, from the reference time (measured on an idle
2-core machine) times how busy the machine is now: the wall time over the thread's CPU time of
a short calibration loop (measured at most every :data:`CALIBRATE_EVERY` seconds).
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

RETRY_AFTER = 5  # seconds between the page's polls
MAX_BUILDS = 3  # builds queued or running at once (each may take a minute of both cores)
CALIBRATE_EVERY = 30.0  # seconds a measurement of how busy the machine is stays fresh
CALIBRATION = 0.03  # seconds of CPU the calibration loop spins


class Building(Exception):
    """The table a query needs is being built: answer 202 and ask again later."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class BuildFailed(Exception):
    """The background build of a table a query needs failed (answer 503, one line)."""


class QueueFull(Exception):
    """Too many builds queued: answer 503 with ``Retry-After``."""

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


def busy_factor(spin: float = CALIBRATION) -> float:
    """How much slower than idle this thread runs now: wall time over its own CPU time while
    spinning ``spin`` seconds of CPU (1.0 on an idle machine, 2.5 when it gets 40 % of a
    core)."""
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    while time.thread_time() - cpu0 < spin:
        sum(range(2000))
    cpu = time.thread_time() - cpu0
    return max(1.0, (time.perf_counter() - wall0) / cpu)


@dataclass
class Build:
    """One table being built: what it is for people, how long it should take, its state."""

    key: str
    what: str
    kind: str  # builds of one kind share a pace (seconds per unit of work)
    units: float  # this build's work, in the kind's units
    expected: float  # seconds, estimated from this machine
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

    def __init__(self, max_builds: int = MAX_BUILDS) -> None:
        self.max_builds = max_builds
        self._lock = threading.Lock()
        self._jobs: dict[str, Build] = {}
        self._queue: queue.Queue[Build] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._pace: dict[str, float] = {}  # kind -> seconds per unit, of the last build
        self._busy: tuple[float, float] | None = None  # (when measured, busy factor)

    def estimate(self, kind: str, units: float, reference: float) -> float:
        """Seconds a build of ``units`` of ``kind`` should take here: the last such build's
        pace, else ``reference`` (seconds per unit, idle machine) times how busy the machine
        is now."""
        with self._lock:
            pace = self._pace.get(kind)
            busy = self._busy
        if pace is not None:
            return pace * units
        if busy is None or time.monotonic() - busy[0] > CALIBRATE_EVERY:
            busy = (time.monotonic(), busy_factor())
            with self._lock:
                self._busy = busy
        return reference * units * busy[1]

    def retry_after(self) -> int:
        """Seconds until the queue should have room: what is left of the running build."""
        with self._lock:
            running = [j for j in self._jobs.values() if j.state == "building"]
            left = [j.expected - (time.monotonic() - (j.started or j.queued)) for j in running]
        return max(RETRY_AFTER, math.ceil(min(left, default=RETRY_AFTER)))

    def build_in_background(self, key: str, what: str, run: Callable[[], object], *,
                            kind: str, units: float = 1.0, reference: float) -> NoReturn:
        """Called when the table ``key`` is not in the cache: make sure its build is queued
        (once) and raise :class:`Building` with a line saying what is built and how long it
        takes (:meth:`estimate`), :class:`BuildFailed` (once) if the build failed, or
        :class:`QueueFull` when ``max_builds`` others are queued or running. A build that
        succeeded is forgotten at once: the table in the cache is the news."""
        with self._lock:
            known = key in self._jobs
        expected = 0.0 if known else self.estimate(kind, units, reference)  # outside the lock
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.state == "failed":
                del self._jobs[key]
                raise BuildFailed(f"{job.what} failed: {job.error}; ask again to retry")
            pending = sum(1 for j in self._jobs.values() if j.state != "failed")
            if job is None and pending < self.max_builds:  # else the queue is full
                job = self._jobs[key] = Build(key, what, kind, units,
                                              expected or reference * units, run)
                self._queue.put(job)
                self._start_worker()
            if job is not None:
                ahead = sum(1 for other in self._jobs.values()
                            if other.state in ("queued", "building")
                            and other.queued < job.queued)
        if job is None:
            wait_s = self.retry_after()
            raise QueueFull(f"{self.max_builds} table builds are already queued or running; "
                            f"ask again in {wait_s} seconds", wait_s)
        wait = f"; queued behind {ahead} other build{'s' * (ahead != 1)}" if ahead else ""
        raise Building(f"{job.what}: {duration_text(job.expected)}, once; it is then cached"
                       f"{wait}")

    def _start_worker(self) -> None:
        """The worker thread, started with the first build (call holding the lock)."""
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="table-builds",
                                            daemon=True)
            self._worker.start()

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
                if state == "done" and job.units > 0:
                    self._pace[job.kind] = (time.monotonic() - job.started) / job.units
                if state == "done" and self._jobs.get(job.key) is job:
                    del self._jobs[job.key]  # the table is in the cache: nothing to report
