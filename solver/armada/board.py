"""The Gold Armada board as data: symbols (the dice faces) and piers, read from a TOML file.

The shipped ``models/armada/board.toml`` is a labelled reconstruction (the printed board was not
available); ``--board FILE`` takes a user's transcription in the same format, which the file
itself documents. Every problem with a file is one :class:`InputError` line.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from solver.errors import InputError
from solver.io import read_text
from solver.paths import MODELS_DIR

BOARD_FILE = MODELS_DIR / "armada" / "board.toml"
KINDS = ("count", "of-a-kind", "full-house")
ANY = "*"
MAX_DOUBLOONS = 9  # one digit per pier in a board state
MAX_VALUE = 1000  # a doubloon's value (the printed ones are 1 to 6)
MAX_NEED = 99  # dice a doubloon needs (checked against the rules' dice when a game is built)


@dataclass(frozen=True)
class Pier:
    """One pier: its doubloons in the order they are taken."""

    name: str
    kind: str
    values: tuple[int, ...]
    need: tuple[int, ...]  # dice needed per doubloon (0 for a full house)
    allowed: tuple[tuple[int, ...], ...]  # symbol indices allowed per doubloon

    @property
    def doubloons(self) -> int:
        return len(self.values)


@dataclass(frozen=True)
class Board:
    """Symbols and piers; ``digest`` identifies the file's content (cache keys)."""

    name: str
    reconstruction: bool
    note: str
    symbols: tuple[str, ...]
    letters: tuple[str, ...]
    piers: tuple[Pier, ...]
    digest: str
    source: str

    @property
    def label(self) -> str:
        """One line naming the board, with RECONSTRUCTION where it is one."""
        tag = "RECONSTRUCTION (not the printed board)" if self.reconstruction else "transcription"
        return f"board {self.name!r} from {self.source}: {tag}"

    def symbol_names(self, indices: tuple[int, ...]) -> str:
        if len(indices) == len(self.symbols):
            return "any symbol"
        return "/".join(self.symbols[i] for i in indices)

    def requirement(self, pier: int, level: int) -> str:
        """A short description of what the next doubloon of ``pier`` needs at ``level``."""
        p = self.piers[pier]
        allowed = self.symbol_names(p.allowed[level])
        if p.kind == "count":
            return f"{p.need[level]} x {allowed}"
        if p.kind == "of-a-kind":
            return f"{p.need[level]} of a kind ({allowed})"
        return f"full house ({allowed})"


def _fail(where: str, problem: str) -> InputError:
    return InputError(f"bad board file {where}: {problem}")


def _symbols(raw: dict, where: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    rows = raw.get("symbol")
    if not isinstance(rows, list) or len(rows) < 2:
        raise _fail(where, "needs at least two [[symbol]] tables (name, letter)")
    names, letters = [], []
    for i, row in enumerate(rows):
        name, letter = row.get("name"), row.get("letter")
        if not isinstance(name, str) or not name or name == ANY:
            raise _fail(where, f"symbol #{i + 1} has no valid name")
        if not isinstance(letter, str) or not re.fullmatch(r"[A-Z]", letter):
            raise _fail(where, f"symbol {name!r} needs one upper-case letter")
        names.append(name)
        letters.append(letter)
    for kind, seq in (("name", names), ("letter", letters)):
        dup = sorted({x for x in seq if seq.count(x) > 1})
        if dup:
            raise _fail(where, f"symbol {kind} {dup[0]!r} appears twice")
    return tuple(names), tuple(letters)


def _int_list(value: object, length: int, what: str, where: str, low: int,
              high: int) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != length
        or not all(isinstance(x, int) and not isinstance(x, bool) and low <= x <= high
                   for x in value)
    ):
        raise _fail(where, f"{what} must be a list of {length} integers from {low} to {high}")
    return tuple(value)


def _pier(row: dict, symbols: tuple[str, ...], where: str) -> Pier:
    name = row.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        raise _fail(where, f"pier name {name!r} must be kebab-case")
    where = f"{where}, pier {name!r}"
    kind = row.get("kind")
    if kind not in KINDS:
        raise _fail(where, f"kind must be one of {', '.join(KINDS)}")
    values = row.get("values")
    if not isinstance(values, list) or not 1 <= len(values) <= MAX_DOUBLOONS:
        raise _fail(where, f"values must list 1 to {MAX_DOUBLOONS} doubloons")
    n = len(values)
    values_t = _int_list(values, n, "values", where, low=0, high=MAX_VALUE)
    need = (0,) * n if kind == "full-house" else _int_list(row.get("need"), n, "need", where,
                                                           low=1, high=MAX_NEED)
    raw_allowed = row.get("allowed")
    if not isinstance(raw_allowed, list) or len(raw_allowed) != n:
        raise _fail(where, f"allowed must list the symbols for each of the {n} doubloons")
    allowed = []
    for level, group in enumerate(raw_allowed):
        if not isinstance(group, list) or not group:
            raise _fail(where, f"allowed #{level + 1} must be a non-empty list of symbol names")
        if group == [ANY]:
            allowed.append(tuple(range(len(symbols))))
            continue
        unknown = [s for s in group if s not in symbols]
        if unknown:
            raise _fail(where, f"unknown symbol {unknown[0]!r} (known: {', '.join(symbols)})")
        allowed.append(tuple(sorted({symbols.index(s) for s in group})))
    if kind == "count" and any(len(a) != 1 for a in allowed):
        raise _fail(where, "a count pier allows exactly one symbol per doubloon")
    if kind == "full-house" and any(len(a) < 2 for a in allowed):
        raise _fail(where, "a full house needs at least two allowed symbols per doubloon")
    return Pier(name, kind, values_t, need, tuple(allowed))


def parse_board(text: str, source: str) -> Board:
    """A board from TOML text; ``source`` names it in messages."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise _fail(source, f"not valid TOML ({err})") from None
    meta = raw.get("board", {})
    if not isinstance(meta, dict):
        raise _fail(source, "[board] must be a table")
    symbols, letters = _symbols(raw, source)
    rows = raw.get("pier")
    if not isinstance(rows, list) or not rows:
        raise _fail(source, "needs at least one [[pier]] table")
    piers = tuple(_pier(row, symbols, source) for row in rows)
    names = [p.name for p in piers]
    dup = sorted({x for x in names if names.count(x) > 1})
    if dup:
        raise _fail(source, f"pier name {dup[0]!r} appears twice")
    reconstruction = meta.get("reconstruction", False)
    if not isinstance(reconstruction, bool):
        raise _fail(source, f"reconstruction is true or false, not {reconstruction!r}")
    return Board(
        name=str(meta.get("name", Path(source).stem)),
        reconstruction=reconstruction,
        note=str(meta.get("note", "")),
        symbols=symbols,
        letters=letters,
        piers=piers,
        digest=hashlib.sha256(text.encode("utf-8")).hexdigest()[:16],
        source=source,
    )


def load_board(path: str | Path | None = None) -> Board:
    """The board in ``path`` (default: the shipped reconstruction)."""
    path = Path(path) if path is not None else BOARD_FILE
    text = read_text(path, "board file")
    source = "models/armada/board.toml" if path.resolve() == BOARD_FILE.resolve() else str(path)
    return parse_board(text, source)
