"""Die Dracheninsel: board model, CP-SAT routing for one turn, dragon placement, reports.

Modules: ``geometry`` (hex grid, boats, flights), ``model`` (rules and deck as data), ``cards``
(card names, hands), ``board`` / ``position`` (files and validation), ``route_rounds`` (the
exact route: CP-SAT models of ``route_cpsat`` solved in rounds, bounded by the relaxation of
``route_relax``, read by ``route_plan``, relaxed routes made real by ``route_repair``),
``route_search`` (an independent exhaustive search used to check it, and ``replay``, a
plan checker), ``patrol`` (dragon placement), ``layout`` (the board
reconstruction), ``svg`` (pictures), ``simulate`` / ``reports`` / ``bench``, ``invariants``.
"""
