"""The mover's payoff under a tie rule: the one objective that the best responses
(:mod:`solver.sabords.game.table.equilibrium`) and the restricted game that mixes them
(:mod:`solver.sabords.game.table.settle`) both maximise.

A mover maximises their own value. When two turns give the mover exactly the same value, the
others' values may still differ between them, so a rule has to choose. Under the engine's rule
(``engine``) the engine's order decides (:data:`solver.engine.batch.TIE`: stopping before
rerolling, then the lattice's order). The other rules (``TIES``) add ``TIE_SHARE`` of one other
player's value to the mover's payoff, so that the mover's exact ties go to the turn that is best
for that player (``next``: the player after the mover; ``previous``: the player before). A turn
chosen this way gives up at most ``TIE_SHARE`` of the mover's own value. The certificate
(:func:`solver.sabords.game.table.equilibrium.regret`, the mover's own value alone) measures
that loss.
"""

from __future__ import annotations

import numpy as np

TIES = {"engine": None, "next": 1, "previous": -1}  # tie rule: the favoured player's position
TIE_SHARE = 1e-10  # the favoured player's value in the mover's payoff under the other rules


def tie_weights(tie: str, players: int) -> np.ndarray:
    """The mover's payoff as weights on the players' values by position from the mover: 1 on
    the mover's own value, and ``TIE_SHARE`` on the player the tie rule favours."""
    if tie not in TIES:
        raise ValueError(f"unknown tie rule {tie!r}: one of {', '.join(TIES)}")
    weights = np.eye(players)[0]
    if TIES[tie] is not None:
        weights[TIES[tie] % players] = TIE_SHARE
    return weights


def mover_payoff(values: np.ndarray, weights: np.ndarray, rows=slice(None),
                 mover: int = 0) -> np.ndarray:
    """The mover's payoff (``weights``, :func:`tie_weights`) of the value vectors
    ``values[rows]``, whose last axis lists the players with the mover at column ``mover``
    and the others after it in playing order (wrapping round). Under the engine's rule it is
    the mover's column alone, read without copying the others."""
    if not weights[1:].any():
        return values[rows, ..., mover]
    return np.roll(values[rows], -mover, axis=-1) @ weights
