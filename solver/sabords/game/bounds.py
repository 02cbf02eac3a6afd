"""How low scores go: a proved bound on the chance that the table's lowest score matters.

Scores may go negative, so the solved game keeps scores down to a lowest score ``L`` and raises
any lower score to ``L``. Until the first turn that would take a score below ``L`` (a *hit*),
the truncated game and the real one are the same game, played the same way; so the chance of
a hit, under the solved policies, bounds how far any value of the table can be from the value
of those policies in the real game.

That chance ``h`` solves linear equations over the states (each turn's outcome distribution is
the solved policy's, :attr:`GameTable.plays`): a hit counts 1, an outcome that ends the game
counts 0, and any other outcome counts ``h`` of the next state. Iterating them from ``h = 1``
gives numbers that only decrease and never fall below ``h``: every iterate is an upper bound,
and the report prints the one reached when the iterates stop moving. The bound grows as
positions come nearer the lowest score: :data:`PROFILE` lists the scores from which it is also
reported (the largest over every phase's positions with both scores at least that many points).
"""

from __future__ import annotations

import numpy as np

from solver.sabords.game.two_player import GameTable
from solver.sabords.turn.lanes import UNIT, deck_turns

# points: the bound is also reported from positions with both scores at least these
PROFILE = (0, -500, -1000, -1500, -2000, -3000, -4000, -5000, -6000, -7000, -8000)


def hit_probability(table: GameTable, sweeps: int = 20_000, tol: float = 1e-15) -> dict:
    """Upper bounds on the chance of ever taking a score below the table's lowest score,
    under the solved play, from every state: the largest over the states with both scores at
    least zero, per phase, and from the opening; ``from_scores``: the largest over every phase
    from positions with both scores at least each of :data:`PROFILE`'s (above the lowest)."""
    if table.plays is None:
        raise ValueError("the bound needs the solved play (see game.with_play)")
    spec = table.spec
    if spec.rules.score_floor == "zero":
        # the lowest score kept is the rules' floor: raising a score to it is the game itself
        return {"lowest_score": spec.low, "opening": 0.0, "normal": 0.0,
                "sudden-death": 0.0, "last": 0.0, "from_scores": {"0": 0.0}}
    deck = deck_turns(spec.rules)
    low, top = spec.bottom, spec.top
    span = top - low
    own, loss, win = deck.own[None, :], deck.loss[None, :], deck.win[None, :]
    a, b = (x + low for x in np.divmod(np.arange(span * span), span))
    m, t = np.divmod(np.arange(table.last.size), table.last.shape[1])
    m, t = m + low, t + top
    french = spec.rules.endgame == "race-wins-at-once"
    h = {"normal": np.ones((span, span)), "sudden": np.ones((span, span)),
         "last": np.ones(table.last.shape)}

    def after(x, y):
        mover, other = x[:, None] + own, y[:, None] - loss
        hit = (mover < low) | (other < low)
        return hit, np.maximum(mover, low), np.maximum(other, low)

    def cell(grid, x, y):
        return grid[np.clip(x - low, 0, span - 1), np.clip(y - low, 0, span - 1)]

    plays = {k: np.broadcast_to(v, (size, deck.count)) if v.ndim == 1 else v
             for k, v in table.plays.items()
             for size in [table.last.size if k == "last" else span * span]}
    for _ in range(sweeps):
        hit, mover, other = after(a, b)
        trig = mover >= top
        last_next = h["last"][np.clip(other - low, 0, span - 1),
                              np.clip(mover - top, 0, table.last.shape[1] - 1)]
        cont = np.where(trig, last_next, cell(h["normal"], other, mover))
        normal = (plays["normal"] * np.where(hit, 1.0, np.where(win, 0.0, cont))).sum(1)
        sudden = np.zeros(span * span)
        if french:
            cont = np.where(trig, 0.0, cell(h["sudden"], other, mover))
            sudden = (plays["sudden-death"] * np.where(hit, 1.0, np.where(win, 0.0, cont))).sum(1)
        hit, mover, trigger = after(m, t)
        back = h["sudden"] if french else h["normal"]
        cont = np.where(trigger >= top, 0.0, cell(back, trigger, mover))
        last = (plays["last"] * np.where(hit, 1.0, np.where(win, 0.0, cont))).sum(1)
        new = {"normal": normal.reshape(span, span), "sudden": sudden.reshape(span, span),
               "last": last.reshape(table.last.shape)}
        moved = max(float(np.max(np.abs(new[k] - h[k]))) for k in h)
        h = new
        if moved <= tol:
            break
    zero = -low

    def from_score(points: int) -> float:  # without a sudden death, h["sudden"] is 0
        i = points // UNIT - low
        return max(float(h["normal"][i:, i:].max()), float(h["sudden"][i:, i:].max()),
                   float(h["last"][i:, :].max()))

    profile = {str(p): from_score(p) for p in PROFILE if p // UNIT > low}
    return {
        "from_scores": profile,
        "lowest_score": spec.low,
        "opening": float(h["normal"][zero, zero]),
        "normal": float(h["normal"][zero:, zero:].max()),
        "sudden-death": float(h["sudden"][zero:, zero:].max()) if french else 0.0,
        "last": float(h["last"][zero:, :].max()),
    }
