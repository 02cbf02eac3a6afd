"""``treasure dragon ...``: board pictures, the layout model, routes and dragon patrols."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from solver.cli_status import StatusLine
from solver.dragon.board import Island, load_island
from solver.dragon.position import Position, load_position
from solver.dragon.route import DEADLINE, WORK_BUDGET, WORK_LIMIT
from solver.errors import InputError
from solver.io import dumps_json, output_path, read_text, write_output

if TYPE_CHECKING:
    from solver.dragon.move import Move
    from solver.dragon.route import RouteQuery, RouteResult
    from solver.dragon.rules import Rules

BOARD_HELP = "Board file (default: the shipped reconstruction models/dracheninsel/board.toml)."
POSITION_HELP = ("Position file (default: the opening, every hunter in its boat). Only the "
                 "hunters listed under [hunters] play; a file without [hunters] (an empty "
                 "file, say) means all six, each in its boat.")


def _load(board: str | None, position: str | None) -> tuple[Island, Position]:
    island = load_island(board)
    return island, load_position(position, island)


def _variants(items: tuple[str, ...]) -> dict[str, str]:
    """``--variant NAME`` (a name from ``treasure dragon variants``, e.g.
    flight-from-boat-forbidden; NAME=CHOICE works too) -> every rule point's reading."""
    from solver.dragon.rules import load_readings

    return load_readings(items)


def _colour(island: Island, text: str) -> str:
    return island.model.parse_colour(text)


