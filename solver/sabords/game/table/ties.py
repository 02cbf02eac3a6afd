"""How often a mover's own best value ties between turns that matter to the others.

With three or more players a mover may be indifferent between turns whose outcome
distributions are worth different amounts to the other players. The tie rule
(:mod:`solver.sabords.game.table.payoff`) then decides what those players get. This module
counts where that happens on a solved table.

**What is counted.** The unit is a *turn*: one state and one card of the deck. A card's turn
is the whole sequence of decisions after that card is drawn, and it is counted once however
many of its decisions tie. A turn *ties in a way that matters* when two of the mover's turns
are both within ``TIED`` (1e-12) of the mover's best value against the table's values, and
the value of some other player differs between them by more than ``MATTERS`` (1e-4). The
mixed states of a settled table count as well: their mover is indifferent between the turns
that are mixed.

**How it is found.** The same way the tie rules break ties. For each other player ``p`` the
turn is solved twice more by the engine's batched turn solver, with ``PROBE`` (the tie rules'
``TIE_SHARE``, 1e-10) of ``p``'s value added to the mover's own value and then taken from it.
Among the mover's tied turns, the first solve finds the one best for ``p`` and the second the
one worst for ``p``. The turn ties in a way that matters to ``p`` when both probes lose at
most ``TIED`` of the mover's own best value and ``p``'s values of the two turns are more than
``MATTERS`` apart. A probe can also settle on a turn that loses between ``TIED`` and ``PROBE``
of the mover's value while moving ``p``'s value: that is a *near* tie. Near ties are counted
separately, not as ties.

**Resolution.** The engine compares two actions' values to within
:data:`solver.engine.batch.TIE` times one plus the value (4e-15 times at most 2). Through a
share of 1e-10 that is up to 8e-5 of ``p``'s value: below that the probes, like the tie rules,
cannot tell two tied turns apart, hence ``MATTERS``. Each probe may stop that short of the
best or worst turn for ``p``, so a tie that moves ``p``'s value by up to about 2.6e-4 may
still go uncounted; every turn counted does tie in a way that matters.
"""

from __future__ import annotations

import numpy as np

from solver.sabords.game.table.equilibrium import BLOCK, TableSolver
from solver.sabords.game.table.payoff import TIE_SHARE, mover_payoff
from solver.sabords.game.table.solution import TableSolution

TIED = 1e-12  # the mover's own values of two turns no further apart are tied
MATTERS = 1e-4  # a player's values of two turns further apart: the choice matters to them
PROBE = TIE_SHARE  # the share of a player's value added to or taken from the mover's payoff


def mover_ties(solution: TableSolution) -> dict:
    """The turns of ``solution`` at which the mover's own best value ties in a way that
    matters to another player (module docstring), counted: ``turns`` (the count), ``states``
    (how many states have at least one), ``near`` (turns with a near tie only), ``of`` (every
    turn of the table) and ``tolerance`` (``TIED``)."""
    tied, near = tied_turns(solution)
    return {"turns": int(tied.sum()), "states": int(tied.any(axis=1).sum()),
            "near": int(near.sum()), "of": int(tied.size), "tolerance": TIED}


def tied_turns(solution: TableSolution) -> tuple[np.ndarray, np.ndarray]:
    """Per state and card of the deck: whether the mover's turn ties in a way that matters to
    another player, and whether it only nearly does (``(states, cards)`` each)."""
    solver = TableSolver(solution.spec)
    layout = solver.layout
    lanes = solver.lanes
    tied = np.zeros((layout.states, len(lanes.solved_cards)), dtype=bool)
    near = np.zeros_like(tied)
    for lo in range(0, layout.states, BLOCK):
        rows = np.arange(lo, min(lo + BLOCK, layout.states))
        nxt = np.roll(solution.values[solver.succ[rows]], 1, axis=-1)  # position j: column j
        tied[rows], near[rows] = _turn_ties(lanes, nxt)
    # a card and its twin (solved once) tie alike: every card of the deck counted
    tied, near = lanes.per_card(tied), lanes.per_card(near)
    return tied, near & ~tied


def _turn_ties(lanes, nxt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per state (``nxt``: its outcomes' values by position from the mover) and solved
    card: whether the mover's turn ties in a way that matters to another player, and whether
    it only nearly does."""
    players = nxt.shape[-1]
    own = np.eye(players)[0]

    def turns(weights: np.ndarray) -> np.ndarray:
        """Per state and solved card, the outcome distribution of the turn that maximises
        the payoff ``weights``."""
        pay = mover_payoff(nxt, weights)
        return lanes.solve(pay, np.arange(len(pay)), lanes.storage(len(pay)), 1e-14,
                           distribution=True).per_card

    def worth(dist: np.ndarray, player: int) -> np.ndarray:
        return np.einsum("sco,so->sc", dist, nxt[..., player])

    best = worth(turns(own), 0)
    tied = np.zeros(best.shape, dtype=bool)
    near = np.zeros_like(tied)
    for player in range(1, players):
        found = [turns(own + sign * PROBE * np.eye(players)[player]) for sign in (1, -1)]
        lost = np.maximum(*(best - worth(d, 0) for d in found))
        matters = worth(found[0], player) - worth(found[1], player) > MATTERS
        tied |= matters & (lost <= TIED)
        near |= matters & (lost > TIED)
    return tied, near
