"""The numba kernel of the take rule (:mod:`solver.armada.takes` states the rule and checks
the kernel against its plain version): kept apart so that one turn's answer, which needs no
kernel, does not import numba (whose start-up would dominate a warm ``treasure armada
hold``)."""

from __future__ import annotations

from numba import njit

from solver.armada.game import SKULL
from solver.engine.kernels import NEG


@njit(cache=True)
def choose(fin, tgt, options, levels, skull, ptr, rows, maxd, must_take):
    """Fill ``fin`` (``(F,)``) with the value of the token each final dice row takes, and
    ``tgt`` with its target (pier index or ``SKULL``): ``options`` per pier (``NEG`` or
    ``-inf`` for an empty pier), the piers' ``levels``, the skull option."""
    n_full = fin.shape[0]
    for k in range(n_full):
        fin[k] = NEG
        tgt[k] = SKULL
    for i in range(options.shape[0]):
        option = options[i]
        if not option > NEG:
            continue
        slot = i * maxd + min(levels[i], maxd - 1)
        for j in range(ptr[slot], ptr[slot + 1]):
            k = rows[j]
            if option > fin[k]:
                fin[k] = option
                tgt[k] = i
    for k in range(n_full):
        if (fin[k] == NEG) if must_take else (skull > fin[k]):
            fin[k] = skull
            tgt[k] = SKULL


@njit(cache=True)
def choose_many(final, target, options, levels, skull, ptr, rows, maxd, must_take):
    """:func:`choose` for each row of a batch."""
    for b in range(options.shape[0]):
        choose(final[b], target[b], options[b], levels[b], skull[b], ptr, rows, maxd,
               must_take)
