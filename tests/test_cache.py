"""The disk cache (solver.cache): whole entries, damage detected and rebuilt, an unusable
folder tolerated, a size bound, and ``treasure cache``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from solver import cache
from solver.errors import InputError
from tests.cli_helpers import run


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A fresh cache folder, with the once-only messages forgotten."""
    monkeypatch.setenv("TREASURE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(cache.LIMIT_VARIABLE, raising=False)
    monkeypatch.setattr(cache, "_said", set())
    return tmp_path / "cache"


class Builder:
    """A build function that counts its calls."""

    def __init__(self, seed: int = 0) -> None:
        self.calls = 0
        self.seed = seed

    def __call__(self) -> dict[str, np.ndarray]:
        self.calls += 1
        rng = np.random.default_rng(self.seed)
        return {"value": rng.random((3, 50)), "policy": rng.integers(-1, 9, 40, dtype=np.int32)}


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in a)


def test_round_trip_reads_what_was_built(folder):
    build = Builder()
    first = cache.load_or_build("test", {"n": 1}, build, label="t")
    again = cache.load_or_build("test", {"n": 1}, build, label="t")
    assert build.calls == 1 and same(first, again)
    assert not again["value"].flags.writeable
    other = cache.load_or_build("test", {"n": 2}, Builder(5), label="t")
    assert not np.array_equal(other["value"], first["value"])


@pytest.mark.parametrize("damage", ["truncate", "flip", "header", "empty"])
def test_damaged_entry_is_reported_once_and_rebuilt(folder, capsys, damage):
    build = Builder()
    expected = cache.load_or_build("test", "k", build)
    path = cache.entry_path("test", "k")
    data = path.read_bytes()
    if damage == "truncate":
        data = data[: len(data) - 100]
    elif damage == "flip":
        data = data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:]
    elif damage == "header":
        data = b"garbage" + data
    else:
        data = b""
    path.write_bytes(data)
    got = cache.load_or_build("test", "k", build)
    assert build.calls == 2 and same(got, expected)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "damaged" in err and str(path) in err
    assert same(cache.load_or_build("test", "k", build), expected) and build.calls == 2


@pytest.mark.parametrize("place", ["file", "under_file"])
def test_unusable_folder_means_no_cache_said_once(tmp_path, monkeypatch, capsys, place):
    monkeypatch.setattr(cache, "_said", set())
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    target = blocker if place == "file" else blocker / "cache"
    monkeypatch.setenv("TREASURE_CACHE", str(target))
    build = Builder()
    cache.load_or_build("test", 1, build)
    cache.load_or_build("test", 1, build)
    assert build.calls == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "without the cache" in err and str(target) in err


@pytest.mark.parametrize("place", ["file", "under_file"])
def test_cache_command_says_an_unusable_folder(tmp_path, monkeypatch, capsys, place):
    monkeypatch.setattr(cache, "_said", set())
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    target = blocker if place == "file" else blocker / "cache"
    monkeypatch.setenv("TREASURE_CACHE", str(target))
    code, out, err = run(["cache"], capsys)
    assert code == 0 and "0 entries" in out
    assert err.count("\n") == 1 and "cannot use the cache folder" in err and str(target) in err


def test_a_checked_entry_is_not_hashed_again_until_it_changes(folder, monkeypatch):
    build = Builder()
    expected = cache.load_or_build("test", "k", build)
    hashed = []
    real = cache.hashlib.sha256

    def counted(data=b""):
        if isinstance(data, memoryview):  # an entry's payload (cache keys are bytes)
            hashed.append(len(data))
        return real(data)

    monkeypatch.setattr(cache.hashlib, "sha256", counted)
    for _ in range(3):
        assert same(cache.load_or_build("test", "k", build), expected)
    assert hashed == [] and build.calls == 1  # checked when written, then trusted as it is
    path = cache.entry_path("test", "k")
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF  # the same size, a new modification time
    time.sleep(0.05)  # file times tick coarsely (a few ms): a write is seen as one here
    path.write_bytes(bytes(data))
    assert same(cache.load_or_build("test", "k", build), expected)
    assert hashed and build.calls == 2  # noticed and rebuilt
    assert cache.clear()[0] == 1
    assert sorted(p.name for p in (folder / "test").iterdir()) == [f".{path.name}.lock"]


BUILD_IN_A_PROCESS = '''
import sys, time
import numpy as np
from solver import cache

def build():
    with open(sys.argv[1], "a") as log:
        log.write("build\\n")
    time.sleep(1.5)  # the other process asks while this one builds
    return {"value": np.arange(10.0)}

arrays = cache.load_or_build("test", "shared", build, label="two")
assert arrays["value"].sum() == 45.0
'''


