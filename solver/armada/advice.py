"""Answers for the command line: what to keep, what a state is worth (plain dicts for JSON)."""

from __future__ import annotations

import numpy as np

from solver.armada.game import Game
from solver.armada.tables import load_table
from solver.armada.takes import legal_takes
from solver.armada.turn import TurnAnalysis, analyse
from solver.errors import InputError

OBJECTIVE_HELP = {
    "turn": "this turn's token: doubloon value, or -1 for a skull",
    "solo": "expected final score from here on (doubloons minus skulls), one player",
    "duel": "expected final margin over the opponent from here on, two players alternating",
}


def state_table(game: Game, objective: str, use_cache: bool = True) -> np.ndarray | None:
    """The whole-game table an objective needs (``None`` for ``turn``)."""
    return None if objective == "turn" else load_table(game, objective, use_cache=use_cache)


def _live_state(game: Game, text: str) -> tuple[tuple[int, ...], int]:
    levels, skulls = game.parse_state(text)
    if game.over(levels, skulls):
        raise InputError(f"the game is over in board state {text!r}: nothing to play")
    return levels, skulls


def target_names(game: Game) -> list[str]:
    return [p.name for p in game.board.piers] + ["skull"]


def _reach(game: Game, column: np.ndarray) -> dict[str, float]:
    """Chance of each way the turn ends, dropping impossible ones."""
    return {name: round(float(p), 6) for name, p in zip(target_names(game), column, strict=True)
            if p > 5e-13}


def _targets(a: TurnAnalysis) -> list[dict]:
    game = a.game
    rows = []
    for i, option in enumerate(a.pier_options):
        if option is None:
            continue
        rows.append({
            "pier": game.board.piers[i].name,
            "requirement": game.board.requirement(i, a.levels[i]),
            "doubloon": game.board.piers[i].values[a.levels[i]],
            "option_value": round(float(option), 6),
        })
    rows.append({"pier": "skull", "requirement": "none qualifies" if game.rules.must_take
                 else "any time", "doubloon": game.rules.skull_value,
                 "option_value": round(float(a.skull_option), 6)})
    return rows


def _header(game: Game, state: str, objective: str) -> dict:
    return {"board": game.board.label, "reconstruction": game.board.reconstruction,
            "state": state, "objective": objective, "meaning": OBJECTIVE_HELP[objective],
            "variants": list(game.rules.variants)}


def hold_position(game: Game, state: str, rolls_left: int,
                  dice: str) -> tuple[tuple[int, ...], int, np.ndarray]:
    """A hold query's board state, skulls and dice, checked (one-line errors) before any
    table is loaded."""
    levels, skulls = _live_state(game, state)
    if not 0 <= rolls_left < game.rules.rolls:
        raise InputError(f"rolls left must be 0 to {game.rules.rolls - 1}, got {rolls_left}")
    return levels, skulls, game.parse_dice(dice)


def hold(game: Game, state: str, rolls_left: int, dice: str, objective: str,
         use_cache: bool = True) -> dict:
    """The best keep for ``dice`` with ``rolls_left`` rolls to come, and every alternative."""
    levels, skulls, counts = hold_position(game, state, rolls_left, dice)
    a = analyse(game, levels, skulls, objective, state_table(game, objective, use_cache))
    sp = game.space
    row = int(np.flatnonzero(sp.index(counts) == sp.full)[0])
    shown = game.dice_text(counts)
    result = _header(game, state, objective)
    result.update(dice=shown, rolls_left=rolls_left, targets=_targets(a))
    if rolls_left == 0:
        result.update(_take(a, row, shown))
        return result
    keep_values = a.keep[rolls_left]
    reach = a.reach[rolls_left]
    keeps = [int(k) for k in game.horizon.keeps_of[row] if k >= 0]
    options = []
    for k in keeps:
        kept = sp.counts[k].astype(np.int64)
        options.append({"keep": game.dice_text(kept), "reroll": game.dice_text(counts - kept),
                        "value": round(float(keep_values[k]), 6),
                        "reach": _reach(game, reach[:, k])})
    order = sorted(range(len(options)), key=lambda j: (-float(keep_values[keeps[j]]), j))
    options = [options[j] for j in order]
    result.update(best=options[0], value=options[0]["value"], options=options)
    return result


def _take(a: TurnAnalysis, row: int, shown: str) -> dict:
    """No rolls left: which token to take with the final dice ``row``."""
    names = target_names(a.game)
    allowed = legal_takes(a.game, a.levels)[:, row]
    options = [{"take": names[i], "value": round(float(opt), 6)}
               for i, opt in enumerate(a.pier_options) if allowed[i]]
    if allowed[-1]:
        options.append({"take": "skull", "value": round(float(a.skull_option), 6)})
    options.sort(key=lambda o: -o["value"])
    take = names[int(a.target[row])]
    best = {"keep": shown, "reroll": "", "value": round(float(a.final[row]), 6), "take": take,
            "reach": {take: 1.0}}
    return {"best": best, "value": best["value"], "options": options}


def value(game: Game, state: str, objective: str, use_cache: bool = True) -> dict:
    """The expected value of a state under ``objective`` and the first turn's chances."""
    levels, skulls = _live_state(game, state)
    table = state_table(game, objective, use_cache)
    a = analyse(game, levels, skulls, objective, table)
    expected = a.value if table is None else float(table[skulls, game.code(levels)])
    result = _header(game, state, objective)
    result.update(expected=round(expected, 9), turn_reach=_reach(game, a.start_reach()),
                  targets=_targets(a))
    return result
