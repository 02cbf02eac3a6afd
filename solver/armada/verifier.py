"""What the rules verifier needs of Gold Armada, given through its registry entry: the words
of its reports. Every reading is measured from the opening position, so every case arises in
every game."""

from __future__ import annotations

from solver.rules.words import GameWords

WORDS = GameWords(
    measured="Gold Armada from the opening position (the turn's token, the final score, the "
             "final margin)",
    units={"turn": "value of the turn's token (doubloon value; a skull -1)",
           "solo": "expected final score, points",
           "duel": "expected final margin over the opponent, points"},
    decisions="decisions of the opening turn",
    often="every game (the opening position)")
