"""The CP-SAT router: one hunter's turn solved exactly (see README.md in this folder for the
algorithm, explained once, and for the function that enforces each rule of the game).

``rounds.cp_route`` is the entry point; ``model`` solves one CP-SAT model of the turn,
which ``build`` builds from the query's ``facts``; ``variables`` names its variables (the
typed state the constraint functions share), ``decode`` reads a solved model's plan, ``relax``
and ``travel`` tighten the swap relaxation, ``repair`` makes relaxed routes real.
"""
