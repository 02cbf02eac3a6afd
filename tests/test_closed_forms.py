"""The rule probabilities' closed forms (sympy) against the engine, by hand and by brute
force over every ordered roll of a few dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
import sympy as sp

from solver.armada import closed_forms as acf
from solver.rules import closed_forms as cf
from solver.sabords import closed_forms as scf
from tests.markdown_rows import table_rows

SKULL, SABRE = 5, 4  # Mille Sabords' faces: coin, diamond, monkey, parrot, sabre, skull
SIXTH = sp.Rational(1, 6)


def _value(form: sp.Expr, rolled: int) -> Fraction:
    return cf.fraction(form.subs({cf.n: rolled, cf.p: SIXTH}))


@pytest.fixture(scope="module")
def rows() -> list[cf.Row]:
    return cf.all_rows()


def test_every_closed_form_equals_the_engine_exactly(rows):
    assert len(rows) == 18 + 75 + 27 + 30  # bust, island (cards grouped), battle, armada
    assert {r.family for r in rows} == {"reroll bust", "island", "sea battle", "armada"}
    assert all(isinstance(r.closed, Fraction) and isinstance(r.engine, Fraction) for r in rows)
    assert [r.case for r in rows if not r.agrees] == []
    assert cf.check("sabords")[1] == [] and cf.check("armada")[1] == []
    assert cf.check("dracheninsel") == (0, [])


def test_hand_computed_values(rows):
    by_case = {r.case: r for r in rows}
    # two skulls showing, two dice rolled: bust unless both miss, 1 - (5/6)^2
    assert by_case["2 skull(s) showing, 2 dice rolled"].closed == Fraction(11, 36)
    assert by_case["1 skull(s) showing, 2 dice rolled"].closed == Fraction(1, 36)
    assert by_case["0 skull(s) showing, 2 dice rolled"].closed == 0
    # a full house in one roll of five dice: 6 * 5 ordered symbol pairs, C(5, 3) placements
    assert by_case["full-house, doubloon 1 (three and two of barrel, bottle, parrot, anchor, "
                   "cannon, map)"].closed == Fraction(300, 6**5)
    assert by_case["five-of-a-kind, doubloon 1 (5 x barrel, bottle, parrot, anchor, cannon, "
                   "map)"].closed == Fraction(6, 6**5)
    # six skulls on the first roll, two dice left: 0, 1 or 2 more skulls (then the turn ends)
    island = {r.case.rsplit("loses ", 1)[1]: r.closed for r in rows
              if r.family == "island" and r.case.startswith("Diamond")
              and "6 skull(s)" in r.case}
    assert island == {"600": Fraction(25, 36), "700": Fraction(10, 36), "800": Fraction(1, 36)}


def test_symbolic_forms_simplify_to_the_textbook_ones():
    assert sp.simplify(scf.bust_form(2) - (1 - (1 - cf.p) ** cf.n)) == 0
    assert sp.simplify(scf.battle_form(1, 0) - ((1 - cf.p) ** cf.n - (1 - 2 * cf.p) ** cf.n)) == 0
    assert sp.expand(acf.at_least_form(5, 5) - cf.p**5) == 0
    # a generating function sums to one, and G_2 is the binomial of two dice
    for m in range(6):
        assert sp.simplify(scf.island_pgf(m, 2).subs(cf.x, 1)) == 1
    assert sp.expand(scf.island_pgf(2, 2) - (1 - cf.p + cf.p * cf.x) ** 2) == 0


@pytest.mark.parametrize("rolled", [2, 3, 4, 5])
def test_bust_and_battle_forms_by_brute_force(rolled):
    """Every ordered roll of ``rolled`` dice, counted."""
    rolls = list(product(range(6), repeat=rolled))
    for skulls in range(3):
        bust = Fraction(sum(r.count(SKULL) >= 3 - skulls for r in rolls), len(rolls))
        assert _value(scf.bust_form(skulls), rolled) == bust
        for short in range(1, 4):
            won = Fraction(sum(r.count(SABRE) >= short and r.count(SKULL) <= 2 - skulls
                               for r in rolls), len(rolls))
            assert _value(scf.battle_form(short, 2 - skulls), rolled) == won


def test_armada_forms_by_brute_force():
    rolls = list(product(range(6), repeat=5))
    for need in (2, 3, 4, 5):
        one = Fraction(sum(r.count(0) >= need for r in rolls), len(rolls))
        assert cf.fraction(acf.armada_form("count", need, 1, 5).subs(cf.p, SIXTH)) == one
    for need, allowed in ((3, 3), (4, 2), (5, 6)):
        hit = Fraction(sum(any(r.count(s) >= need for s in range(allowed)) for r in rolls),
                       len(rolls))
        assert cf.fraction(acf.armada_form("of-a-kind", need, allowed, 5).subs(
            cf.p, SIXTH)) == hit
    full = Fraction(sum(sorted(r.count(s) for s in range(3) if r.count(s)) == [2, 3]
                        for r in rolls), len(rolls))
    assert cf.fraction(acf.armada_form("full-house", 0, 3, 5).subs(cf.p, SIXTH)) == full
    with pytest.raises(ValueError):
        acf.armada_form("of-a-kind", 2, 3, 5)  # two pairs can meet it at once: not disjoint


def test_a_wrong_engine_number_is_reported(monkeypatch):
    wrong = cf.Row("armada", "a made-up case", "p", Fraction(1, 6), Fraction(1, 5))
    family = cf.Family("armada", "Gold Armada: made up", [wrong])
    monkeypatch.setattr(acf, "families", lambda: [family])  # the registry's hook
    count, errors = cf.check("armada")
    assert count == 1 and errors == ["armada: closed form armada (a made-up case): sympy gives "
                                     "1/6, the engine 1/5"]
    assert ("a made-up case", "`p`", "1/6", "0.166667", "1/5", "**no**") in table_rows(
        cf.markdown([family]))
