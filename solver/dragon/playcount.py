"""Counting in the simulated games (:mod:`solver.dragon.play`): which rule points a turn
touches, each game's record, and shares with standard errors.

A route reading (``[NAME.situation]`` in ``models/dracheninsel/variants.toml``) is counted on
the turn as dealt: it **arises** when the turn is the point's situation, and **decides** the
turn when the default's optimal plan is illegal or no longer optimal under the other reading
(both as :mod:`solver.dragon.situation` says, both readings solved exactly). A reading of
the cards between players or of the end of the game (``kind = "game"``) is counted by the game
itself where its rule applies (``GameRecord.event``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from solver.dragon.route import RouteQuery, RouteResult
from solver.dragon.route_method import best_route
from solver.dragon.rules import rule_variants
from solver.dragon.situation import arises, plan_still_best, with_reading


@dataclass
class TurnCount:
    """What one turn shows for one point: whether it arises and whether it decides the turn."""

    arises: bool = False
    decides: bool = False
    value_changes: bool = False


def count_turn(q: RouteQuery, default_result: RouteResult | None = None,
               solver: Callable[[RouteQuery], RouteResult] | None = None
               ) -> dict[str, TurnCount]:
    """For every sampled rule point, whether this turn arises in its situation and whether the
    reading decides the turn (both readings solved). ``default_result``: the default reading's
    turn, when already solved; ``solver``: the route finder (default: the exact optimum,
    ``best_route``). The simulated games pass their own policy's router, so a turn is
    decided when the policy's plan under the default is illegal, or worse than the policy's
    plan under the other reading."""
    solve = solver or best_route

    out = {}
    for name, spec in sorted(rule_variants().items()):
        if "situation" not in spec:
            continue
        tc = TurnCount()
        if arises(q, spec["situation"]):
            tc.arises = True
            a = default_result if default_result is not None else solve(q)
            for choice in spec["choices"]:
                if choice == spec["default"]:
                    continue
                qv = with_reading(q, f"{name}={choice}")
                b = solve(qv)
                tc.value_changes |= a.value != b.value
                tc.decides |= not plan_still_best(qv, a.plan, b.value)
        out[name] = tc
    return out


@dataclass
class GameRecord:
    """One simulated game: players, turns, whether it ended, the coins won, the winners, and
    each point's counts (turns where it arises, decides the turn, changes the optimal value)."""

    players: int
    index: int = 0
    first: int = 0  # the seat drawn to begin
    turns: int = 0
    ended: bool = False
    arises: dict[str, int] = field(default_factory=dict)
    decides: dict[str, int] = field(default_factory=dict)
    value_changes: dict[str, int] = field(default_factory=dict)
    coins: list[list[int]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    plays: dict[str, int] = field(default_factory=dict)
    bound: list[int] = field(default_factory=list)  # treasures a fright took from a lone carrier

    def add(self, counts: dict[str, TurnCount]) -> None:
        for name, tc in counts.items():
            self.arises[name] = self.arises.get(name, 0) + tc.arises
            self.decides[name] = self.decides.get(name, 0) + tc.decides
            self.value_changes[name] = self.value_changes.get(name, 0) + tc.value_changes

    def event(self, name: str, decides: bool) -> None:
        """A game reading's rule applied once (``decides``: the two readings part here)."""
        self.arises[name] = self.arises.get(name, 0) + 1
        self.decides[name] = self.decides.get(name, 0) + bool(decides)

    def played(self, action: str) -> None:
        self.plays[action] = self.plays.get(action, 0) + 1

    def to_json(self) -> dict:
        return {"index": self.index, "players": self.players, "first": self.first,
                "turns": self.turns,
                "ended": self.ended,
                "arises": dict(sorted(self.arises.items())),
                "decides": dict(sorted(self.decides.items())),
                "value_changes": dict(sorted(self.value_changes.items())),
                "coins": self.coins, "removed": self.removed, "winners": self.winners,
                "plays": dict(sorted(self.plays.items())), "bound": self.bound}


CHANGED = "share of games whose winner changes"
COULD_CHANGE = "share of games whose winner could change (an upper bound)"


def share(per_game: list[dict], key: str, name: str) -> dict:
    """A point's count over all games, its share of the turns, and the standard error of that
    share with the games as clusters (the turns of one game are not independent)."""
    k = [g[key].get(name, 0) for g in per_game]
    n = [g["turns"] for g in per_game]
    total, turns = sum(k), sum(n)
    p = total / turns if turns else 0.0
    g = len(per_game)
    if g > 1 and turns:
        var = g / (g - 1) * sum((ki - p * ni) ** 2 for ki, ni in zip(k, n, strict=True))
        se = var ** 0.5 / turns
    else:
        se = 0.0
    return {"count": total, "turns": turns, "share": p, "stderr": se}


def game_share(count: int, games: int) -> dict:
    """A share of games (each 0 or 1) and its binomial standard error."""
    p = count / games if games else 0.0
    se = (p * (1 - p) / games) ** 0.5 if games else 0.0
    return {"count": count, "games": games, "share": p, "stderr": se}


def in_play(sim: dict, name: str) -> dict:
    """How often the point ``name`` arises, and decides the turn, in the simulated games (and
    in how many games it decides at least one turn)."""
    rows = sim["per_game"]
    return {"games": sim["games"], "seed": sim["seed"], "players": sim["hunters"],
            "ended": sum(g["ended"] for g in rows),
            "arises": share(rows, "arises", name), "decides": share(rows, "decides", name),
            "value_changes": share(rows, "value_changes", name),
            "games_decided": game_share(sum(bool(g["decides"].get(name)) for g in rows),
                                        len(rows))}


def game_rows(sim: dict, variant: str, spec: dict) -> list[dict]:
    """The verifier's rows for a reading of the game (``kind = "game"``), measured on the
    simulated games: the share of games whose winner changes under it, with its binomial
    standard error (every game in which the reading decided a turn replayed under it, so each
    game gives a 0/1 indicator; the final coins for the tie-break; for a treasure a fright
    took from a lone carrier, an upper bound), with the point's counts in play."""
    name, _, choice = variant.partition("=")
    if choice == spec["default"]:
        return []
    rows, n = sim["per_game"], sim["games"]
    summary = in_play(sim, name)
    touched = summary["games_decided"]["count"]
    counts = sim["players"]
    card = (f"{n} simulated games ({n // len(counts)} each of "
            f"{', '.join(map(str, counts[:-1]))} and {counts[-1]} players)")
    objective = CHANGED
    if name == "tie-break-gap":
        k = touched
        tied = sum(bool(g["arises"].get(name)) for g in rows)
        proof = (f"the final coins of all {n} games scored under both readings: {tied} end "
                 f"with equal totals and equal highest coins but other coins different, and "
                 f"the winners differ in {k}")
    elif name == "frightened-lone-carrier":
        k = sum(1 for g in rows if g["bound"] and _could_decide(g))
        objective = COULD_CHANGE
        proof = (f"an upper bound: in {k} of {n} games the treasure a fright took from a lone "
                 "carrier is worth more than the winner's lead")
    elif name == "last-action":  # both readings leave the same position
        k = 0
        proof = ("both readings put the mover back where it stood with the same cards left "
                 "(played cards never return to the hand, 002:535-536)")
    else:
        again = sim["replays"].get(name, [])
        if len(again) != touched:
            raise ValueError(f"{name}: {len(again)} replays for the {touched} games in which "
                             "it decides a turn (every such game must be replayed)")
        k = sum(r["changed"] for r in again)
        proof = (f"decides a turn in {touched} of {n} games; each of them replayed under the "
                 f"reading (seeded): the winner changes in {k} (a game in which it decides "
                 "no turn plays the same under it)")
    est = game_share(k, n)
    proof += (f"; so the winner {'could change' if objective == COULD_CHANGE else 'changes'} "
              f"in {k} of {n} games: {100 * est['share']:.1f} % ± {100 * est['stderr']:.1f} % "
              "(one binomial standard error)")
    claim = "changes" if k else ("proved" if name == "last-action" else "no change seen")
    return [{"variant": variant, "card": card, "objective": objective, "default": 0.0,
             "value": round(est["share"], 6), "delta": round(est["share"], 6),
             "stderr": round(est["stderr"], 6), "relative_to": 1.0, "changed_states": k,
             "claim": claim, "proof": proof, "in_play": summary}]


def _could_decide(game: dict) -> bool:
    """Could the treasures removed from lone carriers have changed the winner?"""
    totals = sorted((sum(c) for c in game["coins"]), reverse=True)
    lead = totals[0] - (totals[1] if len(totals) > 1 else 0)
    return 2 * sum(game["bound"]) >= lead


def _mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    if not n:
        return 0.0, 0.0
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, (var / n) ** 0.5


def play_markdown(sim: dict, readings: dict[str, dict]) -> str:
    """``reports/dracheninsel/play.md``: the simulated games per player count (turns, coins,
    who wins, the cards played) and every reading of the game measured on them."""
    from solver.text import table

    rows = sim["per_game"]
    lines = ["# Die Dracheninsel: simulated games with the whole deck", "",
             f"Generated by `make solve` (`solver/dragon/play.py`, seed {sim['seed']}): "
             f"{sim['games']} games, {len(rows) // len(sim['players'])} for each player count, "
             "on the reconstructed board with the assumed deck. Every card is played by the "
             "simple policy stated in the module docstring of `solver/dragon/play.py` (the "
             "cards' rules: `solver/dragon/rulebook.py` and `solver/dragon/table.py`). Two "
             "players play by the three-player appendix (two hunters each): an assumption. "
             "± is one standard error.", ""]
    head = ["players", "games", "ended", "turns (mean)", "winner's coins (mean)",
            "first player wins", "shared wins", "card plays a game"]
    body = []
    for n in sim["players"]:
        games = [g for g in rows if g["players"] == n]
        turns = _mean_se([g["turns"] for g in games])
        best = _mean_se([max(sum(c) for c in g["coins"]) for g in games])
        first = game_share(sum(g["first"] in g["winners"] for g in games), len(games))
        shared = sum(len(g["winners"]) > 1 for g in games)
        plays = _mean_se([sum(g["plays"].values()) for g in games])
        body.append([n, len(games), sum(g["ended"] for g in games),
                     f"{turns[0]:.1f} ± {turns[1]:.1f}", f"{best[0]:.0f} ± {best[1]:.0f}",
                     f"{100 * first['share']:.0f} % ± {100 * first['stderr']:.0f} %", shared,
                     f"{plays[0]:.1f} ± {plays[1]:.1f}"])
    lines += [table(head, body, "rrrrrrrr", markdown=True), "",
              "Card plays per game by action (all player counts):", ""]
    actions = sorted({a for g in rows for a in g["plays"]})
    cells = [[a, f"{_mean_se([g['plays'].get(a, 0) for g in rows])[0]:.2f}"] for a in actions]
    lines += [table(["action", "plays a game"], cells, "lr", markdown=True), "",
              "## Readings of the rules measured in play", "",
              "A reading **arises** where its rule applies and **decides** the turn where the two "
              "readings end it differently; the winner changes in a game only if the reading "
              "decides a turn in it, and every such game is replayed under the other reading "
              "(see "
              "[../rules/ambiguities.md](../rules/ambiguities.md)).", ""]
    body = []
    for name, spec in sorted(readings.items()):
        other = next(c for c in spec["choices"] if c != spec["default"])
        p = in_play(sim, name)
        a, d = p["arises"], p["decides"]
        body.append([f"{name}={other}", f"{a['count']} ({100 * a['share']:.2f} % ± "
                     f"{100 * a['stderr']:.2f} %)", f"{d['count']} ({100 * d['share']:.2f} % ± "
                     f"{100 * d['stderr']:.2f} %)", p["games_decided"]["count"],
                     _replayed(sim, name)])
    lines += [table(["other reading", f"arises (of {sum(g['turns'] for g in rows)} turns)",
                     "decides the turn", "games it decides a turn in", "winner changes"], body,
                    "lrrrr", markdown=True)]
    return "\n".join(lines) + "\n"


def _replayed(sim: dict, name: str) -> str:
    again = sim["replays"].get(name)
    if again is None:
        return "-"
    k = sum(r["changed"] for r in again)
    est = game_share(k, sim["games"])
    return (f"{k} of {len(again)} replayed ({100 * est['share']:.1f} % ± "
            f"{100 * est['stderr']:.1f} % of all games)")
