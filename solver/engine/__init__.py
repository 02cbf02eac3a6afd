"""The generic dice engine shared by every dice game.

* :mod:`solver.engine.multiset` - multisets of faces, roll probabilities, the keep lattice;
* :mod:`solver.engine.stopping` - optimal stopping with keep/reroll decisions (cycles allowed);
* :mod:`solver.engine.certificate` - exact rational certificates of optimality and their check;
* :mod:`solver.engine.horizon` - finite-horizon keep problems (a fixed number of rolls);
* :mod:`solver.engine.kernels` - numba kernels that solve many such turns side by side.
"""

from solver.engine.multiset import DiceSpace, multinomial
from solver.engine.stopping import STOP, Solution, StoppingProblem, evaluate, solve

__all__ = ["DiceSpace", "multinomial", "STOP", "Solution", "StoppingProblem", "evaluate", "solve"]
