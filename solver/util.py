"""Small shared helpers: input errors, TOML reading, whole-file writes, the cache directory,
model paths."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import tomllib
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
MODELS_DIR = REPO_ROOT / "models"
PROOFS_DIR = REPO_ROOT / "proofs"
REPORTS_DIR = REPO_ROOT / "reports"


class InputError(ValueError):
    """Bad user input (dice string, card name, board file...): the CLI prints one line, exits 2."""


def read_toml(path: str | os.PathLike, what: str = "TOML file") -> dict:
    """Parse a TOML file; a missing, unreadable or malformed file is a one-line InputError
    naming ``what`` and the file."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as err:
        raise InputError(f"{what} not found: {path}") from err
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"{path}: malformed TOML ({err})") from err
    except OSError as err:
        raise InputError(f"{what} {path}: {err.strerror}") from err


def variant_descriptions(variants: dict[str, dict]) -> dict[str, str]:
    """Each variant's name with its one-line description, from a parsed ``[variants]`` table
    whose entries carry a ``description`` key."""
    return {name: spec["description"] for name, spec in variants.items()}


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` whole: a temporary file in the same folder, then a rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write text (UTF-8, ``\\n`` line ends) whole."""
    atomic_write_bytes(path, text.encode("utf-8"))


def dumps_json(obj: object) -> str:
    """Deterministic JSON: sorted keys, two-space indent, trailing newline."""
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


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


def fmt_float(x: float, digits: int = 4) -> str:
    """Fixed float formatting for reports (byte-identical across runs)."""
    return f"{x:.{digits}f}"
