"""``GET /api/options``: everything the pages need to draw their controls, read from the
rules and board files (so a changed rules file changes the page, with no list to update).
"""

from __future__ import annotations

from functools import cache


def card_label(title: str) -> str:
    """A card's short name for a button, from its title in the rules file: ``Captain
    (Pirate): points doubled`` gives ``Captain``."""
    return title.split(" (")[0].split(":")[0].strip()


def _readings(rules_file, what: str) -> list[dict]:
    from solver.io import read_toml
    from solver.variants import variant_readings

    readings = variant_readings(read_toml(rules_file, what))
    return [{"name": name, "summary": spec["description"]} for name, spec in readings.items()]


def sabords_options() -> dict:
    """Cards (each with its count in the standard deck), faces, readings, targets, dice."""
    from solver.sabords.game.report import OTHER_TARGETS, TARGET
    from solver.sabords.rules import RULES_FILE, load_rules

    rules = load_rules(())
    deck = dict(rules.deck)
    return {
        "cards": [{"name": name, "label": card_label(card.title), "title": card.title,
                   "deck_count": deck.get(name, 0)} for name, card in rules.cards.items()],
        "faces": [{"letter": letter, "name": name}
                  for letter, name in zip(rules.letters, rules.faces, strict=True)],
        "variants": _readings(RULES_FILE, "Mille Sabords rules file"),
        "targets": sorted({rules.target, TARGET, *OTHER_TARGETS}),
        "default_target": rules.target,
        "dice": rules.dice,
    }


def armada_options() -> dict:
    """Faces, piers (with each doubloon's value and need), readings, rolls, the board's
    warning when it is a reconstruction."""
    from solver.armada.advice import OBJECTIVE_HELP
    from solver.armada.game import Game
    from solver.armada.rules import RULES_FILE

    game = Game.load(None, ())
    board = game.board
    piers = [{"index": i, "name": pier.name, "kind": pier.kind, "values": list(pier.values),
              "requirements": [board.requirement(i, level) for level in range(pier.doubloons)],
              "needs": [{"count": pier.need[level], "symbols": [] if len(allowed) == len(
                  board.symbols) else [board.symbols[k] for k in allowed]}
                  for level, allowed in enumerate(pier.allowed)]}
             for i, pier in enumerate(board.piers)]
    return {
        "faces": [{"letter": letter, "name": name}
                  for letter, name in zip(board.letters, board.symbols, strict=True)],
        "piers": piers,
        "variants": _readings(RULES_FILE, "Gold Armada rules file"),
        "objectives": [{"name": name, "meaning": meaning}
                       for name, meaning in OBJECTIVE_HELP.items()],
        "dice": game.rules.dice,
        "rolls": game.rules.rolls,
        "skulls": game.rules.skulls,
        "skull_value": game.rules.skull_value,
        "board": board.label,
        "board_warning": board.note if board.reconstruction else "",
    }


@cache
def options() -> dict:
    """The whole document (computed once per process)."""
    return {"sabords": sabords_options(), "armada": armada_options()}
