"""What every game's review of a recorded game shares (issue 38): each player's totals from
the events of the game (luck of rolls and draws, costs of decisions), the rating in words,
the identity's terms, and their text.

A game's review (:mod:`solver.sabords.review.moves`, :mod:`solver.armada.review`) lists its turns
(each with the ``player`` who moved) and its events: ``{"kind": "card" | "roll", "turn",
"luck"}`` and ``{"kind": "decision", "turn", "roll", "position", "played", "best", "cost",
"choices"}``. Values are the mover's, in the review's unit; an event may add ``by_player``,
its luck (or cost) in every player's value (a table of three players or more, where another
player's good roll or mistake moves mine by its own amount); without it, the game is taken
as zero-sum between two players (the other's is minus the mover's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from solver.errors import InputError

# Average cost per decision (a decision: a position with two options or more) below which a
# player gets each word, per unit: P(win), points (Mille Sabords turn by turn), doubloons
# (Gold Armada).
RATINGS = {
    "win": ((0.0001, "flawless"), (0.001, "expert"), (0.003, "strong"),
            (0.008, "intermediate"), (0.02, "casual"), (float("inf"), "beginner")),
    "points": ((0.5, "flawless"), (5, "expert"), (15, "strong"), (40, "intermediate"),
               (100, "casual"), (float("inf"), "beginner")),
    "doubloons": ((0.005, "flawless"), (0.03, "expert"), (0.1, "strong"),
                  (0.25, "intermediate"), (0.6, "casual"), (float("inf"), "beginner")),
}
Command = TypeVar("Command", bound=Callable)
LARGEST = 3  # mistakes listed per player
EPS = 1e-9  # a cost below this is rounding, not a mistake


@contextmanager
def naming_record(name: str | None) -> Iterator[None]:
    """Bad input inside is said of the record: ``game record FILE: ...`` (the command line,
    naming its file), or ``game record: ...`` (the API, which has no file name)."""
    try:
        yield
    except InputError as err:
        raise InputError(f"game record{f' {name}' if name else ''}: {err}") from None


def review_options(plot_help: str, cache_help: str) -> Callable[[Command], Command]:
    """The argument and options both games' ``review`` commands take, the parameters of
    :func:`print_review` (``FILE``, ``--json``, ``--plot``, ``--all``, ``--no-cache``), with
    each game's words for what its chart draws and which table its cache holds."""
    import click

    options = [
        click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=True)),
        click.option("--json", "as_json", is_flag=True, help="Print JSON."),
        click.option("--plot", "plot_file", metavar="FILE.png", default=None, help=plot_help),
        click.option("--all", "show_all", is_flag=True,
                     help="List every decision, not only those that cost something."),
        click.option("--no-cache", is_flag=True, help=cache_help),
    ]

    def decorate(command: Command) -> Command:
        for option in reversed(options):  # as if written above the command in this order
            command = option(command)
        return command

    return decorate


def print_review(record_file: str, as_json: bool, plot_file: str | None, show_all: bool,
                 answer, png, text) -> None:
    """What both games' ``review`` commands do around their own answer: check the chart's
    path first, read the record, ``answer(text)`` it, write the chart (``png(doc)``), then
    print the JSON or ``text(doc, show_all)``."""
    import click

    from solver.io import dumps_json, output_path, read_text, write_output

    if plot_file is not None:
        output_path(plot_file, "chart")
    doc = answer(read_text(record_file, "game record"))
    if plot_file is not None:
        write_output(plot_file, png(doc), "chart")
    click.echo(dumps_json(doc) if as_json else text(doc, show_all), nl=False)


def rating(average: float, unit: str) -> str:
    """The word for an average cost per decision (thresholds: :data:`RATINGS`)."""
    return next(word for bound, word in RATINGS[unit] if average < bound)


def effect(event: dict, index: int, mover: int) -> float:
    """What ``event`` (luck, or a decision's cost) does to player ``index``'s value: its
    ``by_player`` entry, else the mover's amount, negated for the other player."""
    if "by_player" in event:
        return event["by_player"][index]
    amount = event["cost" if event["kind"] == "decision" else "luck"]
    return amount if index == mover else -amount


