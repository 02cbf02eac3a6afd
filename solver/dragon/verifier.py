"""What the rules verifier needs of Die Dracheninsel, given through its registry entry: the
words of its reports. A case is a sampled situation; how often it arises, and decides the
turn, comes from simulated games; a witness turn shows a changed optimum.
"""

from __future__ import annotations

from solver.rules.words import GameWords, count


def german_name(item: str) -> str:
    """A card or hunter by the game's own (German) name."""
    from solver.dragon.rules import rules

    r = rules()
    parts = []
    for part in item.split("+"):
        if part in r.actions:
            parts.append(r.actions[part].german)
        elif part in r.terrain_german:
            parts.append(r.terrain_german[part])
        elif part in r.colour_german:
            parts.append(r.colour_german[part])
        else:
            parts.append(part)
    return " / ".join(parts)


def _share_text(row: dict, key: str, verb: str) -> str:
    """'arises in 37 of 1,204 simulated turns (3.07 % ± 0.52 %)', from the row's ``in_play``."""
    play = row.get("in_play")
    if not play:
        return f"{verb}: not measured"
    c = play[key]
    return (f"{verb} in {count(c['count'])} of {count(c['turns'])} simulated turns "
            f"({100 * c['share']:.2f} % ± {100 * c['stderr']:.2f} %)")


def _turn_value(value: list) -> str:
    rem, spent = value
    head = "reaches the goal" if rem == 0 else (
        "cannot reach the goal" if rem is None else f"{rem} card{'' if rem == 1 else 's'} short")
    return f"{head}, {spent} card{'' if spent == 1 else 's'} spent"


class DragonWords(GameWords):
    """Cases are sampled situations, with how often they arise in simulated games."""

    def case(self, row: dict) -> tuple[str, str]:
        if row.get("in_play"):
            c = row["in_play"]["arises"]
            where = "simulated games" if "relative_to" in row else "sampled situations"
            return row["card"], (f"{where}; in play in {count(c['count'])} of "
                                 f"{count(c['turns'])} simulated turns (above)")
        return row["card"], "in the sampled situations (how often in a game: not measured)"

    def decision_total(self, row: dict, rows: list[dict]) -> int | None:
        """The situations are stored on the variant's first row."""
        return max(len(x.get("situations", [])) for x in rows) or None

    def summary_note(self, row: dict) -> str:
        return (f"; in play: {_share_text(row, 'arises', 'arises')}, "
                f"{_share_text(row, 'decides', 'decides the turn')}")

    def arising_lines(self, row: dict) -> list[str]:
        """How often the point's situation arises in simulated play."""
        play = row.get("in_play")
        if not play:
            return ["- how often it arises in play: not measured"]
        stopped = play["games"] - play["ended"]
        stop = f"; {stopped} stopped at the turn limit" if stopped else ""
        return [f"- how often in play ({count(play['games'])} simulated games of "
                f"{play['players']} hunters, seed {play['seed']}, `solver/dragon/play.py`{stop}; "
                "± one standard error, games as clusters): the situation "
                f"{_share_text(row, 'arises', 'arises')}; the reading "
                f"{_share_text(row, 'decides', 'decides the turn')} (the default's optimal turn "
                "is illegal or no longer optimal under the other reading), and "
                f"{_share_text(row, 'value_changes', 'changes its optimal value')}."]

    def lines_after(self, changed: list[dict], rows: list[dict]) -> list[str]:
        """A witness turn: the situation whose optimum the reading changes."""
        out = []
        for r in rows:
            w = r.get("witness")
            if w:
                if "values_changed" in r:
                    n = len(r.get("situations", []))
                    out += ["", f"Of the {n} situations, {r['values_changed']} change their "
                            f"optimal value and {r['changed_states']} their best action."]
                beyond = " beyond the sample" if w["index"] >= len(r.get("situations", [])) else ""
                hand = ", ".join(german_name(c) for c in w["hand"])
                out += ["", f"Witness (situation {w['index']}{beyond}, stored in "
                        f"`proofs/dracheninsel/variants.json`): the {german_name(w['hunter'])} "
                        f"hunter holding {hand}; default: {_turn_value(w['default'])}; variant: "
                        f"{_turn_value(w['variant'])}. Re-solved by `make check` with both route "
                        "finders."]
        return out


WORDS = DragonWords(
    measured="Die Dracheninsel on seeded random turns in which the point arises, each solved "
             "exactly under both readings, with a witness turn whose optimum changes, and how "
             "often the point's situation arises, and decides the turn, in seeded simulated "
             "games of four hunters (a share of all simulated turns, with its standard error)",
    decisions="situations")
