"""Closed forms of the rule probabilities the reports quote, derived with sympy, beside the
engine's own numbers: the shared pieces, the verdict and the report.

The solvers get every chance from the engine's lattice walk over dice multisets
(:meth:`solver.engine.multiset.DiceSpace.expect_exact`) or from a game's own recursion. Each
game with dice writes the same chances as formulas in the chance ``p`` of one face
(``p = 1/6``) and the number ``n`` of dice rolled, simplified by sympy and evaluated exactly,
and gives them through its registry entry (:attr:`solver.games.Game.closed_forms`) as
:class:`Family` tables of :class:`Row`; the verifier's report and tests require each closed
form and the engine's value to be equal as fractions. Two independent derivations of one
number: a wrong rule in either shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from solver.games import GAMES
from solver.games import game as find_game
from solver.text import markdown_lines

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


@dataclass(frozen=True)
class Family:
    """One table of the report: a name, its title, its rows, and lines shown before them
    (what the forms' symbols mean)."""

    name: str
    title: str
    rows: list[Row]
    notes: list[str] = field(default_factory=list)


def fraction(value: sp.Expr) -> Fraction:
    """An expression without symbols, as an exact fraction (never a float)."""
    value = sp.expand(value)
    if not value.is_Rational:
        raise ValueError(f"not a rational number: {value}")
    return Fraction(int(value.p), int(value.q))


def form_text(expr: sp.Expr, factor: bool = False) -> str:
    """A formula as plain text; ``factor`` for polynomials in ``p`` alone."""
    return sp.sstr(sp.factor(expr) if factor else expr)


def collected(pgf: sp.Expr) -> str:
    """A generating function as a polynomial in ``x``, each coefficient factored in ``p``."""
    poly = sp.Poly(sp.expand(pgf), x)
    return " + ".join(f"({sp.sstr(sp.factor(c))})*x**{k[0]}" for k, c in poly.terms()[::-1])


def binomial_tail(trials: sp.Expr, below: int, q: sp.Expr) -> sp.Expr:
    """P(fewer than ``below`` successes in ``trials`` trials of chance ``q``): a finite sum
    whose length does not depend on ``trials``, so it stays closed for symbolic ``trials``."""
    return sum((sp.binomial(trials, k) * q**k * (1 - q) ** (trials - k)
                for k in range(max(below, 0))), sp.Integer(0))


def game_families(game: str) -> list[Family]:
    """The closed forms of one game's chances, by family (none for a game without them)."""
    families = find_game(game).hook("closed_forms")
    return families() if families else []


def all_families() -> list[Family]:
    """Every game's families, in the registry's order."""
    return [family for g in GAMES for family in game_families(g.name)]


def all_rows() -> list[Row]:
    """Every closed form beside the engine's number."""
    return [row for family in all_families() for row in family.rows]


def check(game: str) -> tuple[int, list[str]]:
    """``treasure check``'s verdict: how many of the game's chances were derived twice, and
    one error for each whose closed form and engine number differ."""
    rows = [row for family in game_families(game) for row in family.rows]
    return len(rows), [f"{game}: closed form {r.family} ({r.case}): sympy gives {r.closed}, "
                       f"the engine {r.engine}" for r in rows if not r.agrees]


def markdown(families: list[Family] | None = None) -> str:
    """``reports/rules/closed-forms.md``."""
    families = all_families() if families is None else families
    rows = [row for family in families for row in family.rows]
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
    for family in families:
        lines += [f"## {family.title}", "", *family.notes]
        lines += markdown_lines(["case", "closed form", "closed form's value", "decimal",
                                 "engine", "equal"],
                                [(r.case, f"`{r.form}`", r.closed, f"{float(r.closed):.6f}",
                                  r.engine, "yes" if r.agrees else "**no**")
                                 for r in family.rows], "llrrrl")
        lines.append("")
    return "\n".join(lines)
