"""Small shared helpers: input errors, TOML reading, whole-file writes, the cache directory,
model paths."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
import time
import tomllib
import unicodedata
from collections.abc import Callable, Iterable
from json.encoder import c_make_encoder, encode_basestring
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
MODELS_DIR = REPO_ROOT / "models"
PROOFS_DIR = REPO_ROOT / "proofs"
REPORTS_DIR = REPO_ROOT / "reports"


class InputError(ValueError):
    """Bad user input (dice string, card name, board file...): the CLI prints one line, exits 2."""


class SolveError(RuntimeError):
    """A solve that ended without its answer (a solver's work limit reached, or interrupted):
    the CLI prints one line and exits 1."""


def os_error_text(err: OSError) -> str:
    """An OS error as words: ``no such file``, ``permission denied``, ``is a directory``..."""
    reasons = {
        FileNotFoundError: "no such file",
        IsADirectoryError: "is a folder, not a file",
        NotADirectoryError: "a parent in the path is not a folder",
        PermissionError: "permission denied",
    }
    for kind, text in reasons.items():
        if isinstance(err, kind):
            return text
    return (err.strerror or err.__class__.__name__).lower()


def read_text(path: str | os.PathLike, what: str = "file") -> str:
    """A UTF-8 text file's content; a missing, unreadable, binary or non-UTF-8 file is a
    one-line InputError naming ``what``, the file and the problem."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read {what} {path}: {os_error_text(err)}") from None
    if b"\0" in data:
        raise InputError(f"cannot read {what} {path}: a binary file, not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(
            f"cannot read {what} {path}: not UTF-8 text (byte 0x{data[err.start]:02x} at "
            f"offset {err.start}); save it as UTF-8"
        ) from None


def read_toml(path: str | os.PathLike, what: str = "TOML file") -> dict:
    """Parse a TOML file; a missing, unreadable, non-UTF-8 or malformed file is a one-line
    InputError naming ``what`` and the file."""
    text = read_text(path, what)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"{what} {path}: malformed TOML ({err})") from None


def output_path(path: str | os.PathLike, what: str = "output file") -> Path:
    """``path`` as a place to write a file: its folder must exist (a missing parent folder is
    an InputError, as in other command-line tools) and it must not be a folder itself."""
    path = Path(path)
    parent = path.parent
    try:
        if path.is_dir():
            raise InputError(f"cannot write {what} {path}: is a folder")
        if not parent.is_dir():
            problem = "is not a folder" if parent.exists() else "does not exist"
            raise InputError(f"cannot write {what} {path}: the folder {parent} {problem}")
    except OSError as err:  # a name too long, say
        raise InputError(f"cannot write {what} {path}: {os_error_text(err)}") from None
    return path


def normalise_name(name: str) -> str:
    """A name as the command line compares it: lower case, German umlauts spelt out (ä -> ae,
    ß -> ss), other accents dropped, every run of other characters one hyphen."""
    text = str(name).strip().lower()
    for umlaut, spelt in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(umlaut, spelt)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def lookup_name(text: str, names: dict[str, str], what: str, known: list[str]) -> str:
    """The canonical name ``text`` stands for, matched after :func:`normalise_name` against
    ``names`` (normalised spelling -> canonical name); an unknown one is an InputError listing
    ``known``."""
    found = names.get(normalise_name(text))
    if found is None:
        raise InputError(f"unknown {what} {text!r}; known: {known_names(names, known)}")
    return found


def known_names(names: dict[str, str], known: Iterable[str] = ()) -> str:
    """Every accepted spelling, grouped under its canonical name (``captain (kapitaen,
    pirate), ...``), so an unknown-name error lists the English, French and German names."""
    others: dict[str, list[str]] = {name: [] for name in known}
    for spelling, name in names.items():
        group = others.setdefault(name, [])
        if spelling != normalise_name(name) and spelling not in group:
            group.append(spelling)
    return ", ".join(f"{name} ({', '.join(words)})" if words else name
                     for name, words in others.items())