def player_summary(players: list[str], unit: str, turns: list[dict], events: list[dict],
                   starts: list[float], results: list[float], finished: bool) -> list[dict]:
    """Per player: own luck and error, decisions, average error, rating, the largest
    mistakes, and the identity's terms: ``start + net_luck - net_error = result``, where net
    sums every event's :func:`effect` on the player (the others' good rolls and mistakes move
    my value too)."""
    out = []
    for index, name in enumerate(players):
        own = [e for e in events if turns[e["turn"] - 1]["player"] == index]
        luck = sum(e["luck"] for e in own if e["kind"] != "decision")
        decisions = [e for e in own if e["kind"] == "decision" and e["choices"] > 1]
        error = sum(e["cost"] for e in decisions)
        mistakes = sorted((e for e in decisions if e["cost"] > EPS),
                          key=lambda e: (-e["cost"], e["turn"], e["roll"]))
        average = error / len(decisions) if decisions else 0.0
        out.append({"player": name, "luck": luck, "error": error,
                    "decisions": len(decisions), "average_error": average,
                    "mistakes": len(mistakes), "rating": rating(average, unit),
                    "largest": [{k: e[k] for k in ("turn", "roll", "position", "played",
                                                    "best", "cost")}
                                for e in mistakes[:LARGEST]]})
    for index, row in enumerate(out):
        moved = [(e, turns[e["turn"] - 1]["player"]) for e in events]
        row["start"] = starts[index]
        row["net_luck"] = sum(effect(e, index, m) for e, m in moved if e["kind"] != "decision")
        row["net_error"] = sum(effect(e, index, m) for e, m in moved
                               if e["kind"] == "decision" and e["choices"] > 1)
        row["result"] = results[index]
        row["finished"] = finished
    return out


def number(value: float, digits: int, signed: bool = False) -> str:
    """``value`` to ``digits`` decimals, never ``-0.0000``."""
    return f"{round(value, digits) + 0.0:{'+' if signed else ''}.{digits}f}"


def decision_rows(doc: dict, digits: int, show_all: bool) -> list[list[str]]:
    """The decisions of ``doc`` for a table (those that cost something, or all)."""
    names = doc["players"]
    player = {t["turn"]: names[t["player"]] for t in doc["turns"]}
    return [[str(e["turn"]), str(e["roll"]), player[e["turn"]], e["position"], e["played"],
             e["best"], number(e["cost"], digits)]
            for e in doc["events"] if e["kind"] == "decision"
            and (show_all or e["cost"] > EPS)]


def summary_lines(doc: dict, unit: str, digits: int, show_all: bool) -> list[str]:
    """The decisions, the per-player table, each identity and largest mistakes, and the
    rating's thresholds, as lines."""
    from solver.text import table

    lines = []
    decisions = decision_rows(doc, digits, show_all)
    if decisions:
        lines += ["", "every decision:" if show_all else "decisions that cost something:",
                  table(["turn", "roll", "player", "position", "played", "best", "cost"],
                        decisions, "rrlllll").rstrip("\n")]
    rows = [[r["player"], number(r["start"], digits), number(r["luck"], digits, True),
             number(r["error"], digits), str(r["decisions"]),
             number(r["average_error"], digits + 1), r["rating"], number(r["result"], digits)]
            for r in doc["summary"]]
    last = "result" if doc["summary"][0]["finished"] else "now"
    lines += ["", table(["player", "start", "luck", "error", "decisions", "error/decision",
                         "rating", last], rows, "lrrrrrlr").rstrip("\n")]
    for r in doc["summary"]:
        total = r["start"] + r["net_luck"] - r["net_error"]
        lines.append(f"{r['player']}: start {number(r['start'], digits)} + net luck "
                     f"{number(r['net_luck'], digits, True)} - net error "
                     f"{number(r['net_error'], digits, True)} = {number(total, digits)} "
                     f"({last} {number(r['result'], digits)})")
        lines += [f"  turn {e['turn']} roll {e['roll']} ({e['position']}): played "
                  f"{e['played']}, best {e['best']}, cost {number(e['cost'], digits)}"
                  for e in r["largest"]]
    bounds = ", ".join(f"{word} below {bound:g}" for bound, word in RATINGS[unit][:-1])
    name = {"win": "P(win)"}.get(unit, unit)
    lines.append(f"rating by the average cost per decision (in {name}): {bounds}, beginner "
                 "above; net: every card's, roll's and decision's effect on the player's "
                 "value, the others' too")
    if not doc.get("identity", True):
        lines.append(f"values by the rule {doc.get('rule')!r} (not exact): the mover's turns "
                     "only, so start + net luck - net error need not be the result")
    return lines


def chart_png(xs: list[float], ys: list[list[float]], names: list[str], turns: int,
              title: str, ylabel: str, ylim: tuple[float, float] | None = None) -> bytes:
    """Each player's value through the game (one step per card, roll and decision) as PNG
    bytes, deterministic (no time stamp, no software tag)."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4))
    for name, series in zip(names, ys, strict=True):
        ax.step(xs, series, where="post", label=name)
    ax.set_xlim(0, turns)
    ax.set_xlabel("turn (each step: a card or roll, a decision)")
    if ylim is not None:
        ax.set_ylim(*ylim)
        ax.axhline(sum(ylim) / 2, color="grey", linewidth=0.5)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="best")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()
