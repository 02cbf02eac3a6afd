"""The three-player table ``make solve`` ships in ``proofs/sabords/table-3-<target>.json``:
written (:func:`proof_text`), read back (:func:`read_proof`, :func:`shipped_solution`, which
the answers read instead of solving) and re-verified by ``make check`` (:func:`check_proof`:
the regret recomputed on a seeded sample of states)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from solver.sabords.game.table.equilibrium import regret
from solver.sabords.game.table.solution import TableSolution
from solver.sabords.game.table.states import Layout, TableSpec
from solver.sabords.rules import load_rules

PROOF = "table-3-{target}.json"
SAMPLE = 2000  # states whose regret make check re-verifies (seeded)


def proof_text(solution: TableSolution) -> str:
    """The three-player table as a proof file: its spec, values and certificate figures."""
    layout = solution.layout
    return json.dumps({
        "what": "The Mille Sabords three-player table: per state (the layout of "
                "solver/sabords/game/table/states.py: phases in order, scores from the mover in "
                "playing order, in steps of 100 from the lowest score), every player's P(win) "
                "+ shares of ties by position. `make check` recomputes the regret (the most a "
                "mover gains by playing one turn otherwise) on a seeded sample of states.",
        "spec": layout.spec.key(),
        "values": solution.values[:layout.states].tolist(), "regret": solution.stats["regret"],
        "stats": {k: v for k, v in solution.stats.items() if k != "seconds"}},
        sort_keys=True, separators=(",", ":")) + "\n"


def read_proof(path: Path) -> TableSolution:
    """A shipped three-player table (values and the solve's statistics; no play), or
    ValueError when it was solved under other rules than the current ones."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    key = doc["spec"]
    rules = load_rules(key["rules"]["variants"]).with_dice(key["rules"]["dice"])
    spec = TableSpec.of(rules, key["players"], key["target"], key["low"])
    if spec.key() != key:
        raise ValueError(f"{path.name}: solved under other rules than the current ones "
                         "(make solve)")
    layout = Layout(spec)
    values = layout.empty()
    values[:layout.states] = np.array(doc["values"])
    return TableSolution(layout, values, np.zeros((0, 0)), stats=doc["stats"])


def shipped_solution(spec: TableSpec, proofs_dir: Path | None = None) -> TableSolution | None:
    """The three-player table ``make solve`` ships, if it is the one ``spec`` asks for."""
    from solver.paths import PROOFS_DIR

    path = (PROOFS_DIR if proofs_dir is None else proofs_dir) / "sabords" / \
        PROOF.format(target=spec.game.target)
    if spec.players != 3 or not path.is_file():
        return None
    try:
        solution = read_proof(path)
    except (ValueError, KeyError, OSError):
        return None
    return solution if solution.spec.key() == spec.key() else None


def check_proof(path: Path, sample: int = SAMPLE) -> list[str]:
    """``make check``: the shipped three-player table's regret recomputed on a seeded sample
    of its states (every turn solved again); problems as lines."""
    try:
        solution = read_proof(path)
    except ValueError as err:
        return [str(err)]
    doc = json.loads(path.read_text(encoding="utf-8"))
    layout = solution.layout
    rows = np.sort(np.random.default_rng(sample).choice(layout.states, min(sample, layout.states),
                                                        replace=False))
    found = regret(solution, rows)
    claimed = float(doc["regret"])
    if found.max() > max(claimed, 0.0) + 1e-12 or found.min() < -1e-12:
        return [f"{path.name}: regret {found.max():.2e} on {sample} states, claimed "
                f"{claimed:.2e}"]
    return []
