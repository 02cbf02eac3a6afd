"""The JSON answers of ``treasure sabords hold`` and ``treasure sabords game``, built in one
place for the command line and the web API (:mod:`solver.web`): the same query gets the same
document, whoever asks.

The whole-game table comes from a function of the game's spec, because the two callers get
it differently: the command line solves it on the spot when it is not cached (minutes, once;
:func:`game_table` and :func:`whole_table` are its sources, which the review uses too); the
web server answers "building" at once and solves it in the background.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver.errors import InputError
from solver.sabords.game.two_player import GameSpec, GameTable

TableSource = Callable[..., GameTable]  # (spec, headline=False): headline needs its stats


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
                progress: Callable[[str], None] | None = None, scores: str | None = None,
                trigger: int | None = None, race: bool = False,
                whole: Callable | None = None) -> dict:
    """``treasure sabords hold --json``: every option for the dice showing, best first.

    Without the scoreboard, valued by ``objective`` (default ``points``) over this turn; with
    it (``me`` and ``opponent``), by P(win) + 1/2 P(tie) from ``table(spec)``, and then
    ``objective`` must be None (the objective is winning the game). ``progress`` is told what
    is being solved (a status line)."""
    from solver.sabords.objective import Objective, parse_objective
    from solver.sabords.turn.advice import advise

    listed = _scores(me, opponent, sudden_death, scores, trigger, race)
    if listed is not None and len(listed) == 2:
        if trigger is not None and trigger != 2:
            raise InputError(f"bad trigger {trigger}: with two players only 2")
        (me, opponent), sudden_death, listed = listed, race, None
    if listed is not None:
        if objective is not None:
            raise InputError("--objective is a turn objective; with --scores the objective "
                             "is winning the game")
        return _table_hold(whole, table, game_spec(target, variants), listed, trigger, race,
                           card, dice, sorceress_used=sorceress_used, rerolled=rerolled)
    if not reads_scoreboard(me, opponent, sudden_death, target):
        from solver.sabords.rules import load_rules

        rules = load_rules(tuple(variants))
        goal = parse_objective("points" if objective is None else objective)
        if progress is not None:
            progress(f"solving the {rules.card(card).name} turn, objective {goal.name}")
        return advise(card, goal, rules, dice, sorceress_used=sorceress_used,
                      rerolled=rerolled, use_cache=use_cache)
    from solver.sabords.game.advice import game_hold, phase_of

    if objective is not None:
        raise InputError("--objective is a turn objective; with --me and --opponent the "
                         "objective is winning the game")
    _both(me, opponent)
    spec = game_spec(target, variants)
    phase = phase_of(spec, me, opponent, sudden_death)
    # the turn's own checks (dice, flags, a bust) come before the game table, which may take
    # minutes to solve; game_hold reads the points advice they give
    points = advise(card, Objective("points"), spec.rules, dice,
                    sorceress_used=sorceress_used, rerolled=rerolled)
    return game_hold(table(spec), card, me, opponent, phase, dice,
                     sorceress_used=sorceress_used, rerolled=rerolled, points=points)


def game_answer(table: TableSource, *, me: int | None = None, opponent: int | None = None,
                sudden_death: bool = False, target: int | None = None,
                card: str | None = None, variants: Sequence[str] = (),
                players: int | None = None, scores: str | None = None,
                trigger: int | None = None, race: bool = False,
                whole: Callable | None = None) -> dict:
    """``treasure sabords game --json``: the headline without a position (for ``players``,
    default two); with ``me`` and ``opponent``, or ``scores`` (mine first, then the others in
    playing order; ``trigger``, ``race``: see :mod:`solver.sabords.game.table.positions`), my P(win)
    + shares of ties before the card (or with ``card`` drawn). ``whole`` gives the solved
    table of three players or more for a :class:`~solver.sabords.game.table.states.TableSpec`."""
    from solver.sabords.game.advice import phase_of, position

    spec = game_spec(target, variants)
    listed = _scores(me, opponent, sudden_death, scores, trigger, race)
    if listed is not None:
        if players is not None and players != len(listed):
            raise InputError(f"--players {players} but {len(listed)} scores")
        if len(listed) > 2:
            return _table_position(whole, table, spec, listed, trigger, race, card)
        me, opponent = listed
        sudden_death = sudden_death or race
        if trigger is not None and trigger != 2:
            raise InputError(f"bad trigger {trigger}: with two players only 2")
    if me is None and opponent is None and not sudden_death and card is None:
        n = 2 if players is None else players
        if n == 2:
            return table(spec, headline=True).headline()
        return _table_headline(whole, table, spec, n)
    _both(me, opponent)
    phase = phase_of(spec, me, opponent, sudden_death)
    if card is not None:
        spec.rules.card(card)
    answer = position(table(spec), me, opponent, phase, card)
    if listed is None:
        return answer
    return {**answer, "players": 2, "scores": [me, opponent], "exact": True,
            "wins": [answer["win"], 1.0 - answer["win"]]}


def _scores(me, opponent, sudden_death, scores, trigger, race) -> tuple[int, ...] | None:
    """The scores of a position given as ``--scores`` (``None`` when it is not)."""
    if scores is None:
        if trigger is not None or race:
            raise InputError("--trigger and --race go with --scores")
        return None
    # only now: the whole table's modules bring numba, slow to start for every hold
    from solver.sabords.game.table.positions import parse_scores
    from solver.sabords.rules import load_rules

    if me is not None or opponent is not None or sudden_death:
        raise InputError("give the position either as --scores or as --me and --opponent")
    listed = parse_scores(scores)
    rules = load_rules()
    if not rules.min_players <= len(listed) <= rules.max_players:
        raise InputError(f"{len(listed)} scores: a game has {rules.min_players} to "
                         f"{rules.max_players} players")
    return listed


def _table_spec(spec: GameSpec, players: int):
    from solver.sabords.game.table.states import TableSpec

    return TableSpec(spec, players)


def rule_reason(layout) -> dict | None:
    """The label of an answer that the measured rule gives (why, in ``beyond_exact``: four or
    five players, or a three-player table past what this version solves), or None when the
    table is solved exactly."""
    from solver.sabords.game.table.states import EXACT_PLAYERS, beyond_exact

    reason = beyond_exact(layout)
    if reason is None:
        return None
    return {} if layout.players > EXACT_PLAYERS else {"beyond_exact": reason}


def _table_headline(whole, table: TableSource, spec: GameSpec, players: int) -> dict:
    from solver.sabords.game.table.positions import headline, load_play, rule_headline
    from solver.sabords.game.table.states import Layout

    table_spec = _table_spec(spec, players)
    rule = rule_reason(Layout(table_spec))
    if rule is not None:
        return {**rule_headline(load_play(table(spec)), table_spec.players), **rule}
    return headline(whole(table_spec))


def _table_position(whole, table: TableSource, spec: GameSpec, scores: tuple[int, ...],
                    trigger, race, card) -> dict:
    from solver.sabords.game.table.positions import load_play, phase_of, position, rule_position
    from solver.sabords.game.table.states import Layout

    table_spec = _table_spec(spec, len(scores))
    layout = Layout(table_spec)
    phase, units = phase_of(layout, scores, trigger, race)
    if card is not None:
        spec.rules.card(card)
    rule = rule_reason(layout)
    if rule is not None:
        if card is not None:
            raise InputError("where the rule answers (four or five players, or a three-player "
                             "table past the exact ones) a position is answered before the "
                             "card only (the rule's simulated games draw their cards)")
        return {**rule_position(load_play(table(spec)), layout, phase, units), **rule}
    return position(whole(table_spec), phase, units, card)


def _table_hold(whole, table: TableSource, spec: GameSpec, scores: tuple[int, ...], trigger,
                race, card, dice, **flags) -> dict:
    """``hold`` at a table of three or more: every option's P(win) from the solved table
    (three players), or as the rule plays it (four and five, or three past the exact tables:
    the two-player table at my score against the leader's, labelled)."""
    from solver.sabords.game.advice import game_hold, hold_by_payoffs
    from solver.sabords.game.table.positions import (
        mover_payoffs,
        phase_of,
        rule_hold_position,
        settling,
    )
    from solver.sabords.game.table.rule import RULE, RULE_TITLE
    from solver.sabords.game.table.states import Layout
    from solver.sabords.objective import Objective
    from solver.sabords.turn.advice import advise

    table_spec = _table_spec(spec, len(scores))
    layout = Layout(table_spec)
    phase, units = phase_of(layout, scores, trigger, race)
    advise(card, Objective("points"), spec.rules, dice, **flags)  # the turn's own checks first
    rule = rule_reason(layout)
    if rule is not None:
        two_phase, me, leader = rule_hold_position(layout, phase, units)
        advice = game_hold(table(spec), card, me, leader, two_phase, dice, **flags)
        return {**advice, "players": len(scores), "scores": list(scores), "phase": phase,
                "exact": False, "rule": RULE, "rule_title": RULE_TITLE,
                "rule_position": {"phase": two_phase, "me": me, "leader": leader}, **rule}
    solution = whole(table_spec)
    return hold_by_payoffs(
        spec.rules, card, dice,
        lambda own, loss, win: mover_payoffs(solution, phase, units, own, loss, win),
        {"players": len(scores), "scores": list(scores), "phase": phase, "exact": True,
         **settling(solution)},
        **flags)


def game_table(use_cache: bool = True):
    """The command line's source of game tables: from the cache; else, for a position or a
    hold, the table shipped in ``proofs/`` when it is the game asked about (what the web
    server reads); else solved on the spot (minutes, once; progress on stderr)."""
    from solver.sabords.game.solved import cache_path, load_game, shipped_table

    def source(spec, headline: bool = False):
        path = cache_path(spec)
        if use_cache and not headline and (path is None or not path.exists()):
            shipped = shipped_table(spec)
            if shipped is not None:
                return shipped
        return load_game(spec, use_cache=use_cache, progress=True)

    return source


def whole_table(use_cache: bool = True):
    """The command line's source of whole-table solutions (three players or more), whose
    modules are imported when a position asks for one (they bring numba, whose start-up a
    two-player or turn ``hold`` does not need)."""

    def source(spec):
        from solver.sabords.game.table.positions import load_table

        return load_table(spec, use_cache=use_cache, progress=True)
    return source


def answered_by_rule(players: int, target: int | None, variants: Sequence[str]) -> bool:
    """Whether a position of ``players`` scores is answered by the measured rule (which reads
    the two-player table's play) rather than an exact table."""
    from solver.sabords.game.table.states import Layout

    return players > 2 and rule_reason(Layout(_table_spec(game_spec(target, variants),
                                                        players))) is not None
