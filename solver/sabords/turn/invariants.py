"""Mille Sabords invariants, proved by exhaustive computation over the models, each leaving a
certificate in ``proofs/sabords/invariants/`` that :func:`verify_all` re-checks by recomputing
(never by trusting a stored verdict).

Also the rulebook's own numbers (:func:`fact`), checked against ``models/`` by the verifier.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

import numpy as np

from solver.errors import InputError
from solver.io import atomic_write_text, dumps_json
from solver.rules.claims import invariant_row
from solver.sabords.rules import PROMO_CARDS, STANDARD_CARDS, Rules, load_rules, variant_names
from solver.sabords.scoring import (
    bust_outcomes,
    island_distribution,
    longest_island,
    protected_outcomes,
    stop_outcomes,
)

CARDS = STANDARD_CARDS + PROMO_CARDS
SUBDIR = Path("sabords") / "invariants"


def _all_rules() -> list[Rules]:
    return [load_rules()] + [load_rules([v]) for v in sorted(variant_names())]


def _all_dice(rules: Rules) -> np.ndarray:
    from solver.engine import DiceSpace

    space = DiceSpace.of(len(rules.faces), rules.dice)
    return space.counts.astype(np.int64), space.size


# ---- the invariants: each returns (holds, evidence) computed from the models ----------------

def _turn_ends() -> tuple[bool, dict]:
    """Every legal reroll moves at least one die that can show a skull; skulls never leave
    the table except by a one-shot Sorceress reroll; so each reroll adds a skull with
    probability at least p_min, and the turn ends with probability one under every policy."""
    from solver.sabords.objective import Objective
    from solver.sabords.turn.model import build_model

    evidence = {}
    ok = True
    for rules in _all_rules():
        name = "+".join(rules.variants) or "default"
        for card in CARDS:
            model = build_model(rules.card(card), rules, Objective("points"))
            p = model.problem
            space = model.space
            skull = model.skull
            state_skulls = space.counts[space.full[p.act_state], skull].astype(int)
            kept_skulls = space.counts[p.act_keep, skull].astype(int)
            rolled = rules.dice - space.size[p.act_keep].astype(int)
            freeing = kept_skulls < state_skulls
            monotone = bool(np.all(p.act_next >= p.act_mode))
            frees_once = bool(np.all(p.act_next[freeing] > p.act_mode[freeing]))
            frees_one = bool(np.all(state_skulls - kept_skulls <= 1))
            fewest = int(rolled.min()) if len(rolled) else 0
            p_min = 1 - Fraction(5, 6) ** fewest if len(rolled) else Fraction(1)
            holds = monotone and frees_once and frees_one and (fewest >= 1 or not len(rolled))
            ok &= holds
            evidence[f"{name}/{card}"] = {"fewest_rerolled": fewest, "p_min": str(p_min),
                                          "holds": holds}
    return ok, evidence


def _outcome_table(rules: Rules) -> dict[str, list[int]]:
    """Every score a turn can produce: stops and busts on every dice state, the protected
    dice of Treasure Island on every kept multiset, every Island loss, for every card."""
    counts, size = _all_dice(rules)
    full = counts[size == rules.dice]
    table = {}
    for card in CARDS:
        c = rules.card(card)
        stop = stop_outcomes(full, c, rules)
        bust = bust_outcomes(full, c, rules)
        prot = protected_outcomes(counts, c, rules)
        island = sorted({loss for k in range(rules.dice + 1)
                         for loss in island_distribution(k, c, rules)})
        table[card] = sorted(set(stop.own.tolist()) | set(bust.own.tolist())
                             | set(bust.opponents.tolist()) | set(prot.own.tolist())
                             | set(island))
    return table


def _multiples_of_100() -> tuple[bool, dict]:
    evidence = {}
    ok = True
    for rules in _all_rules():
        table = _outcome_table(rules)
        name = "+".join(rules.variants) or "default"
        bad = {card: [v for v in values if v % 100] for card, values in table.items()}
        ok &= not any(bad.values())
        digest = hashlib.sha256(json.dumps(table, sort_keys=True).encode()).hexdigest()
        evidence[name] = {"distinct_scores": sum(map(len, table.values())), "sha256": digest,
                          "not_multiples": {k: v for k, v in bad.items() if v}}
    return ok, evidence


def _nine_needs_card() -> tuple[bool, dict]:
    rules = load_rules()
    counts, size = _all_dice(rules)
    full = counts[size == rules.dice]
    evidence = {}
    ok = True
    for card in CARDS:
        win = stop_outcomes(full, rules.card(card), rules).win
        winners = sorted(
            "".join(letter * int(n) for letter, n in zip(rules.letters, row, strict=True))
            for row in full[win])
        allowed = card in ("gold", "diamond")
        ok &= allowed or not winners
        if allowed:
            face = rules.face("coin" if card == "gold" else "diamond")
            ok &= winners == [rules.letters[face] * rules.dice]
        evidence[card] = winners
    return ok, evidence


def _skull_forfeits_chest() -> tuple[bool, dict]:
    rules = load_rules()
    counts, size = _all_dice(rules)
    full = counts[size == rules.dice]
    skulls = full[:, rules.face(rules.skull)]
    evidence = {}
    ok = True
    for card in CARDS:
        c = rules.card(card)
        chest = stop_outcomes(full, c, rules).chest
        violations = int(np.sum(chest & ((skulls > 0) | (c.extra_skulls > 0))))
        ok &= violations == 0
        evidence[card] = {"chests": int(chest.sum()), "with_a_skull": violations}
    return ok, evidence


def _longest_island_by_search(card: str, rules: Rules) -> int:
    """Depth-first over every sequence of skull counts an Island turn can roll."""
    c = rules.card(card)
    if not c.island:
        return 0
    best = 0
    for first in range(rules.dice + 1):
        counted = first + (c.extra_skulls if rules.card_skulls_count_island else 0)
        if counted < rules.island_skulls:
            continue
        stack = [(rules.dice - first, 1, c.island_rerolls)]
        while stack:
            left, rolls, rerolls = stack.pop()
            best = max(best, rolls)
            if left >= 2 and rerolls > 0:
                # a roll with no skull ends the turn after this roll; skulls go on
                best = max(best, rolls + 1)
                for new in range(1, left + 1):
                    stack.append((left - new, rolls + 1, rerolls - 1))
    return best


def _longest_island() -> tuple[bool, dict]:
    rules = load_rules()
    evidence = {}
    ok = True
    for card in CARDS:
        searched = _longest_island_by_search(card, rules)
        formula = longest_island(rules.card(card), rules)
        ok &= searched == formula
        evidence[card] = {"rolls": searched, "formula": formula}
    return ok, evidence


def _keep_one_rule() -> tuple[bool, dict]:
    """The French keep-one-die rule against the English two-dice-only reroll: the default
    certificates (points, margin, reach:1000) still verify when rerolling every die is
    allowed, so the rule changes no optimal value for the twelve standard cases."""
    from solver.sabords.objective import Objective
    from solver.sabords.turn.certify import certificate_path, check_document

    base, alt = load_rules(), load_rules(["reroll-two-only"])
    evidence = {}
    ok = True
    for objective in (Objective("points"), Objective("margin"), Objective("reach", 1000)):
        for card in STANDARD_CARDS:
            path = certificate_path(card, base, objective=objective)
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
                problems = check_document(doc, alt, same_rules=False)
            except (OSError, ValueError) as err:
                problems = [str(err)]
            ok &= not problems
            evidence[f"{card}/{objective.name}"] = "unchanged" if not problems else "changed"
    return ok, evidence


INVARIANTS = {
    "turn-ends": ("Every turn ends with probability 1 under every policy, every card and every "
                  "variant.", "Ranking argument checked on every legal action: skulls never "
                  "fall except by the one-shot Sorceress reroll, and every reroll moves a die "
                  "that shows a skull with probability >= p_min > 0.", _turn_ends),
    "multiples-of-100": ("Every score a turn can produce is a multiple of 100 (own points and "
                         "opponents' losses), for every card and variant.",
                         "Exhaustive: every dice state, kept multiset and Island outcome.",
                         _multiples_of_100),
    "nine-needs-card": ("Nine identical symbols need a Gold or Diamond card (eight dice of its "
                        "symbol).", "Exhaustive over every dice state and card.",
                        _nine_needs_card),
    "skull-forfeits-chest": ("A skull on the dice or on a Skull card forfeits the full chest.",
                             "Exhaustive over every dice state and card.",
                             _skull_forfeits_chest),
    "longest-island": ("The longest Island of Skulls turn (rolls, first roll included) per "
                       "card: 4 with no card, 6 with two skulls on a card.",
                       "Depth-first search over every skull sequence, compared with the "
                       "closed form.", _longest_island),
    "keep-one-rule": ("The keep-one-die rule (French) changes no optimal value of the twelve "
                      "standard cases, for the points, margin and reach:1000 objectives; it "
                      "only matters with the After the Storm promo card (see ambiguities.md).",
                      "Each default exact certificate re-verified under the variant "
                      "reroll-two-only: its values satisfy the variant's equations and no new "
                      "action beats them.", _keep_one_rule),
}


def _certificate_path(proofs_dir: Path, inv_id: str) -> Path:
    return proofs_dir / SUBDIR / f"{inv_id}.json"


def _row(inv_id: str, holds: bool, proofs_dir: Path) -> dict:
    statement, method, _ = INVARIANTS[inv_id]
    return invariant_row("sabords", inv_id, statement, method, holds,
                         _certificate_path(proofs_dir, inv_id))


def prove_all(proofs_dir: Path) -> list[dict]:
    rows = []
    for inv_id, (_, _, prove) in INVARIANTS.items():
        holds, evidence = prove()
        atomic_write_text(_certificate_path(proofs_dir, inv_id),
                          dumps_json({"invariant": inv_id, "holds": holds,
                                      "evidence": evidence}))
        rows.append(_row(inv_id, holds, proofs_dir))
    return rows


def verify_all(proofs_dir: Path) -> list[dict]:
    """Recompute each invariant and compare with its certificate's evidence."""
    rows = []
    for inv_id, (_, _, prove) in INVARIANTS.items():
        path = _certificate_path(proofs_dir, inv_id)
        holds, evidence = prove()
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            same = stored.get("evidence") == json.loads(json.dumps(evidence))
        except (OSError, ValueError):
            same = False
        rows.append(_row(inv_id, holds and same, proofs_dir))
    return rows


# ---- the rulebook's own numbers --------------------------------------------------------------

def fact(check: str) -> int:
    """The value the models give for a count check named in editions.toml."""
    rules = load_rules()
    if check == "deck-total":
        return sum(n for _, n in rules.deck)
    if check.startswith("score:"):
        _, card, dice = check.split(":")
        from solver.sabords.dice import parse_dice

        counts = np.array(parse_dice(dice, rules))
        return int(stop_outcomes(counts, rules.card(card), rules).own[0])
    if check == "island-minimum-loss":
        return rules.island_skulls * rules.island_penalty
    if check == "dice":
        return rules.dice
    if check == "dice-plus-card":
        return rules.dice + 1
    if check == "battle-bonus-sum":
        return sum(c.battle_bonus for c in rules.cards.values())
    raise InputError(f"unknown count check {check!r}")
