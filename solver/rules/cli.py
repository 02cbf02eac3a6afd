"""``treasure check``: the rules verifier (also ``make check``)."""

from __future__ import annotations

import sys

import click

from solver.io import dumps_json


@click.command()
@click.option("--game", "games", multiple=True, metavar="GAME",
              help="Check only this game (repeatable): sabords, armada, dracheninsel (or dragon, "
                   "as the command group is named).")
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
def check(games: tuple[str, ...], as_json: bool) -> None:
    """Verify the rules: editions compared, rulebook numbers checked against the models,
    invariants and certificates re-verified, variant claims re-checked, the rule
    probabilities' closed forms (sympy) checked against the engine's exact numbers.

    Exits 1 when anything fails. Reports: reports/rules/ (written by make solve). Takes
    minutes: on a terminal a status line on stderr names the step being run.

    \b
    Example:
      treasure check
      treasure check --game sabords --json
    """
    from solver.cli_status import StatusLine
    from solver.errors import InputError
    from solver.games import GAMES
    from solver.games import game as find_game
    from solver.rules.check import run_check

    chosen = []
    for name in games:
        try:
            chosen.append(find_game(name).name)
        except KeyError:
            raise InputError(f"unknown game {name!r}; known: "
                             f"{', '.join(g.name for g in GAMES)} (or dragon)") from None
    with StatusLine() as status:
        result = run_check(chosen or None, progress=status)
    if as_json:
        click.echo(dumps_json(result), nl=False)
    else:
        for game, entry in result["games"].items():
            tally = ", ".join(f"{n} {c}" for c, n in entry["classes"].items())
            held = sum(r["holds"] for r in entry["invariants"])
            certs = entry["certificates"]
            good = sum(1 for p in certs.values() if not p)
            click.echo(f"{find_game(game).title}")
            click.echo(f"  rule points   {len(entry['points'])}: {tally}")
            click.echo(f"  count checks  {sum(c['agrees'] for c in entry['count_checks'])}/"
                       f"{len(entry['count_checks'])} agree with the models")
            click.echo(f"  invariants    {held}/{len(entry['invariants'])} proved and verified")
            click.echo(f"  certificates  {good}/{len(certs)} verify")
            if entry.get("closed_forms"):
                click.echo(f"  closed forms  {entry['closed_forms']} chances derived with sympy "
                           "and by the engine")
            click.echo(f"  variant claims {'verified' if entry['claims_ok'] else 'FAILED'}")
            for err in entry["errors"]:
                click.echo(f"  FAIL {err}")
        click.echo("ok" if result["ok"] else "FAILED")
    if not result["ok"]:
        sys.exit(1)
