"""The web server's background builds (solver.web.builds): a bounded queue (503 with
Retry-After past the bound) and time estimates measured on this machine (a calibration of how
busy it is, then the last build's own time)."""

from __future__ import annotations

import threading
import time
import warnings

import pytest

from solver.web import builds as builds_module
from solver.web.builds import BuildFailed, Building, Builds, QueueFull, busy_factor

with warnings.catch_warnings():  # Starlette now prefers httpx2 to httpx; both work
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def ask(builds: Builds, key: str, run, units: float = 1.0, reference: float = 10.0):
    """Ask for ``key`` as a request does: the exception it answers with."""
    with pytest.raises((Building, BuildFailed, QueueFull)) as caught:
        builds.build_in_background(key, f"building {key}", run, kind="test", units=units,
                                   reference=reference)
    return caught.value


def wait_idle(builds: Builds, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while any(j["state"] in ("queued", "building") for j in builds.status()):
        assert time.monotonic() < deadline, builds.status()
        time.sleep(0.02)


def test_the_queue_is_bounded(monkeypatch):
    monkeypatch.setattr(builds_module, "busy_factor", lambda: 1.0)
    release = threading.Event()
    builds = Builds(max_builds=2)
    assert isinstance(ask(builds, "a", release.wait), Building)
    second = ask(builds, "b", release.wait)
    assert isinstance(second, Building) and "queued behind 1 other build" in str(second)
    full = ask(builds, "c", release.wait)
    assert isinstance(full, QueueFull) and full.retry_after >= builds_module.RETRY_AFTER
    assert "2 table builds are already queued or running" in str(full)
    assert isinstance(ask(builds, "a", release.wait), Building)  # a queued table: joins it
    assert len(builds.status()) == 2
    release.set()
    wait_idle(builds)
    assert isinstance(ask(builds, "c", lambda: None), Building)  # room again
    wait_idle(builds)


def test_retry_after_is_what_is_left_of_the_running_build(monkeypatch):
    monkeypatch.setattr(builds_module, "busy_factor", lambda: 1.0)
    release = threading.Event()
    builds = Builds(max_builds=1)
    ask(builds, "long", release.wait, reference=120.0)
    deadline = time.monotonic() + 10
    while builds.status()[0]["state"] != "building":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    full = ask(builds, "other", release.wait)
    assert isinstance(full, QueueFull) and 100 <= full.retry_after <= 120
    release.set()
    wait_idle(builds)


def test_estimates_follow_how_busy_the_machine_is_then_the_last_build(monkeypatch):
    monkeypatch.setattr(builds_module, "busy_factor", lambda: 2.5)
    builds = Builds()
    assert builds.estimate("test", 2.0, 10.0) == pytest.approx(50.0)  # 10 s a unit, busy 2.5
    ask(builds, "k", lambda: time.sleep(0.3), units=0.5)
    wait_idle(builds)
    # the build took 0.3 s (and a little more on a busy machine) for half a unit: 0.6 s a
    # unit, whatever the reference (10 s a unit, times 2.5) says
    assert 0.6 <= builds.estimate("test", 1.0, 10.0) < 3.0
    assert builds.estimate("other", 1.0, 10.0) == pytest.approx(25.0)  # other kinds: calibrated


def test_the_calibration_sees_a_competing_thread():
    assert 1.0 <= busy_factor() < 50  # alone: about 1 on an idle machine
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            sum(range(2000))

    other = threading.Thread(target=spin)
    other.start()
    try:
        shared = busy_factor(0.1)  # the two threads share the interpreter: about 2
    finally:
        stop.set()
        other.join()
    assert shared > 1.3


def test_a_full_queue_is_503_with_retry_after(tmp_path, monkeypatch):
    from solver.web.app import create_app

    monkeypatch.setenv("TREASURE_CACHE", str(tmp_path))
    with TestClient(create_app(proofs_dir=tmp_path)) as client:
        client.app.state.builds.max_builds = 0
        response = client.post("/api/sabords/game", json={"me": 0, "opponent": 0,
                                                          "target": 700})
        assert response.status_code == 503, response.text
        doc = response.json()
        assert response.headers["retry-after"] == str(doc["retry_after"])
        assert "already queued or running" in doc["detail"] and "\n" not in doc["detail"]
        assert client.get("/api/status").json()["builds"] == []
