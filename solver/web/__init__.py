"""The table companion: ``treasure serve`` runs a small web server for the game table.

A JSON API (:mod:`solver.web.app`) whose answers are the command line's ``--json`` documents,
built by the same functions, and the pages in ``static/`` that ask it. Tables that take
minutes to solve are built in the background (:mod:`solver.web.builds`,
:mod:`solver.web.tables`) so that no request waits for them.
"""
