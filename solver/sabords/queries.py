"""The JSON answers of ``treasure sabords hold`` and ``treasure sabords game``, built in one
place for the command line and the web API (:mod:`solver.web`): the same query gets the same
document, whoever asks.

The whole-game table comes from a function of the game's spec, because the two callers get
it differently: the command line solves it on the spot when it is not cached (minutes, once);
the web server answers "building" at once and solves it in the background.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver.sabords.game import GameSpec, GameTable
from solver.util import InputError

TableSource = Callable[[GameSpec], GameTable]


def game_spec(target: int | None, variants: Sequence[str]) -> GameSpec:
    """The game a scoreboard query is about (the rules' target when ``target`` is None)."""
    from solver.sabords.rules import load_rules

    return GameSpec(load_rules(tuple(variants)), target)


def reads_scoreboard(me: int | None, opponent: int | None, sudden_death: bool,
                     target: int | None) -> bool:
    """Whether a ``hold`` query is about the game (P(win)) rather than one turn."""
    return me is not None or opponent is not None or sudden_death or target is not None


def _both(me: int | None, opponent: int | None) -> None:
    if me is None or opponent is None:
        raise InputError("a position needs both --me and --opponent (scores in points)")


def hold_answer(card: str, dice: str, table: TableSource, *, objective: str | None = None,
                sorceress_used: bool = False, rerolled: bool = False,
                me: int | None = None, opponent: int | None = None,
                sudden_death: bool = False, target: int | None = None,
                variants: Sequence[str] = (), use_cache: bool = True,
                progress: Callable[[str], None] | None = None) -> dict:
    """``treasure sabords hold --json``: every option for the dice showing, best first.

    Without the scoreboard, valued by ``objective`` (default ``points``) over this turn; with
    it (``me`` and ``opponent``), by P(win) + 1/2 P(tie) from ``table(spec)``, and then
    ``objective`` must be None (the objective is winning the game). ``progress`` is told what
    is being solved (a status line)."""
    from solver.sabords.advice import advise
    from solver.sabords.objective import Objective, parse_objective

    if not reads_scoreboard(me, opponent, sudden_death, target):
        from solver.sabords.rules import load_rules

        rules = load_rules(tuple(variants))
        goal = parse_objective("points" if objective is None else objective)
        if progress is not None:
            progress(f"solving the {rules.card(card).name} turn, objective {goal.name}")
        return advise(card, goal, rules, dice, sorceress_used=sorceress_used,
                      rerolled=rerolled, use_cache=use_cache)
    from solver.sabords.game_advice import game_hold, phase_of

    if objective is not None:
        raise InputError("--objective is a turn objective; with --me and --opponent the "
                         "objective is winning the game")
    _both(me, opponent)
    spec = game_spec(target, variants)
    phase = phase_of(spec, me, opponent, sudden_death)
    # the turn's own checks (dice, flags, a bust) come before the game table, which may take
    # minutes to solve; game_hold makes the same call, then answered from memory
    advise(card, Objective("points"), spec.rules, dice, sorceress_used=sorceress_used,
           rerolled=rerolled)
    return game_hold(table(spec), card, me, opponent, phase, dice,
                     sorceress_used=sorceress_used, rerolled=rerolled)


def game_answer(table: TableSource, *, me: int | None = None, opponent: int | None = None,
                sudden_death: bool = False, target: int | None = None,
                card: str | None = None, variants: Sequence[str] = ()) -> dict:
    """``treasure sabords game --json``: the headline without a position; with ``me`` and
    ``opponent``, my P(win) + 1/2 P(tie) before the card (or with ``card`` drawn)."""
    from solver.sabords.game_advice import phase_of, position

    spec = game_spec(target, variants)
    if me is None and opponent is None and not sudden_death and card is None:
        return table(spec).headline()
    _both(me, opponent)
    phase = phase_of(spec, me, opponent, sudden_death)
    if card is not None:
        spec.rules.card(card)
    return position(table(spec), me, opponent, phase, card)
