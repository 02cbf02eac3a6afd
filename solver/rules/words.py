"""What the verifier's reports say about one game's measured readings, in the game's own
words: the unit of each objective, what a counted decision is, how a measured case is named
and how often it arises. Each game gives one :class:`GameWords` (or a subclass) through its
registry entry (:attr:`solver.games.Game.verifier`), so that the verifier names no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


def count(x: int) -> str:
    """A count with thousands separators ('75,000')."""
    return f"{x:,}"


@dataclass(frozen=True)
class GameWords:
    """A game's words for the verifier; the methods are the defaults a game may override."""

    measured: str = ""  # how its readings are measured, for the report's introduction
    units: Mapping[str, str] = field(default_factory=dict)  # objective -> its unit
    decisions: str = "decisions"  # what a changed decision of a turn solver counts
    often: str = ""  # how often a case arises, when that is the same for every case
    game_decisions: str = "decisions"  # what a whole-game solver's changed decision counts
    # said of a game-level rule until the whole-game solver measures it
    game_level_source: str = "no whole-game solver of this game reads it"

    def case(self, row: dict) -> tuple[str, str]:
        """A measured row's case (by its name) and how often it arises."""
        return row["card"], self.often

    def decision_total(self, row: dict, rows: list[dict]) -> int | None:
        """How many decisions a changed count is out of (``rows``: the variant's rows)."""
        return row.get("decision_states")

    def summary_note(self, row: dict) -> str:
        """Words added to the one-line summary of the largest change."""
        return ""

    def arising_lines(self, row: dict) -> list[str]:
        """Report lines on how often a variant's situation arises in play (``row``: the
        variant's first row), shown whatever the effect."""
        return []

    def lines_after(self, changed: list[dict], rows: list[dict]) -> list[str]:
        """Report lines after a variant's table of ``changed`` rows (of all its ``rows``)."""
        return []
