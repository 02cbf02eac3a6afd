"""Closed forms of Mille Sabords' rule probabilities, derived with sympy, beside the engine's
exact numbers (the verifier checks the two equal; :mod:`solver.rules.closed_forms`).

Three families: a reroll's chance to bust (by dice rolled and skulls showing), the Island of
Skulls' loss distribution (its probability generating function, against
:func:`solver.sabords.scoring.island_distribution`), and a Sea Battle's chance to be won by
one roll (the first roll, or a reroll given the sabres and skulls kept).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

import numpy as np
import sympy as sp

from solver.rules.closed_forms import (
    Family,
    Row,
    binomial_tail,
    collected,
    form_text,
    fraction,
    n,
    p,
    x,
)


def bust_form(skulls: int, bust: int = 3) -> sp.Expr:
    """P(bust) when ``n`` dice are rolled with ``skulls`` skulls showing: at least
    ``bust - skulls`` new skulls, i.e. one minus a binomial tail, in ``n`` and ``p``."""
    return 1 - sp.expand_func(binomial_tail(n, bust - skulls, p))


def battle_form(sabres_short: int, skulls_left: int) -> sp.Expr:
    """P(a roll of ``n`` dice shows at least ``sabres_short`` sabres and at most
    ``skulls_left`` skulls), sabres and skulls each of chance ``p``: sum over the skulls
    ``j`` rolled of C(n, j) p^j times P(enough sabres among the other n - j dice, each a sabre
    with chance p / (1 - p))."""
    total = sp.Integer(0)
    for j in range(skulls_left + 1):
        rest = n - j
        enough = (1 - p) ** rest - sum(
            (sp.binomial(rest, i) * p**i * (1 - 2 * p) ** (rest - i)
             for i in range(max(sabres_short, 0))), sp.Integer(0))
        total += sp.binomial(n, j) * p**j * enough
    return sp.expand_func(total)  # C(n, j) as a polynomial in n


@cache
def island_pgf(dice: int, min_reroll: int) -> sp.Expr:
    """Probability generating function, in ``x``, of the skulls still to come on the Island of
    Skulls with ``dice`` dice left: all of them are rolled; a roll without a skull ends the
    turn, as does having fewer than ``min_reroll`` dice left."""
    if dice < min_reroll:
        return sp.Integer(1)
    total = (1 - p) ** dice
    for j in range(1, dice + 1):
        total += sp.binomial(dice, j) * p**j * (1 - p) ** (dice - j) * x**j * island_pgf(
            dice - j, min_reroll)
    return sp.expand(total)


def _sabords_space():
    from solver.engine.multiset import DiceSpace
    from solver.sabords.rules import load_rules

    rules = load_rules()
    return rules, DiceSpace.of(len(rules.faces), rules.dice)


def _engine_chance(space, keep: dict[int, int], event) -> Fraction:
    """The engine's exact chance of ``event`` (a test on full count rows) after keeping
    ``keep`` (face -> count) and rolling the other dice: its integer lattice walk."""
    full = space.counts[space.full]
    numerators = [1 if event(row) else 0 for row in full]
    counts = np.zeros(space.faces, dtype=int)
    for face, k in keep.items():
        counts[face] += k
    kept = space.index(counts)
    rolled = space.dice - int(counts.sum())
    return Fraction(space.expect_exact(numerators)[kept], space.faces**rolled)


def bust_rows() -> list[Row]:
    """A reroll's chance to bust, for every number of skulls showing and dice rolled."""
    rules, space = _sabords_space()
    skull, filler = rules.face(rules.skull), rules.face(rules.faces[0])
    one = sp.Rational(1, len(rules.faces))
    rows = []
    for skulls in range(rules.bust_skulls):
        form = bust_form(skulls, rules.bust_skulls)
        for rolled in range(rules.min_reroll, rules.dice - skulls + 1):
            kept_other = rules.dice - skulls - rolled
            engine = _engine_chance(space, {skull: skulls, filler: kept_other},
                                    lambda r: r[skull] >= rules.bust_skulls)
            rows.append(Row("reroll bust", f"{skulls} skull(s) showing, {rolled} dice rolled",
                            form_text(form), fraction(form.subs({n: rolled, p: one})), engine))
    return rows