def test_two_processes_build_an_entry_once(folder, tmp_path):
    import subprocess
    import sys

    log = tmp_path / "builds.log"
    script = tmp_path / "build.py"
    script.write_text(BUILD_IN_A_PROCESS)
    root = Path(__file__).resolve().parent.parent
    procs = []
    for _ in range(2):
        procs.append(subprocess.Popen([sys.executable, str(script), str(log)], cwd=root,
                                      stderr=subprocess.PIPE, text=True))
        time.sleep(0.3)
    for proc in procs:
        assert proc.wait(120) == 0, proc.stderr.read()
    assert log.read_text() == "build\n"
    assert len(list((folder / "test").glob("two-*.tsc"))) == 1


def test_least_recently_used_entries_go_first(folder, monkeypatch):
    import os

    one = cache.encode("test", "", Builder()())
    monkeypatch.setenv(cache.LIMIT_VARIABLE, str(int(len(one) * 2.5)))
    for n in range(3):
        cache.load_or_build("test", n, Builder(n))
        path = cache.entry_path("test", n)
        os.utime(path, (1000 + n, 1000 + n))
    cache.load_or_build("test", 0, Builder(0))  # a read makes entry 0 the most recent
    cache.load_or_build("test", 3, Builder(3))
    kept = {p.name for p in (folder / "test").iterdir() if not p.name.startswith(".")}
    assert not (folder / "test" / f".{cache.entry_path('test', 1).name}.checked").exists()
    names = {n: cache.entry_path("test", n).name for n in range(4)}
    assert kept == {names[0], names[3]}


def test_size_limit_parsing(monkeypatch):
    monkeypatch.setenv(cache.LIMIT_VARIABLE, "800M")
    assert cache.size_limit() == 800 * 10**6
    monkeypatch.setenv(cache.LIMIT_VARIABLE, "2g")
    assert cache.size_limit() == 2 * 10**9
    monkeypatch.setenv(cache.LIMIT_VARIABLE, "")
    assert cache.size_limit() == cache.DEFAULT_LIMIT
    for bad in ("lots", "-5M", "2Q", "1e9"):
        monkeypatch.setenv(cache.LIMIT_VARIABLE, bad)
        with pytest.raises(InputError, match="TREASURE_CACHE_LIMIT must be a size"):
            cache.size_limit()


def test_a_malformed_limit_is_one_line_before_any_build(folder, monkeypatch, capsys):
    monkeypatch.setenv(cache.LIMIT_VARIABLE, "lots" * 100)
    build = Builder()
    with pytest.raises(InputError):
        cache.load_or_build("test", "k", build)
    assert build.calls == 0
    for argv in (["cache"], ["cache", "--json"], ["sabords", "hold", "--card", "captain",
                                                  "CCDMPSXX"]):
        code, out, err = run(argv, capsys)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
        assert "TREASURE_CACHE_LIMIT must be a size" in err and len(err) < 200


def test_cache_command_lists_and_clears(folder, capsys):
    cache.load_or_build("sabords", "a", Builder(), label="captain-points")
    (folder / "armada").mkdir()
    (folder / "armada" / "solo-old.npy").write_bytes(b"x" * 10)
    code, out, _ = run(["cache", "--json"], capsys)
    doc = json.loads(out)
    assert code == 0 and {e["status"] for e in doc["entries"]} == {"ok", "old format"}
    assert doc["total"] == sum(e["size"] for e in doc["entries"])
    code, out, _ = run(["cache"], capsys)
    assert "captain-points" in out and "2 entries" in out
    code, out, _ = run(["cache", "clear"], capsys)
    assert code == 0 and "deleted 2 entries" in out
    assert cache.entries() == []


def test_cli_rebuilds_a_damaged_sabords_table(folder, capsys):
    from solver.sabords.turn.solve import solve_turn

    solve_turn.cache_clear()  # solved turns are also kept in memory: start from the disk
    argv = ["sabords", "hold", "--card", "captain", "--json", "CCDMPSXX"]
    code, first, _ = run(argv, capsys)
    assert code == 0
    solve_turn.cache_clear()
    (path,) = (folder / "sabords").glob("*.tsc")
    path.write_bytes(path.read_bytes()[:1000])
    code, again, err = run(argv, capsys)
    assert code == 0 and again == first and "damaged" in err


def test_status_line_only_on_a_terminal(monkeypatch, capsys):
    import sys

    from solver.cli_status import StatusLine

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    with StatusLine() as status:
        status("solving")
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with StatusLine() as status:
        status("solving")
    assert "solving" in capsys.readouterr().err
