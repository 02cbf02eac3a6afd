"""Closed forms of the rule probabilities the reports quote, derived with sympy, and the
engine's own numbers beside them.

The solvers get every chance from the engine's lattice walk over dice multisets
(:meth:`solver.engine.multiset.DiceSpace.expect_exact`) or, on the Island of Skulls, from a
recursion over the dice left (:func:`solver.sabords.scoring.island_distribution`). Here the same
chances are written as formulas in the chance ``p`` of one face (``p = 1/6``) and the number
``n`` of dice rolled, simplified by sympy, and evaluated exactly; :func:`all_rows` puts each
beside the engine's exact value, and the verifier's report and tests require the two to be
equal as fractions. Two independent derivations of one number: a wrong rule in either shows.

The four families: a Mille Sabords reroll's chance to bust (by dice rolled and skulls showing),
the Island of Skulls' loss distribution (its probability generating function), a Sea Battle's
chance to be won by one roll (the first roll, or a reroll given the sabres and skulls kept), and
a Gold Armada requirement's chance in one roll of the five dice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import sympy as sp

p, n, x = sp.symbols("p n x", positive=True)


@dataclass(frozen=True)
class Row:
    """One chance: what it is, its closed form (text), its exact value from the closed form,
    and the engine's exact value of the same chance."""

    family: str
    case: str
    form: str
    closed: Fraction
    engine: Fraction

    @property
    def agrees(self) -> bool:
        return self.closed == self.engine


def _fraction(value: sp.Expr) -> Fraction:
    """An expression without symbols, as an exact fraction (never a float)."""
    value = sp.expand(value)
    if not value.is_Rational:
        raise ValueError(f"not a rational number: {value}")
    return Fraction(int(value.p), int(value.q))


def _text(expr: sp.Expr, factor: bool = False) -> str:
    """A formula as plain text; ``factor`` for polynomials in ``p`` alone."""
    return sp.sstr(sp.factor(expr) if factor else expr)


def _collected(pgf: sp.Expr) -> str:
    """A generating function as a polynomial in ``x``, each coefficient factored in ``p``."""
    poly = sp.Poly(sp.expand(pgf), x)
    return " + ".join(f"({sp.sstr(sp.factor(c))})*x**{k[0]}" for k, c in poly.terms()[::-1])


def _binomial_tail(trials: sp.Expr, below: int, q: sp.Expr) -> sp.Expr:
    """P(fewer than ``below`` successes in ``trials`` trials of chance ``q``): a finite sum
    whose length does not depend on ``trials``, so it stays closed for symbolic ``trials``."""
    return sum((sp.binomial(trials, k) * q**k * (1 - q) ** (trials - k)
                for k in range(max(below, 0))), sp.Integer(0))


# ---- Mille Sabords ------------------------------------------------------------------------


def bust_form(skulls: int, bust: int = 3) -> sp.Expr:
    """P(bust) when ``n`` dice are rolled with ``skulls`` skulls showing: at least
    ``bust - skulls`` new skulls, i.e. one minus a binomial tail, in ``n`` and ``p``."""
    return 1 - sp.expand_func(_binomial_tail(n, bust - skulls, p))


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
                            _text(form), _fraction(form.subs({n: rolled, p: one})), engine))
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
                                f"skull(s) kept, {rolled} dice rolled{first}", _text(form),
                                _fraction(form.subs({n: rolled, p: one})), engine))
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
            closed = {step * k[0]: _fraction(c) for k, c in poly.terms()}
            for loss in sorted(set(closed) | set(engine)):
                key = (dice_skulls, loss, f"[x^{loss // step}] x^{start} G_{left}(x)",
                       closed.get(loss, Fraction(0)), engine.get(loss, Fraction(0)))
                found.setdefault(key, []).append(card.title)
    return [Row("island", f"{'; '.join(sorted(titles))}: {skulls} skull(s) on the first "
                f"roll, each opponent loses {loss}", form, closed, engine)
            for (skulls, loss, form, closed, engine), titles in sorted(
                found.items(), key=lambda kv: (sorted(kv[1])[0], kv[0][:2]))]


# ---- Gold Armada ----------------------------------------------------------------------------


def at_least_form(dice: int, need: int) -> sp.Expr:
    """P(at least ``need`` of one given symbol among ``dice`` dice)."""
    return sp.expand(1 - _binomial_tail(sp.Integer(dice), need, p))


