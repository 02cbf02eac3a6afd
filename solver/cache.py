"""The disk cache of solved tables, shared by every game.

Contract:

* **Where.** ``$TREASURE_CACHE``, else ``$XDG_CACHE_HOME/treasure-solver``, else
  ``~/.cache/treasure-solver``. One file per entry: ``<kind>/<label>-<hash>.tsc``, where the
  hash is of ``(kind, key)`` in JSON (``key`` holds everything that determines the table:
  rules, variants, objective, a version number).
* **Format.** One header line, ``treasure-solver-cache {json}\\n``, whose JSON gives the
  format version, ``kind``, ``label``, the payload's ``size`` in bytes and its ``sha256``,
  and ``arrays``: each array's ``name``, NumPy ``dtype`` string, ``shape``, ``offset`` in the
  payload and ``bytes``; then the payload, the arrays' raw bytes in C order one after the
  other. Arrays are read memory-mapped and read-only.
* **Written whole.** A temporary file in the same folder, then a rename: a reader never sees
  half an entry.
* **Built once.** Building an entry holds a lock of its own, in this process (a thread lock)
  and across processes (``fcntl.flock`` on the hidden file ``.<entry>.lock`` beside it, never
  deleted): whoever needs the same missing entry at once (the web server's requests, two
  ``treasure armada solve`` in two shells) waits for the first build and then reads it,
  instead of building it again. Reading an entry that is there takes no lock.
* **Never trusted blindly.** An entry whose header, size or checksum is wrong (cut short,
  overwritten, not ours) is reported once on stderr, deleted and rebuilt. The checksum of a
  large entry (Gold Armada's tables) costs time, so once it has been checked
  the file's identity (inode, size, modification and change times) is noted in the hidden
  file ``.<entry>.checked``; while the file still has that identity the checksum is not
  computed again (any write to the file changes its times, to the file system's clock tick:
  a few ms).
* **Unusable folder.** If the folder cannot be created or written (``TREASURE_CACHE`` names a
  regular file, or a place without permission), tables are solved without the cache, and
  stderr says so once per process (``treasure cache`` says it too).
* **Bounded.** After each write the least recently used entries (oldest modification time;
  reading an entry touches it) are deleted until the total is at most
  ``$TREASURE_CACHE_LIMIT`` (bytes, or with a suffix: ``500M``, ``2G``; default 1G; anything
  else is an input error, raised before any table is built). The entry just written is
  always kept.
* ``treasure cache`` lists the entries with their sizes; ``treasure cache clear`` deletes them.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import mmap
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.errors import InputError, os_error_text
from solver.io import atomic_write_bytes

MAGIC = b"treasure-solver-cache "
FORMAT = 1
SUFFIX = ".tsc"
DEFAULT_LIMIT = 10**9
LIMIT_VARIABLE = "TREASURE_CACHE_LIMIT"
_UNITS = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}

_said: set[str] = set()
_building: dict[Path, threading.Lock] = {}  # one lock per entry path (see "Built once")
_building_guard = threading.Lock()


class DamagedEntry(ValueError):
    """A cache file that is not a whole, intact entry."""


def warn_once(message: str) -> None:
    """One line on stderr, at most once per process for the same message."""
    if message not in _said:
        _said.add(message)
        print(f"treasure: {message}", file=sys.stderr)


def cache_dir() -> Path:
    """The user cache directory (``$TREASURE_CACHE``, else ``$XDG_CACHE_HOME/treasure-solver``)."""
    explicit = os.environ.get("TREASURE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "treasure-solver"


def cache_key(*parts: object) -> str:
    """A short stable hash of the JSON form of ``parts`` (rules, variants, objective, version)."""
    blob = json.dumps(parts, sort_keys=True, default=str).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:24]


def size_limit() -> int:
    """The cache's size bound in bytes (``$TREASURE_CACHE_LIMIT``, default 1G = 10^9); a
    value that is not a size is an :class:`InputError`."""
    raw = os.environ.get(LIMIT_VARIABLE, "")
    text = raw.strip().upper().removesuffix("B")
    if not text:
        return DEFAULT_LIMIT
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)", text)
    if not match:
        shown = raw if len(raw) <= 40 else raw[:40] + "..."
        raise InputError(f"${LIMIT_VARIABLE} must be a size such as 800M or 2G (bytes, or "
                         f"with K, M, G or T), not {shown!r}")
    return int(float(match[1]) * _UNITS[match[2]])


def usable_root() -> Path | None:
    """The cache folder, created if needed; ``None`` (said once on stderr) when it cannot be
    used."""
    root = cache_dir()
    try:
        root.mkdir(parents=True, exist_ok=True)
        if not os.access(root, os.W_OK | os.X_OK):
            raise PermissionError("not writable")
    except OSError as err:
        reason = "a file, not a folder" if root.is_file() else os_error_text(err)
        warn_once(f"cannot use the cache folder {root} ({reason}); solving without the cache")
        return None
    return root


def entry_path(kind: str, key: object, label: str = "") -> Path | None:
    """Where the entry for ``(kind, key)`` lives (``None`` when the cache cannot be used)."""
    root = usable_root()
    if root is None:
        return None
    digest = cache_key(kind, key)
    name = f"{label}-{digest}" if label else digest
    return root / kind / f"{re.sub(r'[^A-Za-z0-9._-]', '_', name)}{SUFFIX}"


def encode(kind: str, label: str, arrays: dict[str, np.ndarray]) -> bytes:
    """An entry's bytes: the header line, then each array's raw bytes (C order)."""
    listing, blobs, offset = [], [], 0
    for name, array in arrays.items():
        array = np.ascontiguousarray(array)
        if array.dtype.hasobject:
            raise TypeError(f"array {name!r} holds Python objects; the cache stores numbers")
        blob = array.tobytes()
        listing.append({"name": name, "dtype": array.dtype.str, "shape": list(array.shape),
                        "offset": offset, "bytes": len(blob)})
        blobs.append(blob)
        offset += len(blob)
    payload = b"".join(blobs)
    header = {"format": FORMAT, "kind": kind, "label": label, "arrays": listing,
              "size": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}
    return MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + payload


def parse_header(line: bytes) -> dict:
    """The header of an entry from its first line."""
    if not line.startswith(MAGIC) or not line.endswith(b"\n"):
        raise DamagedEntry("no cache header")
    try:
        header = json.loads(line[len(MAGIC):])
    except ValueError:
        raise DamagedEntry("unreadable header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise DamagedEntry("unknown format")
    return header


def _beside(path: Path, what: str) -> Path:
    """A hidden companion file of an entry: ``.<name>.lock`` or ``.<name>.checked``."""
    return path.parent / f".{path.name}.{what}"


def _identity(path: Path) -> str:
    """What changes whenever the file is written: inode, size, modification and change
    times (nanoseconds)."""
    st = path.stat()
    return f"{st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}"


def _checked(path: Path) -> bool:
    """Was the checksum of the file, as it is now, already verified?"""
    try:
        return _beside(path, "checked").read_text() == _identity(path)
    except (OSError, UnicodeError):
        return False


def _note_checked(path: Path) -> None:
    """Note that the file, as it is now, has been verified (best effort: a failure only
    means checking it again next time)."""
    try:
        atomic_write_bytes(_beside(path, "checked"), _identity(path).encode())
    except OSError:
        pass


def decode(path: Path, verified: bool = False) -> dict[str, np.ndarray]:
    """The arrays of the entry at ``path`` (read-only, memory-mapped), after checking its size
    and (unless ``verified``: already checked as it is now) its checksum."""
    with open(path, "rb") as handle:
        try:
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:
            raise DamagedEntry("empty file") from None
    end = mapped.find(b"\n", 0, 1 << 16) + 1
    header = parse_header(mapped[:end] if end else b"")
    payload = memoryview(mapped)[end:]
    if len(payload) != header.get("size"):
        raise DamagedEntry(f"{len(payload)} bytes where the header says {header.get('size')}")
    if not verified and hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise DamagedEntry("checksum mismatch")
    try:
        arrays = {}
        for spec in header["arrays"]:
            dtype = np.dtype(spec["dtype"])
            count = int(np.prod(spec["shape"], dtype=np.int64))
            array = np.frombuffer(mapped, dtype, count, end + spec["offset"])
            arrays[spec["name"]] = array.reshape(spec["shape"])
        return arrays
    except (KeyError, TypeError, ValueError) as err:
        raise DamagedEntry(f"unreadable array list ({err})") from None


def load_or_build(kind: str, key: object, build: Callable[[], dict[str, np.ndarray]], *,
                  use_cache: bool = True, rebuild: bool = False,
                  label: str = "") -> dict[str, np.ndarray]:
    """The arrays cached for ``(kind, key)``, or ``build()``'s, then cached.

    ``use_cache=False`` neither reads nor writes the cache; ``rebuild=True`` ignores a cached
    entry but writes the new one. ``label`` is a readable prefix for the file name."""
    path = entry_path(kind, key, label) if use_cache else None
    if path is None:
        return build()
    size_limit()  # a malformed limit is said now, not after a long build
    if not rebuild:
        arrays = _read(path, quiet=True)  # the usual case: there, intact, no lock needed
        if arrays is not None:
            return arrays
    with _entry_lock(path), _file_lock(path):
        if not rebuild and path.exists():  # built by another thread or process meanwhile?
            arrays = _read(path, quiet=False)
            if arrays is not None:
                return arrays
        arrays = build()
        store(path, kind, label, arrays)
        return arrays


def _read(path: Path, quiet: bool) -> dict[str, np.ndarray] | None:
    """The entry's arrays, touched as just used; ``None`` if it is missing or unusable
    (said once on stderr unless ``quiet``: the caller then takes the lock and looks again)."""
    try:
        arrays = decode(path, verified=_checked(path))
        os.utime(path)
    except FileNotFoundError:
        return None
    except DamagedEntry as err:
        if not quiet:
            warn_once(f"cache entry {path} is damaged ({err}); rebuilding it")
        return None
    except OSError as err:
        if not quiet:
            warn_once(f"cannot read cache entry {path} ({err.strerror}); rebuilding it")
        return None
    _note_checked(path)
    return arrays


def _entry_lock(path: Path) -> threading.Lock:
    """The lock that one entry's builder holds in this process."""
    with _building_guard:
        return _building.setdefault(path, threading.Lock())


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """The entry's lock across processes: ``flock`` on ``.<entry>.lock`` (released when the
    file is closed, so a killed builder never leaves it held). Where the lock file cannot be
    made, the build goes on unlocked: the cache is a convenience, never a reason to fail."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(_beside(path, "lock"), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def store(path: Path, kind: str, label: str, arrays: dict[str, np.ndarray]) -> None:
    """Write one entry whole, then keep the cache within its size bound."""
    try:
        atomic_write_bytes(path, encode(kind, label, arrays))
    except OSError as err:
        warn_once(f"cannot write to the cache folder {path.parent} ({err.strerror}); "
                  "continuing without caching")
        return
    _note_checked(path)  # its checksum was just computed from these very bytes
    evict(path.parent.parent, size_limit(), keep=path)


@dataclass(frozen=True)
class Entry:
    """One file in the cache folder, as ``treasure cache`` shows it."""

    path: Path
    kind: str
    label: str
    size: int
    used: float  # modification time: last written or read
    status: str  # "ok", "damaged" or "old format"


def entries(root: Path | None = None) -> list[Entry]:
    """Every entry (and every left-over file of an older format) under the cache folder,
    least recently used first."""
    if root is None:
        root = usable_root()  # an unusable folder is said once on stderr, as when solving
        if root is None:
            return []
    if not root.is_dir():
        return []
    found = []
    for path in root.glob("*/*"):
        if not path.is_file() or path.name.startswith("."):
            continue
        stat = path.stat()
        kind, label, status = path.parent.name, path.stem, "old format"
        if path.suffix == SUFFIX:
            try:
                with open(path, "rb") as handle:
                    header = parse_header(handle.readline(1 << 16))
                label, status = header.get("label") or path.stem, "ok"
                if stat.st_size < header.get("size", 0):
                    status = "damaged"
            except (DamagedEntry, OSError):
                status = "damaged"
        elif path.suffix not in (".npz", ".npy"):
            continue
        found.append(Entry(path, kind, label, stat.st_size, stat.st_mtime, status))
    return sorted(found, key=lambda e: (e.used, str(e.path)))


def evict(root: Path, limit: int, keep: Path | None = None) -> list[Path]:
    """Delete the least recently used entries until the total size is at most ``limit``;
    returns the deleted paths."""
    listed = entries(root)
    total = sum(e.size for e in listed)
    removed = []
    for entry in listed:
        if total <= limit:
            break
        if keep is not None and entry.path == keep:
            continue
        if not _delete(entry.path):
            continue
        total -= entry.size
        removed.append(entry.path)
    return removed


def clear(root: Path | None = None) -> tuple[int, int]:
    """Delete every entry (and older-format files); returns (files, bytes) deleted."""
    count = size = 0
    for entry in entries(root):
        if not _delete(entry.path):
            continue
        count += 1
        size += entry.size
    return count, size


def _delete(path: Path) -> bool:
    """Delete an entry and its note of a verified checksum (its lock file stays: another
    process may hold it). False if the entry could not be deleted."""
    try:
        path.unlink()
    except OSError:
        return False
    try:
        _beside(path, "checked").unlink(missing_ok=True)
    except OSError:
        pass
    return True
