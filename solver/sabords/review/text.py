"""A reviewed game for people (``treasure sabords review`` without ``--json``): the turns, the
decisions that cost something, the totals (:mod:`solver.sabords.review.moves` builds the
document)."""

from __future__ import annotations


def review_text(doc: dict, show_all: bool = False) -> str:
    """The review for people: the turns, the decisions that cost something, the totals."""
    from solver.review import number, summary_lines
    from solver.text import table

    win = doc["objective"] == "win"
    digits = 4 if win else 1
    names = doc["players"]
    what = (f"P(win) of the player to move, target {doc['target']}" if win
            else "expected points of each turn")
    if win and not doc["exact"]:
        what += f", by the rule {doc['rule']} ({doc['rule_title']})"
    lines = [f"Mille Sabords review: {' vs '.join(names)}; values are {what}"
             + (f"; variants {', '.join(doc['variants'])}" if doc["variants"] else "")]
    rows = []
    for turn in doc["turns"]:
        scores = "-".join(map(str, turn["scores_before"])) if win else ""
        points = turn["opponents_lose"] if turn["end"] == "island" else turn["points"]
        rows.append([str(turn["turn"]), names[turn["player"]], turn["card"],
                     *([scores, turn["phase"]] if win else []), str(turn["rolls"]),
                     f"{turn['end']} {points:+d}", number(turn["before"], digits),
                     number(turn["after"], digits)])
    head = ["turn", "player", "card", *(["scores", "phase"] if win else []), "rolls", "end",
            "before", "after"]
    lines.append(table(head, rows, "rll" + ("ll" if win else "") + "rlrr").rstrip("\n"))
    lines += summary_lines(doc, "win" if win else "points", digits, show_all)
    return "\n".join(lines) + "\n"
