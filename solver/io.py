"""Reading and writing files: text and TOML read with every failure as one InputError line,
files written whole (a temporary file, then a rename), and deterministic JSON."""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring
from pathlib import Path

from solver.errors import InputError, os_error_text


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
    faster: Python's encoder has no C path with an indent, which made JSON a large part of a
    warm web answer's cost, so each object or list holding only
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
