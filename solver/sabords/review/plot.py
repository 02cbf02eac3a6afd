"""The review's chart: each player's P(win) through the game, step by step (the card drawn,
every roll, every decision; under the four- and five-player rule each player's value as of
their own last turn), or in a record without a target each player's points banked
plus the turn in play's expected points."""

from __future__ import annotations


def chart_series(doc: dict) -> tuple[list[float], list[list[float]], list[tuple[float, int]]]:
    """The chart's x positions, one y series per player and the x where each turn starts
    (with its number)."""
    players = len(doc["players"])
    xs: list[float] = []
    ys: list[list[float]] = [[] for _ in range(players)]
    starts = []
    banked = [0.0] * players
    last = [row["start"] for row in doc["summary"]]
    for turn, trace in zip(doc["turns"], doc["trace"], strict=True):
        mover = turn["player"]
        values = [value for _, value in trace["values"]]
        starts.append((len(xs), turn["turn"]))
        for step, value in enumerate(values):
            xs.append(turn["turn"] - 1 + step / len(values))
            if doc["objective"] == "win":  # every player's value; the rule gives the mover's
                last = trace["wins"][step] if doc.get("identity", True) else [
                    value if p == mover else last[p] for p in range(players)]
            for p in range(players):
                ys[p].append(last[p] if doc["objective"] == "win"
                             else banked[p] + (value if p == mover else 0.0))
        if doc["objective"] != "win":
            banked[mover] += turn["points"]
    if xs:  # the last value holds to the end of the last turn
        xs.append(float(len(doc["turns"])))
        for series in ys:
            series.append(series[-1])
    return xs, ys, starts


def review_png(doc: dict) -> bytes:
    """The chart as PNG bytes (:func:`solver.review.chart_png`)."""
    from solver.review import chart_png

    xs, ys, _ = chart_series(doc)
    if doc["objective"] == "win":
        return chart_png(xs, ys, doc["players"], len(doc["turns"]),
                         f"Mille Sabords, target {doc['target']}: P(win) through the game",
                         "P(win) + 1/2 P(tie)", (0.0, 1.0))
    return chart_png(xs, ys, doc["players"], len(doc["turns"]),
                     "Mille Sabords: points through the turns",
                     "points banked + the turn's expected points")
