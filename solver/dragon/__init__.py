"""Die Dracheninsel: board model, CP-SAT routing for one turn, dragon placement, reports.

Modules: ``geometry`` (hex grid, boats, flights), ``model`` (rules and deck as data), ``cards``
(card names, hands), ``board`` / ``position`` (files and validation), ``route_cpsat`` (the
CP-SAT router), ``route_search`` (an independent exhaustive search used to check it),
``replay`` (a plan checker), ``patrol`` (dragon placement), ``layout`` (the board
reconstruction), ``svg`` (pictures), ``simulate`` / ``reports`` / ``bench``, ``invariants``.
"""
