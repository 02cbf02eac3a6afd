"""Die Dracheninsel: board model, CP-SAT routing for one turn, dragon placement, reports.

Modules: ``geometry`` (hex grid, boats, flights), ``rules`` (rules and deck as data), ``cards``
(card names, hands), ``board`` / ``position`` (files and validation), ``route`` (a query and
its answer), the ``router`` package (the exact route by CP-SAT: its README explains the
algorithm and says which function enforces each rule), ``move`` (a typed move of a turn) and
``rulebook`` (the executable rulebook: ``legal_moves``, ``apply``, the position a turn leaves),
``route_search`` (the exhaustive search over the rulebook that checks the router, and
``replay``, a plan checker), ``distance`` (how far a hunter is), ``patrol`` (dragon
placement), ``layout`` (the board reconstruction), ``svg`` (pictures), ``simulate`` /
``reports`` / ``bench``, ``invariants``.
"""
