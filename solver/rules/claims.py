"""Stored verdicts: variant claims (``proofs/<game>/variants.json``: what each reading changes,
written by ``make solve`` and re-checked by ``make check``) and the rows that describe each
invariant's certificate."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

from solver.io import atomic_write_text, dumps_json
from solver.paths import PROOFS_DIR, REPO_ROOT


def write_claims(path: Path, names: Iterable[str],
                 measure: Callable[[str], list[dict]]) -> list[dict]:
    """Measure every variant and store the rows; returns them."""
    rows = [row for name in sorted(names) for row in measure(name)]
    atomic_write_text(path, dumps_json({"claims": rows}))
    return rows


def read_claims(path: Path) -> list[dict]:
    """The stored rows; raises ValueError when the file is missing or malformed."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))["claims"]
    except (OSError, ValueError, KeyError) as err:
        raise ValueError(f"variant claims {path.name} unreadable: {err}") from err


def stored_claims(game: str, proofs_dir: Path = PROOFS_DIR) -> list[dict]:
    """The measured rows of every variant of a game (its ambiguity module's ``CLAIMS_FILE``
    under ``proofs_dir``), or []."""
    from solver.games import game as find_game

    ambiguity = find_game(game).hook("ambiguity")
    if not ambiguity:
        return []
    try:
        return read_claims(proofs_dir / ambiguity.CLAIMS_FILE)
    except ValueError:
        return []


def verify_stored(path: Path, game: str, check: Callable[[list[dict]], list[str]]) -> list[str]:
    """Run ``check`` on the stored rows; a missing or malformed file is itself a problem."""
    try:
        rows = read_claims(path)
    except ValueError as err:
        return [f"{game}: {err}"]
    return check(rows)


def invariant_row(game: str, inv_id: str, statement: str, method: str, holds: bool,
                  path: Path) -> dict:
    """One invariant as the verifier reports it; the certificate path relative to the repo."""
    try:
        certificate = str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        certificate = str(path)
    return {"id": f"{game}/{inv_id}", "statement": statement, "method": method,
            "holds": bool(holds), "certificate": certificate}
