"""A recorded Gold Armada game reviewed move by move (issue 38): one player against the
board (values: expected final score, the ``solo`` table) or two alternating on one board
(expected final margin of the player to move, the ``duel`` table).

Each turn is the turn ``treasure armada hold`` solves (:func:`solver.armada.turn.analyse`
with the whole-game table): a keep's value with ``r`` rolls to come, the dice's value (the
best keep, or the token taken), each token's option value (its doubloon plus, or less in a
duel, the next state's value). A roll's luck is the value of the dice it shows less the kept
dice's value before it; a decision's cost is the best option's value less the played one's.
Then for each player: start + net luck - net error = the final score (one player) or the
final margin (two), exactly up to rounding (:func:`solver.review.player_summary`).

The record (documented in ``models/armada/record.md``)::

    players Anne, Bruno
    Anne: BBOPA, keep BB BBBOA, BBBAA, take full-house 3
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from solver.armada.game import OBJECTIVES, Game
from solver.armada.takes import legal_takes
from solver.armada.turn import analyse
from solver.errors import InputError
from solver.names import normalise_name

HEADER_KEYS = ("game", "players", "variant", "variants", "board")


def parse_header(text: str) -> tuple[tuple[str, ...], list[str], list[tuple[int, str]]]:
    """The players, the variants and the turn lines ``(line number, text)`` of a record."""
    players: tuple[str, ...] = ()
    variants: list[str] = []
    turns: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        key = key.lower()
        if key in HEADER_KEYS and not turns:
            if not rest.strip():
                raise InputError(f"line {number}: '{key}' needs a value")
            words = [w for w in re.split(r"[\s,]+", rest) if w]
            if key == "game" and normalise_name(rest) not in ("armada", "gold-armada"):
                raise InputError(f"line {number}: game {rest.strip()!r}: this is the Gold "
                                 "Armada review (treasure sabords review reads Mille Sabords)")
            if key == "board":
                raise InputError(f"line {number}: the review reads the shipped board only")
            if key == "players":
                if len(words) > 2 or len({w.lower() for w in words}) != len(words):
                    raise InputError(f"line {number}: one or two players, each named once")
                players = tuple(words)
            if key.startswith("variant"):
                variants += words
        else:
            turns.append((number, line))
    if not players:
        raise InputError("the record names no players: write 'players A' (one player) or "
                         "'players A, B' (two)")
    if not turns:
        raise InputError("the record has no turn: write one line per turn, e.g. "
                         "'Anne: BBOPA, keep BB BBBOA, BBBAA, take full-house'")
    return players, variants, turns


def review_answer(text: str, table_source: Callable[[Game, str], np.ndarray],
                  name: str | None = None) -> dict:
    """The review of the record ``text``, what ``treasure armada review FILE --json`` prints
    and ``POST /api/armada/review`` answers: on the shipped board, one player in the solo
    table, two in the duel table (``table_source(game, objective)``: the caller's source of
    tables); bad input is one line naming the record (``name``: its file, if any)."""
    from solver.armada.game import default_game
    from solver.review import naming_record

    with naming_record(name):
        players, variants, turns = parse_header(text)
        game = default_game(tuple(variants))
        table = table_source(game, "solo" if len(players) == 1 else "duel")
        return ArmadaReview(game, players, table).run(turns)


class ArmadaReview:
    """The review of one record on ``game`` with the whole-game ``table`` of its objective."""

    def __init__(self, game: Game, players: tuple[str, ...], table: np.ndarray):
        self.game, self.players, self.table = game, players, table
        self.objective = "solo" if len(players) == 1 else "duel"
        self.sign = OBJECTIVES[self.objective]
        self.levels, self.skulls = game.opening
        self.scores = [0.0] * len(players)
        self.turns: list[dict] = []
        self.events: list[dict] = []
        self.trace: list[dict] = []
        self.names = pier_names(game)

    def run(self, turn_lines: list[tuple[int, str]]) -> dict:
        from solver.review import player_summary

        start = float(self.table[self.skulls, self.game.code(self.levels)])
        for index, (line, text) in enumerate(turn_lines, 1):
            if self.game.over(self.levels, self.skulls):
                raise InputError(f"turn {index} (line {line}): the game was over after turn "
                                 f"{index - 1}: no turn follows")
            self._turn(index, line, text)
        over = self.game.over(self.levels, self.skulls)
        mover = len(self.turns) % len(self.players)
        now = float(self.table[self.skulls, self.game.code(self.levels)]) if not over else 0.0
        if len(self.players) == 1:
            starts, results = [start], [self.scores[0] + now]
        else:
            margin = self.scores[0] - self.scores[1] + (now if mover == 0 else -now)
            starts, results = [start, -start], [margin, -margin]
        doc = {"format": "treasure-solver/armada-review", "version": 1,
               "objective": self.objective, "players": list(self.players),
               "variants": list(self.game.rules.variants), "board": self.game.board.label,
               "turns": self.turns, "events": self.events, "trace": self.trace,
               "scores": self.scores}
        doc["summary"] = player_summary(list(self.players), "doubloons", self.turns,
                                        self.events, starts, results, over)
        return doc

    # -- one turn --------------------------------------------------------------------------
    def _turn(self, index: int, line: int, text: str) -> None:
        where = f"turn {index} (line {line})"
        player = (index - 1) % len(self.players)
        name, colon, rest = text.partition(":")
        if not colon or name.strip().lower() != self.players[player].lower():
            raise InputError(f"{where}: write '{self.players[player]}: DICE, ...' (players "
                             "take turns in the order of the 'players' line)")
        steps = [part.split() for part in rest.split(",")]
        if any(not s for s in steps):
            raise InputError(f"{where}: an empty step between commas")
        if steps[-1][0].lower() != "take":
            raise InputError(f"{where}: a turn ends with the token taken, e.g. 'take barrels'"
                             " or 'take skull'")
        game, rules = self.game, self.game.rules
        a = analyse(game, self.levels, self.skulls, self.objective, self.table)
        shown, keep = game.horizon.stages(a.final)
        state = game.format_state(self.levels, self.skulls)
        ctx = Turn(self, index, where, state, a, shown, keep)
        rolls = steps[:-1]
        if not rolls or len(rolls) > rules.rolls:
            raise InputError(f"{where}: a turn has 1 to {rules.rolls} rolls; this one shows "
                             f"{len(rolls)}")
        if len(rolls) < rules.rolls and not rules.stop_early:
            raise InputError(f"{where}: a turn has {rules.rolls} rolls (keeping every die is a "
                             f"roll too); this one shows {len(rolls)}")
        row = ctx.first(rolls[0])
        for number, words in enumerate(rolls[1:], 2):
            row = ctx.reroll(row, number, words)
        taken, value = ctx.take(row, len(rolls), steps[-1])
        self._apply(taken, player)
        self.turns.append({"turn": index, "player": player, "state": state,
                           "rolls": len(rolls), "take": self.names[taken] if taken >= 0 else
                           "skull", "token": value, "before": a.value, "after": ctx.value,
                           "state_after": game.format_state(self.levels, self.skulls)})
        self.trace.append({"turn": index, "player": player, "values": ctx.trace})

    def _apply(self, taken: int, player: int) -> None:
        if taken < 0:
            self.skulls += 1
            self.scores[player] += self.game.rules.skull_value
            return
        self.scores[player] += float(self.game.board.piers[taken].values[self.levels[taken]])
        levels = list(self.levels)
        levels[taken] += 1
        self.levels = tuple(levels)


class Turn:
    """The values along one turn (see the module docstring) and its events."""

    def __init__(self, review: ArmadaReview, index, where, state, analysis, shown, keep):
        self.review, self.index, self.where, self.state = review, index, where, state
        self.game = review.game
        self.a, self.shown, self.keep = analysis, shown, keep
        self.value = analysis.value
        self.trace = [["before the turn", self.value]]

    def _fail(self, roll: int, text: str) -> InputError:
        return InputError(f"{self.where}, roll {roll}: {text}")

    def _dice(self, word: str, roll: int, count: int | None = None) -> np.ndarray:
        try:
            return self.game.parse_dice(word, count)
        except InputError as err:
            raise self._fail(roll, str(err)) from None

    def _row(self, counts: np.ndarray) -> int:
        sp = self.game.space
        return int(np.flatnonzero(sp.full == sp.index(counts))[0])

    def _luck(self, roll: int, value: float, dice: str) -> None:
        self.review.events.append({"kind": "roll", "turn": self.index, "roll": roll,
                                   "luck": value - self.value, "before": self.value,
                                   "after": value, "dice": dice})
        self.trace.append([f"roll {roll}: {dice}", value])
        self.value = value

    def _rolls_left(self, roll: int) -> int:
        return self.game.rules.rolls - roll

    def first(self, words: list[str]) -> int:
        if len(words) != 1:
            raise self._fail(1, "the first roll is the dice showing, e.g. BBOPA")
        counts = self._dice(words[0], 1)
        row = self._row(counts)
        self.counts = counts
        self._luck(1, float(self.shown[self._rolls_left(1)][row]), self.game.dice_text(counts))
        return row

    def reroll(self, row: int, roll: int, words: list[str]) -> int:
        sp, game = self.game.space, self.game
        new = self._dice(words[-1], roll)
        if len(words) == 3 and words[0].lower() in ("keep", "reroll"):
            given = self._dice(words[1], roll, len(words[1]))
            kept = given if words[0].lower() == "keep" else self.counts - given
            if np.any(kept < 0) or np.any(kept > self.counts):
                raise self._fail(roll, f"{words[0].lower()}s {game.dice_text(given)}, but roll "
                                 f"{roll - 1} shows {game.dice_text(self.counts)}")
        elif len(words) == 1:
            kept = np.minimum(self.counts, new)
        else:
            raise self._fail(roll, "a roll is [keep DICE | reroll DICE] and the dice showing")
        if np.any(kept > new):
            raise self._fail(roll, f"{game.dice_text(new)} cannot follow "
                             f"{game.dice_text(self.counts)} keeping {game.dice_text(kept)}: "
                             "the kept dice must still show")
        node = int(sp.index(kept))
        r = self._rolls_left(roll - 1)
        if node not in game.horizon.keeps_of[row]:
            raise self._fail(roll, f"keeping {game.dice_text(kept)} is not allowed: a roll "
                             f"moves at least {game.rules.min_reroll} dice")
        played = float(self.keep[r][node])
        self._decide(roll - 1, row, r, f"keep {game.dice_text(kept) or 'nothing'}", played)
        self.counts = new
        new_row = self._row(new)
        self._luck(roll, float(self.shown[r - 1][new_row]), game.dice_text(new))
        return new_row

    def _options(self, row: int, r: int) -> list[tuple[str, float]]:
        return [(label, value) for label, value, _ in
                options_at(self.game, self.a, self.keep, row, r)]

    def _decide(self, roll: int, row: int, r: int, played: str, value: float) -> None:
        options = self._options(row, r)
        best_label, best = max(options, key=lambda o: o[1])
        if best == value:
            best_label = played
        dice = self.game.dice_text(self.game.full_counts[row])
        self.review.events.append({
            "kind": "decision", "turn": self.index, "roll": roll,
            "position": f"{self.state}, {dice}, {r} roll(s) left", "state": self.state,
            "dice": dice, "rolls_left": r, "played": played, "best": best_label,
            "played_value": value, "best_value": best, "cost": best - value,
            "choices": len(options)})
        self.trace.append([f"plays {played}", value])
        self.value = value

    def take(self, row: int, rolls: int, words: list[str]) -> tuple[int, float]:
        game, a = self.game, self.a
        if len(words) not in (2, 3):
            raise self._fail(rolls, "write 'take PIER' or 'take skull' (and the doubloon's "
                             "value, if you like)")
        name = normalise_name(words[1])
        names = self.review.names
        if name not in names:
            raise self._fail(rolls, f"unknown pier {words[1]!r}; piers: "
                             f"{', '.join(names)}")
        taken = names.index(name)
        allowed = legal_takes(game, a.levels)[:, row]
        dice = game.dice_text(game.full_counts[row])
        if not allowed[taken]:
            why = ("a pier qualifies, and a skull is taken only when none does"
                   if taken == len(names) - 1 else "no doubloon is left there"
                   if a.pier_options[taken] is None else "the dice do not qualify")
            raise self._fail(rolls, f"{dice} cannot take {names[taken]}: {why}")
        taken = -1 if taken == len(names) - 1 else taken
        option = float(a.skull_option if taken < 0 else a.pier_options[taken])
        value = float(game.rules.skull_value if taken < 0
                      else game.board.piers[taken].values[a.levels[taken]])
        if len(words) == 3 and words[2].lstrip("+-").isdigit() and int(words[2]) != value:
            raise self._fail(rolls, f"the score does not add up: {names[taken]} is worth "
                             f"{value:g} here, not {words[2]}")
        if len(words) == 3 and not words[2].lstrip("+-").isdigit():
            raise self._fail(rolls, f"bad value {words[2]!r}: a whole number")
        self._decide(rolls, row, self._rolls_left(rolls), f"take {names[taken]}", option)
        return taken, value


def pier_names(game: Game) -> list[str]:
    """The names a record takes, in board order, then ``skull``."""
    return [normalise_name(p.name) for p in game.board.piers] + ["skull"]


def options_at(game: Game, a, keep, row: int, r: int) -> list[tuple[str, float, tuple]]:
    """Every option with the dice ``row`` and ``r`` rolls to come as (label, value, what):
    the keeps (``("keep", node)``), and with no roll left, or when the turn may stop early,
    the tokens allowed (``("take", pier)``, the skull ``("take", -1)``): the values ``hold``
    lists, unrounded."""
    out = []
    if r:
        out += [(f"keep {game.dice_text(game.space.counts[k]) or 'nothing'}",
                 float(keep[r][k]), ("keep", int(k))) for k in game.horizon.keeps_of[row]
                if k >= 0]
    if not r or game.rules.stop_early:
        allowed = legal_takes(game, a.levels)[:, row]
        names = pier_names(game)
        out += [(f"take {names[i]}", float(opt), ("take", i))
                for i, opt in enumerate(a.pier_options) if allowed[i] and opt is not None]
        if allowed[-1]:
            out.append(("take skull", float(a.skull_option), ("take", -1)))
    return out
