"""Closed forms of Gold Armada's rule probabilities, derived with sympy, beside the engine's
exact numbers (the verifier checks the two equal; :mod:`solver.rules.closed_forms`): each
requirement's chance in one roll of the five dice."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from solver.rules.closed_forms import Family, Row, binomial_tail, form_text, fraction, p


def at_least_form(dice: int, need: int) -> sp.Expr:
    """P(at least ``need`` of one given symbol among ``dice`` dice)."""
    return sp.expand(1 - binomial_tail(sp.Integer(dice), need, p))


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
                            form_text(form, factor=True), fraction(form.subs(p, one)), engine))
    return rows


def families() -> list[Family]:
    """The one family: the shipped board's requirements."""
    return [Family("armada", "Gold Armada: a requirement's chance in one roll of the five dice",
                   armada_rows())]