def armada_form(kind: str, need: int, allowed: int, dice: int) -> sp.Expr:
    """One roll's chance of a requirement: ``need`` of one symbol (a basic pier); ``need`` of
    one of ``allowed`` symbols (disjoint events when 2 * need > dice); a full house of three
    and two, each of a different allowed symbol: allowed * (allowed - 1) ordered pairs."""
    if kind == "count":
        return at_least_form(dice, need)
    if kind == "of-a-kind":
        if 2 * need <= dice and allowed > 1:
            raise ValueError("two symbols could both reach the count: no disjoint sum")
        return allowed * at_least_form(dice, need)
    if dice != 5:
        raise ValueError("the full-house form is for five dice")
    return sp.expand(allowed * (allowed - 1) * sp.binomial(5, 3) * p**5)


def armada_rows() -> list[Row]:
    """Each requirement of the shipped board: its chance in one roll of the dice."""
    from solver.armada.game import default_game

    game = default_game()
    rules = game.rules
    if rules.exact_kind or rules.five_kind_full_house or rules.full_house_pair_any:
        raise ValueError("the closed forms are for the default reading")
    space = game.space
    empty = space.index(np.zeros(space.faces, dtype=int))
    one = sp.Rational(1, space.faces)
    rows = []
    for i, pier in enumerate(game.board.piers):
        for level in range(pier.doubloons):
            numerators = game.qualify[i, level].astype(int).tolist()
            engine = Fraction(space.expect_exact(numerators)[empty], space.faces**space.dice)
            form = armada_form(pier.kind, pier.need[level] if pier.need else 0,
                               len(pier.allowed[level]), rules.dice)
            names = ", ".join(game.board.symbols[s] for s in pier.allowed[level])
            what = (f"{pier.need[level]} x {names}" if pier.kind != "full-house"
                    else f"three and two of {names}")
            rows.append(Row("armada", f"{pier.name}, doubloon {level + 1} ({what})",
                            _text(form, factor=True), _fraction(form.subs(p, one)), engine))
    return rows


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
        out.append(f"- G_{m}(x) = `{_collected(island_pgf(m, rules.min_reroll))}`")
    return out + [""]


ROWS_OF_GAME = {"sabords": (bust_rows, island_rows, battle_rows), "armada": (armada_rows,)}


def game_rows(game: str) -> list[Row]:
    """The closed forms of one game's chances (none for a game without dice)."""
    return [row for make in ROWS_OF_GAME.get(game, ()) for row in make()]


def all_rows() -> list[Row]:
    """Every closed form beside the engine's number."""
    return [row for game in ROWS_OF_GAME for row in game_rows(game)]


def check(game: str) -> tuple[int, list[str]]:
    """``treasure check``'s verdict: how many of the game's chances were derived twice, and
    one error for each whose closed form and engine number differ."""
    rows = game_rows(game)
    return len(rows), [f"{game}: closed form {r.family} ({r.case}): sympy gives {r.closed}, "
                       f"the engine {r.engine}" for r in rows if not r.agrees]


def markdown(rows: list[Row] | None = None) -> str:
    """``reports/rules/closed-forms.md``."""
    rows = all_rows() if rows is None else rows
    bad = sum(not r.agrees for r in rows)
    lines = [
        "# Closed forms of the rule probabilities", "",
        "Each chance the rules give, derived twice: as a formula in the chance `p` of one "
        "face (`p = 1/6`) and the number `n` of dice rolled, simplified by sympy "
        "(`solver/rules/closed_forms.py`), and by the solvers' own code (the engine's exact "
        "lattice walk over dice multisets; on the Island of Skulls, "
        "`solver.sabords.scoring.island_distribution`). Both are exact fractions; the last "
        "column says whether they are equal. "
        f"{len(rows)} chances, {len(rows) - bad} equal, {bad} different.", ""]
    titles = {
        "reroll bust": "Mille Sabords: a reroll's chance to bust",
        "island": "Mille Sabords: the Island of Skulls' loss distribution (x counts skulls)",
        "sea battle": "Mille Sabords: a Sea Battle won by one roll (enough sabres, fewer than "
                      "three skulls)",
        "armada": "Gold Armada: a requirement's chance in one roll of the five dice",
    }
    for family, title in titles.items():
        chosen = [r for r in rows if r.family == family]
        lines += [f"## {title}", ""]
        if family == "island":
            lines += island_pgf_lines(chosen)
        lines += ["| case | closed form | closed form's value | "
                  "decimal | engine | equal |", "|---|---|---:|---:|---:|---|"]
        for r in chosen:
            lines.append(f"| {r.case} | `{r.form}` | {r.closed} | {float(r.closed):.6f} | "
                         f"{r.engine} | {'yes' if r.agrees else '**no**'} |")
        lines.append("")
    return "\n".join(lines)
