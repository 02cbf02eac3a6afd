"""The build times the code quotes, each one of ``make bench``'s figures, kept here once.

They are wall seconds, meant for an idle 2-core machine. The web server uses them as its first
estimate of a build before one of its kind has run (:mod:`solver.web.tables` scales them by how
busy the machine is); ``make bench`` prints each beside its fresh measurement
(:func:`solver.bench.reference`), so that a stale one shows. A module of its own so that the
server does not import the benchmarks.
"""

from __future__ import annotations

WHOLE_GAME_SECONDS = 55.0  # the two-player Mille Sabords game at target 6000, from nothing
GAME_PLAY_SECONDS = 85.0  # that table's play (every turn solved again at its values)
THREE_PLAYER_SECONDS = 6.0  # the three-player table at the table report's small target
ARMADA_TABLE_SECONDS = 20.0  # one Gold Armada whole-game table, cold, compilation included