def variant_descriptions(variants: dict[str, dict]) -> dict[str, str]:
    """Each variant's name with its one-line description, from a parsed ``[variants]`` table
    whose entries carry a ``description`` key."""
    return {name: spec["description"] for name, spec in variants.items()}


def apply_variants(game: dict, variants: dict[str, dict],
                   names: Iterable[str]) -> tuple[dict, dict]:
    """The ``[game]`` fields of a rules file under the named variants of its ``[variants]``
    table, in order: each variant's ``set`` table overrides fields (a field the game does not
    have is an error, as is an unknown name, and two variants setting one field to different
    values contradict each other). Returns (fields, choices), where choices holds what a
    variant picks besides fields (Mille Sabords' ``deck``). The one loader of variants for the
    three games (Die Dracheninsel's readings are variants that set one field each)."""
    fields, choices = dict(game), {}
    set_by: dict[str, str] = {}
    for name in names:
        spec = variants.get(name)
        if spec is None:
            raise InputError(f"unknown variant {name!r}; known: {', '.join(sorted(variants))}")
        sets = spec.get("set", {})
        unknown = sorted(set(sets) - set(fields))
        if unknown:
            raise InputError(f"variant {name!r} sets unknown rule field {unknown[0]!r}")
        for key, value in sets.items():
            if key in set_by and fields[key] != value:
                raise InputError(f"variants {set_by[key]} and {name} contradict each other "
                                 f"(both set {key})")
            set_by[key] = name
        fields.update(sets)
        choices.update({k: v for k, v in spec.items() if k not in ("description", "set")})
    return fields, choices


def variant_readings(raw: dict) -> dict[str, dict]:
    """Each named variant of a parsed rules file (``[game]``, ``[variants]``, each with a
    ``description`` and a ``set`` table or a ``deck``) as the ``variants --json`` document:
    its description, what it sets, and the default reading it replaces (``default``: the
    variant only restates the rules as written, as Die Dracheninsel's default readings do)."""
    game = raw["game"]
    out = {}
    for name, spec in raw["variants"].items():
        sets = dict(spec.get("set", {}))
        if "deck" in spec:
            sets["deck"] = spec["deck"]
        default = all(k in game and game[k] == v for k, v in sets.items())
        out[name] = {"description": spec["description"], "default": default, "sets": sets,
                     "default_reading": {k: game.get(k, "standard") for k in sets}}
    return out


def readings_text(readings: dict[str, dict]) -> str:
    """``variants`` for people: one row per reading, what it sets and the default it
    replaces (a default reading is marked ``(default)``)."""
    from solver.text import table

    def values(d: dict) -> str:
        return ", ".join(f"{k} = {json.dumps(v)}" for k, v in d.items())

    rows = [[name, values(spec["sets"]),
             "(default)" if spec["default"] else values(spec["default_reading"]),
             spec["description"]] for name, spec in readings.items()]
    return table(["--variant NAME", "reading", "default reading", "description"], rows, "llll")


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