def battle_rows() -> list[Row]:
    """A Sea Battle won by one roll: every battle card, each count of sabres and skulls kept,
    the other dice rolled (the first roll is the row with nothing kept)."""
    rules, space = _sabords_space()
    sabre, skull = rules.face(rules.sabre), rules.face(rules.skull)
    one = sp.Rational(1, len(rules.faces))
    rows = []
    for card in sorted((c for c in rules.cards.values() if c.battle_sabres),
                       key=lambda c: c.battle_sabres):
        need = card.battle_sabres
        for kept in range(need):
            for skulls in range(rules.bust_skulls):
                rolled = rules.dice - kept - skulls
                form = battle_form(need - kept, rules.bust_skulls - 1 - skulls)
                engine = _engine_chance(
                    space, {sabre: kept, skull: skulls},
                    lambda r, need=need: r[sabre] >= need and r[skull] < rules.bust_skulls)
                first = " (the first roll)" if kept == skulls == 0 else ""
                rows.append(Row("sea battle", f"{card.title}: {kept} sabre(s) and {skulls} "
                                f"skull(s) kept, {rolled} dice rolled{first}", form_text(form),
                                fraction(form.subs({n: rolled, p: one})), engine))
    return rows


def island_rows() -> list[Row]:
    """The Island of Skulls: P(each opponent loses L) for every first roll that goes there,
    on every card whose Island has no limit on rerolls and no sabre rule; cards with the same
    numbers share a row (each card's engine numbers are computed and compared)."""
    from solver.sabords.scoring import goes_to_island, island_count, island_distribution

    rules, _ = _sabords_space()
    if rules.island_reroll != "all":
        raise ValueError("the closed form covers the default Island (every die rerolled)")
    one = sp.Rational(1, len(rules.faces))
    found: dict[tuple, list[str]] = {}
    cards = [c for c in rules.cards.values() if c.island and not c.island_sabre_void
             and c.island_rerolls >= rules.dice]
    for card in cards:
        for dice_skulls in range(rules.dice + 1):
            if not goes_to_island(dice_skulls, card, rules):
                continue
            start = island_count(dice_skulls, card, rules)
            left = rules.dice - dice_skulls
            pgf = sp.expand(x**start * island_pgf(left, rules.min_reroll))
            engine = island_distribution(dice_skulls, card, rules)
            poly = sp.Poly(pgf.subs(p, one), x)
            step = rules.island_penalty * card.multiplier
            closed = {step * k[0]: fraction(c) for k, c in poly.terms()}
            for loss in sorted(set(closed) | set(engine)):
                key = (dice_skulls, loss, f"[x^{loss // step}] x^{start} G_{left}(x)",
                       closed.get(loss, Fraction(0)), engine.get(loss, Fraction(0)))
                found.setdefault(key, []).append(card.title)
    return [Row("island", f"{'; '.join(sorted(titles))}: {skulls} skull(s) on the first "
                f"roll, each opponent loses {loss}", form, closed, engine)
            for (skulls, loss, form, closed, engine), titles in sorted(
                found.items(), key=lambda kv: (sorted(kv[1])[0], kv[0][:2]))]


def island_pgf_lines(rows: list[Row]) -> list[str]:
    """The Island's generating functions G_m(x) of the skulls still to come from m dice, for
    each m the rows use."""
    from solver.sabords.rules import load_rules

    rules = load_rules()
    used = sorted({int(re.search(r"G_(\d+)", r.form).group(1)) for r in rows})
    out = ["G_m(x) is the probability generating function of the skulls still to come on the "
           "Island with m dice left (every die rolled; a roll without a skull, or fewer than "
           f"{rules.min_reroll} dice left, ends the turn); `[x^k] F` is the coefficient of "
           "x^k in F, and each skull costs every opponent the card's penalty.", ""]
    for m in used:
        out.append(f"- G_{m}(x) = `{collected(island_pgf(m, rules.min_reroll))}`")
    return out + [""]


def families() -> list[Family]:
    """The three families, in the report's order."""
    island = island_rows()
    return [Family("reroll bust", "Mille Sabords: a reroll's chance to bust", bust_rows()),
            Family("island", "Mille Sabords: the Island of Skulls' loss distribution (x counts "
                   "skulls)", island, island_pgf_lines(island)),
            Family("sea battle", "Mille Sabords: a Sea Battle won by one roll (enough sabres, "
                   "fewer than three skulls)", battle_rows())]
