"""``python -m solver`` runs the ``treasure`` command."""

from solver.cli import main

main()