def write_output(path: str | os.PathLike, data: bytes | str, what: str = "output file") -> None:
    """Write a file the user asked for, whole (:func:`atomic_write_bytes`): a failure of the
    file system (a read-only folder, a full disk, a name too long) is an InputError naming the
    file, not a traceback."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        atomic_write_bytes(path, raw)
    except OSError as err:
        raise InputError(f"cannot write {what} {path}: {os_error_text(err)}") from None


def dumps_json(obj: object) -> str:
    """Deterministic JSON: sorted keys, two-space indent, trailing newline.

    Byte for byte ``json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False)``, written
    twice as fast: Python's encoder has no C path with an indent (0.5 ms for a ``hold`` answer
    of 67 options, a quarter of a warm web answer's cost), so each object or list holding only
    strings, numbers, booleans and nulls is written by the C encoder, its item separator
    carrying the line break and indent; only the levels above are walked here. Anything else
    (a dict with keys other than strings above the innermost level, a value JSON cannot write,
    a cycle) is left to ``json.dumps`` itself."""
    try:
        parts: list[str] = []
        _indented(obj, 0, parts)
        return "".join(parts) + "\n"
    except (_Unusual, TypeError, ValueError, RecursionError):
        pass  # json.dumps writes it, or raises its own error, outside this handler
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


class _Unusual(Exception):
    """A value :func:`dumps_json` leaves to ``json.dumps``."""


_flat_writers: dict[int, Callable[[object], str]] = {}
_CONTAINERS = (dict, list, tuple)
_SCALARS = frozenset({str, int, float, bool, type(None)})  # exactly these types, no subclass


def _unusual(value: object) -> object:
    raise _Unusual


def _flat_writer(level: int) -> Callable[[object], str]:
    """The C encoder writing a value at nesting ``level`` whose items (if any) hold no object
    or list, each item on its own line (the outer brackets stay on the first line): the one
    ``json.dumps`` uses without an indent, made once (``JSONEncoder.encode`` makes it anew at
    each call, which costs as much as the writing)."""
    writer = _flat_writers.get(level)
    if writer is None:
        separator = ",\n" + "  " * (level + 1)
        if c_make_encoder is None:  # a Python without the C accelerator
            writer = json.JSONEncoder(ensure_ascii=False, sort_keys=True,
                                      separators=(separator, ": ")).encode
        else:
            encode = c_make_encoder(None, _unusual, encode_basestring, None, ": ", separator,
                                    True, False, True)

            def writer(value: object, encode=encode) -> str:
                return "".join(encode(value, 0))
        _flat_writers[level] = writer
    return writer


def _indented(obj: object, level: int, parts: list[str]) -> None:
    """Append ``obj`` as ``json.dumps`` with ``indent=2`` writes it at nesting ``level``."""
    if not isinstance(obj, _CONTAINERS) or not obj:  # a scalar, {} or []
        parts.append(_flat_writer(level)(obj))
        return
    is_dict = isinstance(obj, dict)
    inner, outer = "\n" + "  " * (level + 1), "\n" + "  " * level
    if _SCALARS.issuperset(map(type, obj.values() if is_dict else obj)):
        text = _flat_writer(level)(obj)  # '{"a": 1,<inner>"b": 2}'
        parts += (text[0], inner, text[1:-1], outer, text[-1])
        return
    # a key other than a string fails encode_basestring: json.dumps converts it its own way
    items = sorted(obj.items()) if is_dict else [(None, value) for value in obj]
    separator = "{" if is_dict else "["
    write, deeper = _flat_writer(level + 1), inner + "  "
    for key, value in items:
        parts += (separator, inner) if key is None else (
            separator, inner, encode_basestring(key), ": ")
        if type(value) is dict and value and _SCALARS.issuperset(map(type, value.values())):
            text = write(value)  # the usual row of a table, written here at once
            parts += ("{", deeper, text[1:-1], inner, "}")
        else:
            _indented(value, level + 1, parts)
        separator = ","
    parts += (outer, "}" if is_dict else "]")


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


def distinguishing_digits(values: list[float], least: int, most: int) -> int:
    """The fewest decimals (from ``least`` up to ``most``) at which values that differ (by
    more than 1e-9) also print differently, so a table tells its options apart."""
    distinct = sorted(set(round(v, 9) for v in values))
    for digits in range(least, most):
        shown = {f"{v:.{digits}f}" for v in distinct}
        if len(shown) == len(distinct):
            return digits
    return most


class StatusLine:
    """What a long job is doing, on one stderr line rewritten in place (with the seconds
    since the start); silent unless stderr is a terminal, so pipes and logs stay clean."""

    def __init__(self) -> None:
        self.active = sys.stderr.isatty()
        self.t0 = time.perf_counter()

    def __call__(self, text: str) -> None:
        if self.active:
            sys.stderr.write(f"\r\033[K{time.perf_counter() - self.t0:6.1f} s  {text}")
            sys.stderr.flush()

    def __enter__(self) -> StatusLine:
        return self

    def __exit__(self, *exc) -> None:
        if self.active:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def fmt_float(x: float, digits: int = 4) -> str:
    """Fixed float formatting for reports (byte-identical across runs)."""
    return f"{x:.{digits}f}"
