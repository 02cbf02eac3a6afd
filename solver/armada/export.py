"""Gold Armada whole-game tables in documented formats (``treasure armada export``).

Two formats, both carrying every board state (doubloons taken per pier, skulls taken):

* **CSV**: a header line ``state,value``, then one line per state in table order, the state
  as on the command line (``0000000000/0``: one digit per pier in board order, a slash, the
  skulls taken) and its value with nine decimals. States where the game is over have value 0.
* **NPZ** (``numpy.load``): ``value`` with shape ``(skulls + 1, codes)`` (float64), where a
  pier state's code is ``sum(taken[i] * stride[i])``; ``stride`` and ``doubloons`` (per pier,
  board order), ``piers`` (names) and ``objective`` (a string) ride along.

Values: ``solo`` is the expected final score from that state on (doubloons minus skulls, one
player); ``duel`` the expected final margin over the opponent of the player about to move.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np

from solver.armada.game import Game


def state_names(game: Game) -> list[str]:
    """The command-line spelling of every pier-state code, ``0000000000`` ..."""
    digits = [(np.arange(game.n_codes) // s) % r for s, r in zip(game.strides, game.radix,
                                                                 strict=True)]
    columns = np.stack(digits, axis=1).astype(np.uint8) + ord("0")
    return [row.tobytes().decode("ascii") for row in columns]


def table_csv(game: Game, table: np.ndarray, progress: Callable[[int], None] | None = None
              ) -> str:
    """The table as CSV text (``state,value``)."""
    names = state_names(game)
    parts = ["state,value\n"]
    for skulls in range(table.shape[0]):
        values = np.char.mod("%.9f", np.asarray(table[skulls]))
        parts.append("".join(f"{n}/{skulls},{v}\n" for n, v in zip(names, values,
                                                                     strict=True)))
        if progress:
            progress(1)
    return "".join(parts)


def table_npz(game: Game, table: np.ndarray, objective: str) -> bytes:
    """The table as NPZ bytes (see the module docstring)."""
    buffer = io.BytesIO()
    np.savez(buffer, value=np.asarray(table), stride=game.strides,
             doubloons=game.radix - 1, piers=np.array([p.name for p in game.board.piers]),
             objective=np.array(objective))
    return buffer.getvalue()
