"""Die Dracheninsel: board model, CP-SAT routing for one turn, dragon placement, reports.

Modules: ``geometry`` (hex grid, boats, flights), ``rules`` (rules and deck as data), ``cards``
(card names, hands), ``board`` / ``position`` (files and validation), ``route`` (a query and
its answer), the ``router`` package (the exact route by CP-SAT: its README explains the
algorithm and says which function enforces each rule), ``route_search`` (an independent
exhaustive search used to check it, and ``replay``, a plan checker), ``patrol`` (dragon
placement), ``layout`` (the board reconstruction), ``svg`` (pictures), ``simulate`` /
``reports`` / ``bench``, ``invariants``.
"""
