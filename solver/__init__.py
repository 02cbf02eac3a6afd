"""treasure-solver: exact solvers and a rules verifier for three pirate dice and board games.

Subpackages: ``solver.engine`` (the generic dice engine), ``solver.sabords`` (Mille Sabords /
Piraten Kapern), ``solver.armada`` (Gold Armada), ``solver.dragon`` (Die Dracheninsel),
``solver.rules`` (the rules verifier) and ``solver.cli`` (the ``treasure`` command).
"""

__version__ = "0.1.0"