def _some_card(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    """--hand must name at least one card (an empty hand is no question)."""
    if not any(token.strip() for token in value.split(",")):
        raise click.BadParameter("no card given; name one or more cards separated by commas")
    return value


def _finite(_ctx: click.Context, _param: click.Parameter, value: float) -> float:
    """A number option that must be finite (``1e400`` reads as infinity, ``nan`` as no number)."""
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number")
    return value


def _position_options(f: Callable) -> Callable:
    """--board, --position and --variant, shared by route and patrol."""
    f = click.option("--variant", "variants", multiple=True, metavar="NAME",
                     help="A reading of an unclear rule (repeatable; see "
                          "`treasure dragon variants`).")(f)
    f = click.option("--position", "position_file", type=click.Path(dir_okay=False),
                     help=POSITION_HELP)(f)
    return click.option("--board", "board_file", type=click.Path(dir_okay=False),
                        help=BOARD_HELP)(f)


@click.group()
def dragon() -> None:
    """Die Dracheninsel: board, layout, route, patrol.

    \b
    Examples:
      treasure dragon board --svg island.svg
      treasure dragon route --hunter red --hand volcano,flight,swap-any,forest,desert,water
      treasure dragon patrol --hunter blue --against all
    """


@dragon.command()
@click.option("--board", "board_file", type=click.Path(dir_okay=False), help=BOARD_HELP)
@click.option("--position", "position_file", type=click.Path(dir_okay=False), help=POSITION_HELP)
@click.option("--route", "route_file", type=click.Path(dir_okay=False),
              help="A route as written by `treasure dragon route --json`, drawn over the board.")
@click.option("--svg", "svg_file", required=True, type=click.Path(dir_okay=False),
              help="Where to write the picture.")
def board(board_file, position_file, route_file, svg_file) -> None:
    """Draw the island (fields, boats, hunters, dragons, treasure, a route) as SVG.

    \b
    Example:
      treasure dragon route --hunter red --hand volcano,flight,forest --json > r.json
      treasure dragon board --route r.json --svg island.svg
    """
    from solver.dragon.svg import draw_board

    output_path(svg_file, "picture")
    island, pos = _load(board_file, position_file)
    route = None
    if route_file:
        try:
            route = json.loads(read_text(route_file, "route file"))
        except json.JSONDecodeError as err:
            raise InputError(f"route file {route_file}: not JSON ({err.msg})") from err
        if not isinstance(route, dict) or not isinstance(route.get("plan"), list):
            raise InputError(f"route file {route_file}: expected the JSON of "
                             "`treasure dragon route --json`")
        hunter, start = route.get("hunter"), route.get("start")
        if start is None and (not isinstance(hunter, str) or hunter not in pos.hunters):
            raise InputError(f"route file {route_file}: its hunter {hunter!r} is not on the "
                             f"board (on it: {', '.join(sorted(pos.hunters))})")
        if start is not None and not isinstance(start, str):
            raise InputError(f"route file {route_file}: its start {start!r} is not a cell")
    try:
        picture = draw_board(pos, route)
    except InputError as err:
        raise InputError(f"route file {route_file}: {err}") from None
    write_output(svg_file, picture, "picture")
    click.echo(f"wrote {svg_file}")


@dragon.command()
@click.option("--out", "out_file", type=click.Path(dir_okay=False),
              help="Write the board file here (default: print it).")
@click.option("--json", "as_json", is_flag=True, help="Print the model's figures as JSON.")
def layout(out_file, as_json) -> None:
    """Solve the CP-SAT model of the reconstructed start layout.

    Ten tiles per terrain, six-fold rotational symmetry with the colours turning with the
    boats (every boat sees the same island), same-colour fields touching as little as possible.

    \b
    Example:
      treasure dragon layout --out models/dracheninsel/board.toml
    """
    from solver.dragon.board import board_toml
    from solver.dragon.layout import HEADER, build_island

    if out_file:
        output_path(out_file, "board file")
    island, figures = build_island()
    text = board_toml(island, HEADER)
    if out_file:
        write_output(out_file, text, "board file")
    if as_json:
        click.echo(dumps_json(figures), nl=False)
    elif out_file:
        for key, value in figures.items():
            click.echo(f"{key.replace('_', ' '):32} {value}")
        click.echo(f"wrote {out_file}")
    else:
        click.echo(text, nl=False)


@dragon.command()
@click.option("--hunter", required=True, help="The hunter to move (blue, red, grey, ...).")
@click.option("--hand", required=True, callback=_some_card,
              help="Comma-separated cards, one to six (water, water+forest, flight, ...).")
@click.option("--goal", type=click.Choice(["treasure", "boat"], case_sensitive=False),
              help="treasure (default), or boat for a hunter carrying treasure.")
@_position_options
@click.option("--method", type=click.Choice(["cp-sat", "search"], case_sensitive=False),
              default="cp-sat", show_default=True,
              help="search: the exhaustive check (slow with swap cards).")
@click.option("--work-limit", type=click.FloatRange(min=0, min_open=True), callback=_finite,
              default=WORK_LIMIT, show_default=True, metavar="UNITS",
              help="CP-SAT's deterministic work per model (roughly seconds). When reached, the "
                   "best route found is shown, marked as not proved optimal.")
@click.option("--work-budget", type=click.FloatRange(min=0, min_open=True), callback=_finite,
              default=WORK_BUDGET, show_default=True, metavar="UNITS",
              help="CP-SAT's deterministic work for the whole query (the web page's too). "
                   "When spent, the best route found is shown, marked as not proved optimal; "
                   "a large budget (1e9) proves every route, however long it takes.")
@click.option("--deadline", type=click.FloatRange(min=0), callback=_finite, default=DEADLINE,
              show_default=True, metavar="SECONDS",
              help="Wall-clock seconds for the whole query (the web page's too); when reached, "
                   "the best route found is shown, marked as not proved optimal. 0: none "
                   "(the answer is then the same on every machine).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def route(hunter, hand, goal, board_file, position_file, variants, method, work_limit,
          work_budget, deadline, as_json) -> None:
    """The cheapest legal turn to the goal, or the turn that ends closest to it.

    Cards: water, volcano, mountain, farmland, forest, desert; a double terrain card as
    water+forest; flight, long-journey, swap-adjacent, swap-any, dragon-patrol, curse, fright,
    ambush, slumber, counterspell, betrayal (German names work too: "Tollkühner Flug").

    A hand of three swap cards may solve many models, and its rare worst case takes far
    longer than the rest (`make bench` measures both; a status line on stderr says which
    model is being solved; --work-limit caps each, --work-budget the whole query and
    --deadline its wall time).

    \b
    Example:
      treasure dragon route --hunter red --hand volcano,flight,swap-any,forest,desert,water
    """
    from solver.dragon.cards import parse_hand
    from solver.dragon.route import RouteQuery, route_document
    from solver.dragon.route_method import best_route

    island, pos = _load(board_file, position_file)
    colour = _colour(island, hunter)
    q = RouteQuery(pos, colour, parse_hand(hand, island.model), goal, _variants(variants))
    with StatusLine() as status:
        result = best_route(q, method, work_limit, status, work_budget, deadline or None)
    if as_json:
        click.echo(dumps_json(route_document(q, result)), nl=False)
        return
    click.echo(_route_text(island, q, result))


def _route_text(island: Island, q: RouteQuery, result: RouteResult) -> str:
    goal = "the treasure field" if q.goal == "treasure" else "a boat"
    hand = ", ".join(c.name for c in q.hand) or "(none)"
    lines = [f"{q.hunter} from {island.names[q.position.hunters[q.hunter].at]} to {goal}; "
             f"hand: {hand}"]
    if island.reconstruction:
        lines.append("(board: the reconstructed layout, not the printed one)")
    if result.reachable:
        lines.append(f"reachable this turn with {result.cards_used} card(s)")
    elif result.remaining is None:
        lines.append("the goal cannot be reached, not even in later turns")
    else:
        lines.append(f"not reachable this turn; ends {result.remaining} terrain card(s) away "
                     f"after playing {result.cards_used}")
    if result.deadline_reached:
        lines.append("(the deadline was reached: the best route found by then, not proved "
                     "optimal; --deadline 0 --work-budget 1e9 proves it, however long it takes)")
    elif not result.optimal:
        lines.append("(the solver's work budget or limit was reached: the best route found, "
                     "not proved optimal; --work-budget 1e9 proves it, however long it takes)")
    if not result.plan:
        lines.append(f"no useful move: no card of this hand brings {q.hunter} closer to "
                     f"{goal}; nothing to play")
        return "\n".join(lines)
    from solver.text import table

    rows = [(str(i), m.action, m.card or "-", m.to, _details(m, q))
            for i, m in enumerate(result.plan, 1)]
    lines.append("")
    lines.append(table(("#", "action", "card", "to", "details"), rows, "lllll",
                       rule=False).rstrip("\n"))
    return "\n".join(lines)


def _details(move: Move, q: RouteQuery) -> str:
    """The move's details, saying "joker" when the card paying for the field is the
    hunter's own colour standing in for another terrain."""
    text = move.details()
    payer = move.payer()
    if move.enters() and payer and move.use:
        terrains = payer.split("+")
        if move.use not in terrains and q.own in terrains:
            text += f" (joker: {payer} is {q.hunter}'s own colour)"
    return text


@dragon.command()
@click.option("--hunter", required=True, help="The player who plays Drachenpatrouille.")
@click.option("--against", default="all", show_default=True,
              help="One opponent's colour, or all opponents.")
@_position_options
@click.option("--method", type=click.Choice(["cp-sat", "enumeration"], case_sensitive=False),
              default="cp-sat", show_default=True,
              help="enumeration: the exhaustive check of every dragon placement.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def patrol(hunter, against, board_file, position_file, variants, method, as_json) -> None:
    """Where Drachenpatrouille should set (or move) a dragon to slow opponents the most.

    Cards needed are counted with terrain cards alone from each opponent to its goal.

    \b
    Example:
      treasure dragon patrol --hunter blue --against red --position game.toml
    """
    from solver.dragon.patrol import CAP, cp_patrol, enumerate_patrol

    island, pos = _load(board_file, position_file)
    colour = _colour(island, hunter)
    if against.strip().lower() == "all":
        target = "all"
    else:
        try:
            target = _colour(island, against)
        except InputError as err:
            raise InputError(f"--against: {err}, or all") from None
    solve = cp_patrol if method == "cp-sat" else enumerate_patrol
    result = solve(pos, colour, target, _variants(variants))
    if as_json:
        click.echo(dumps_json(result.to_json()), nl=False)
        return
    what = (f"move the dragon from {result.moved_from} to {result.to}" if result.moved_from
            else f"set a dragon on {result.to}")
    click.echo(f"{colour} plays Drachenpatrouille: {what} "
               f"(+{result.increase} card(s) for the opponents; {result.options} placements)")
    from solver.text import table

    rows = []
    for c in sorted(result.before):
        b, a = result.before[c], result.after[c]
        rows.append((c, _cards(b, CAP), _cards(a, CAP), f"+{a - b}"))
    if result.own_before is not None:
        rows.append((f"{colour} (you)", _cards(result.own_before, CAP),
                     _cards(result.own_after, CAP), f"+{result.own_after - result.own_before}"))
    click.echo(table(("hunter", "before", "after", "more"), rows, "lrrr", rule=False), nl=False)


def _cards(n: int, cap: int) -> str:
    return "cut off" if n >= cap else str(n)


@dragon.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def variants(as_json) -> None:
    """The readings of unclear rules: one NAME per reading (point-choice), the default
    readings marked.

    \b
    Example:
      treasure dragon route --hunter red --hand flight,forest --variant flight-from-boat-forbidden
    """
    from solver.dragon.rules import rules

    readings = _readings(rules())
    if as_json:
        click.echo(dumps_json(readings), nl=False)
        return
    from solver.variants import readings_text

    click.echo(readings_text(readings), nl=False)


def _readings(model: Rules) -> dict[str, dict]:
    """Every reading of every rule variant as ``variants --json`` shows it (the same keys as
    the other games' variants)."""
    from solver.dragon.rules import default_readings, variant_table
    from solver.variants import variant_readings

    return variant_readings({"game": default_readings(model), "variants": variant_table(model)})
