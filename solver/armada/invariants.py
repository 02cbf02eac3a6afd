"""Gold Armada invariants, proved by computation over the models, each leaving a certificate in
``proofs/armada/invariants/`` that :func:`verify_all` re-checks by recomputing the evidence
(never by trusting a stored verdict).

Also the rulebook's own numbers (:func:`fact`) for the verifier's count checks.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import numpy as np

from solver.armada.exact import all_states, exact_game, requirement_chance
from solver.armada.game import Game, default_game
from solver.armada.rules import with_variant
from solver.armada.wholegame import layers, solve_table
from solver.io import atomic_write_text, dumps_json
from solver.rules.claims import invariant_row

SUBDIR = Path("armada") / "invariants"
SMALL_PIERS = ["barrels", "full-house"]

Proof = Callable[[Game], tuple[bool, dict]]


def _requirements(game: Game) -> tuple[bool, dict]:
    """Every requirement can be met within one turn: exact chance > 0 (playing for it)."""
    chances = {}
    for i, pier in enumerate(game.board.piers):
        for d in range(pier.doubloons):
            p = requirement_chance(game, i, d)
            chances[f"{pier.name}/{d + 1}"] = f"{p.numerator}/{p.denominator}"
    holds = all(Fraction(v) > 0 for v in chances.values())
    return holds, {"rolls": game.rules.rolls, "chances": chances}


def _values(game: Game) -> tuple[bool, dict]:
    """Doubloon values never fall along a pier; steps that do not rise are listed."""
    values = {p.name: list(p.values) for p in game.board.piers}
    falls = [f"{n}: {a} -> {b}" for n, v in values.items() for a, b in pairwise(v) if b < a]
    flat = [f"{n}: {a} -> {b}" for n, v in values.items() for a, b in pairwise(v) if b == a]
    return not falls, {"values": values, "falls": falls, "not_rising": flat}


def _token_masks(game: Game) -> np.ndarray:
    """``(piers, levels + 1, words)`` uint64 bit sets of the final rows meeting each pier."""
    n_full = game.qualify.shape[-1]
    words = (n_full + 63) // 64
    out = np.zeros((len(game.board.piers), game.max_doubloons + 1, words), dtype=np.uint64)
    for i in range(out.shape[0]):
        for lv in range(game.max_doubloons):
            for row in np.flatnonzero(game.qualify[i, lv]):
                out[i, lv, row // 64] |= np.uint64(1) << np.uint64(row % 64)
    return out


def _game_length(game: Game) -> tuple[bool, dict]:
    """Each turn ends with exactly one token: a doubloon of a pier whose requirement the final
    dice meet, or a skull when they meet none (or at will under may-take-skull). The longest
    possible game, by dynamic programming over every state, takes exactly doubloons + skulls
    - 1 turns (the last skull ends the game; 35 on the shipped board)."""
    masks = _token_masks(game)
    n_full = game.qualify.shape[-1]
    every = np.zeros(masks.shape[-1], dtype=np.uint64)
    for row in range(n_full):
        every[row // 64] |= np.uint64(1) << np.uint64(row % 64)
    longest = np.zeros((game.rules.skulls + 1, game.n_codes), dtype=np.int16)
    no_turn = np.int16(-1)
    for codes, skulls in layers(game):
        best = np.full(len(codes), no_turn, dtype=np.int16)
        cover = np.zeros((len(codes), masks.shape[-1]), dtype=np.uint64)
        for i, (stride, radix) in enumerate(zip(game.strides, game.radix, strict=True)):
            lv = (codes // stride) % radix
            open_ = lv < radix - 1
            cover |= masks[i, lv]
            can = open_ & masks[i, lv].any(axis=1)
            nxt = longest[skulls, np.where(open_, codes + stride, codes)]
            best = np.where(can, np.maximum(best, nxt), best)
        skull_ok = (cover != every).any(axis=1) | (not game.rules.must_take)
        best = np.where(skull_ok, np.maximum(best, longest[skulls + 1, codes]), best)
        if (best < 0).any():
            return False, {"error": "a state with no possible token"}
        longest[skulls, codes] = best + 1
    opening = int(longest[0, 0])
    bound = game.total_doubloons + game.rules.skulls - 1
    return opening == bound, {"longest_game_turns": opening, "doubloons":
                                   game.total_doubloons, "skulls": game.rules.skulls,
                                   "bound_doubloons_plus_skulls_minus_one": bound}


def _stop_early(game: Game) -> tuple[bool, dict]:
    """Allowing the turn to end before the third roll changes no value: exactly (rationals) on
    every state of a two-pier, two-skull board, and bit for bit in the float tables of the
    whole board for both whole-game objectives."""
    never = Game(game.board, with_variant(game.rules, "no-early-stop"))
    small, small_never = (g.reduced(piers=SMALL_PIERS, skulls=2) for g in (game, never))
    evidence: dict = {}
    ok = True
    for objective in ("solo", "duel"):
        a, b = exact_game(small, objective), exact_game(small_never, objective)
        states = all_states(small)
        same = all(a(*s) == b(*s) for s in states)
        opening = a(*small.opening)
        evidence[f"small/{objective}"] = {"states": len(states), "identical": same,
                                          "opening": f"{opening.numerator}/{opening.denominator}"}
        diff = float(np.max(np.abs(solve_table(game, objective)
                                   - solve_table(never, objective))))
        evidence[f"full/{objective}"] = {"states": game.n_states, "max_difference": diff}
        ok &= same and diff == 0.0
    return ok, evidence


INVARIANTS: dict[str, tuple[str, str, Proof]] = {
    "requirements-reachable": (
        "Every requirement on the board can be met within three rolls (exact chance > 0).",
        "exact rational finite-horizon solve per requirement (lattice walk, Fractions)",
        _requirements,
    ),
    "values-never-fall": (
        "Doubloon values never fall along a pier (the rulebook says each is worth more than "
        "the last; steps that only stay level are listed in the certificate).",
        "read from the board model",
        _values,
    ),
    "longest-game-35-turns": (
        "The longest game takes doubloons + skulls - 1 turns, 35 on the shipped board: every "
        "turn takes exactly one token and the sixth skull ends the game.",
        "longest path by dynamic programming over every board state, tokens taken descending",
        _game_length,
    ),
    "stop-early-changes-nothing": (
        "Ending a turn before the third roll (keeping all dice) changes no value.",
        "exact rationals on a two-pier two-skull board; float tables of the full board",
        _stop_early,
    ),
}


def _path(proofs_dir: Path, inv_id: str) -> Path:
    return Path(proofs_dir) / SUBDIR / f"{inv_id}.json"


def _row(inv_id: str, holds: bool, proofs_dir: Path) -> dict:
    statement, method, _ = INVARIANTS[inv_id]
    return invariant_row("armada", inv_id, statement, method, holds, _path(proofs_dir, inv_id))


def _subject(game: Game | None) -> tuple[Game, dict]:
    game = game or default_game()
    return game, {"board": game.board.label, "board_digest": game.board.digest,
                  "rules": game.rules.key()}


def prove_all(proofs_dir: Path, game: Game | None = None) -> list[dict]:
    """Prove every invariant for ``game`` (default: the shipped board) and write certificates."""
    game, subject = _subject(game)
    rows = []
    for inv_id, (statement, method, prove) in INVARIANTS.items():
        holds, evidence = prove(game)
        atomic_write_text(_path(proofs_dir, inv_id), dumps_json({
            "invariant": inv_id, "statement": statement, "method": method, "subject": subject,
            "holds": holds, "evidence": evidence}))
        rows.append(_row(inv_id, holds, proofs_dir))
    return rows


def verify_all(proofs_dir: Path, game: Game | None = None) -> list[dict]:
    """Recompute each invariant; it holds only if it holds now and the certificate's subject
    and evidence equal the recomputation."""
    game, subject = _subject(game)
    rows = []
    for inv_id, (_, _, prove) in INVARIANTS.items():
        holds, evidence = prove(game)
        try:
            stored = json.loads(_path(proofs_dir, inv_id).read_text(encoding="utf-8"))
            same = (stored.get("evidence") == json.loads(json.dumps(evidence))
                    and stored.get("subject") == json.loads(json.dumps(subject)))
        except (OSError, ValueError):
            same = False
        rows.append(_row(inv_id, holds and same, proofs_dir))
    return rows


# ---- the rulebook's own numbers --------------------------------------------------------------

def fact(check: str) -> int:
    """The value the models give for a count check named in editions.toml."""
    game = default_game()
    piers = game.board.piers
    facts = {
        "doubloons": game.total_doubloons,
        "piers": len(piers),
        "piers-times-doubloons": len(piers) * game.max_doubloons,
        "skulls": game.rules.skulls,
        "dice": game.rules.dice,
        "symbols": len(game.board.symbols),
        "rolls": game.rules.rolls,
        "lowest-value": min(min(p.values) for p in piers),
        "highest-value": max(max(p.values) for p in piers),
        "value-sum": sum(sum(p.values) for p in piers),
        "basic-piers": sum(p.kind == "count" for p in piers),
        "first-basic-need": max(p.need[0] for p in piers if p.kind == "count"),
        "four-kind-last-symbols": max(len(p.allowed[-1]) for p in piers
                                      if p.kind == "of-a-kind" and p.need[-1] == 4),
    }
    if check not in facts:
        raise KeyError(check)
    return int(facts[check])
