"""What the rules verifier needs of Mille Sabords, given through its registry entry: the
words of its reports (cards by their printed names and their share of the deck, the units of
the turn objectives) and the whole game's measured readings of game-level rules.
"""

from __future__ import annotations

import json
from pathlib import Path

from solver.paths import REPORTS_DIR
from solver.rules.words import GameWords


def deck_case(card: str) -> tuple[str, str, float | None]:
    """The card's printed name, how often it is drawn, and that share (None: not in the deck)."""
    from solver.sabords.rules import load_rules

    rules = load_rules()
    deck = dict(rules.deck)
    total = sum(deck.values())
    n = deck.get(card, 0)
    title = rules.cards[card].title if card in rules.cards else card
    if n:
        return title, f"{n} of the {total} cards", n / total
    if card == "none":
        return title, "never in the game (no card is drawn without a card)", None
    return title, f"promo card, not in the {total}-card deck", None


class SabordsWords(GameWords):
    """Cases are cards; a changed table ends with the change averaged over the deck."""

    def case(self, row: dict) -> tuple[str, str]:
        return deck_case(row["card"])[:2]

    def lines_after(self, changed: list[dict], rows: list[dict]) -> list[str]:
        """The change averaged over every turn of a game (the deck's shares)."""
        out = []
        for objective in sorted({r["objective"] for r in changed}):
            total, any_deck = 0.0, False
            for r in changed:
                share = deck_case(r["card"])[2]
                if r["objective"] == objective and share:
                    total += share * r["delta"]
                    any_deck = True
            if any_deck:
                unit = self.units.get(objective, "")
                out.append(f"\nAveraged over every turn of a game (the standard deck), "
                           f"{objective}: {total:+.4f} {unit}.")
        return out


WORDS = SabordsWords(
    measured="Mille Sabords per card and objective (points per turn, or a probability), with "
             "how often the card is drawn and the change averaged over the deck",
    units={"points": "points per turn",
           "margin": "points per turn, own plus what each opponent loses",
           "reach:1000": "P(at least 1000 points in the turn)"},
    decisions="dice states of the turn",
    game_decisions="score pairs",
    game_level_source="the whole-game solver measures it when `reports/sabords/game.json` "
                      "holds it")


def readings_of(game_doc: dict, table_doc: dict) -> dict:
    """The game-level readings the verifier shows, from the whole game's summary (two
    players) and the whole table's (readings that arise only with three or more players):
    ``{"target", "first_player_wins", "readings": {name: {"first_player_wins", "delta",
    "decisions_changed", "decisions_total", "unit"}}}``, or {} without the game's."""
    if not isinstance(game_doc.get("readings"), dict):
        return {}
    readings = game_doc["readings"]
    table = table_doc.get("verifier_readings")
    if isinstance(table, dict):
        readings = {**table, **readings}
    return {**{k: game_doc[k] for k in ("target", "first_player_wins") if k in game_doc},
            "readings": readings}


def game_readings(reports_dir: Path = REPORTS_DIR) -> dict:
    """The readings of the shipped reports (``game.json`` and ``table.json``, written by this
    game's ``make solve`` step), for a verifier run outside ``make solve``."""
    folder = reports_dir / "sabords"
    return readings_of(_json_or_empty(folder / "game.json"),
                       _json_or_empty(folder / "table.json"))


def _json_or_empty(path: Path) -> dict:
    if not path.is_file():
        return {}
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return {}
    return doc if isinstance(doc, dict) else {}
