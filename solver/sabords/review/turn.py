"""One recorded turn replayed against its solved turn: every decision's cost and every roll's
luck, in the value the turn is solved for (P(win) from the game table, or expected points).

The turn is the engine's stopping problem with one payoff per outcome
(:func:`solver.sabords.game.advice.card_turn_by_payoffs`, the solve behind ``treasure
sabords hold``): an option's value here is the very number ``hold`` prints for it. Along the
turn the value of where the player stands is followed: the card drawn (before the first
roll), the dice showing (the best option's value, or the turn's end), the option played.
A roll's luck is the value of the dice it shows less the value of the option that rolled
them (its expectation before the roll); a decision's cost is the best option's value less
the played one's. So the value before the card, plus the luck, less the costs, is the value
of how the turn ended, exactly up to rounding.

At a table the turn moves every player's value, not only the mover's: given the other
players' payoffs per outcome (``others``), their values under the mover's play are the
engine's policy evaluation (:func:`solver.engine.stopping.evaluate`) of the mover's optimal
policy, and each event carries ``by_player``: its luck (or, for a decision, its cost: the best
option's value less the played one's) in every player's value. The same telescoping holds
for each player.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver.engine.stopping import evaluate
from solver.errors import InputError
from solver.sabords.dice import format_dice
from solver.sabords.review.record import TurnRecord
from solver.sabords.rules import NO_LIMIT, Rules
from solver.sabords.scoring import (
    ISLAND_MIN_ROLL,
    island_count,
    island_loss,
    penalty_skulls,
)
from solver.sabords.turn.advice import best_protect
from solver.sabords.turn.lanes import UNIT, card_turn


@dataclass
class TurnReview:
    """What one turn gave: the values along it (``trace``: (label, value) pairs, the mover's;
    ``wins``: every player's value at each of them), its events (luck and decisions, dicts
    ready for JSON), and how it ended: the outcome ``(own, loss, win)`` in points, its value
    and the outcome's index (``out``)."""

    trace: list[tuple[str, float]] = field(default_factory=list)
    wins: list[list[float]] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    own: int = 0
    loss: int = 0
    win: bool = False
    end: str = ""
    value: float = 0.0
    out: int = -1


class TurnReplay:
    """Replays ``turn`` on the solved turn ``(om, pay, sol)`` of its card (from
    :func:`~solver.sabords.game.advice.card_turn_by_payoffs`); ``before`` is the value
    before the card is drawn, ``where`` names the position for the decisions and
    ``context`` adds fields to each decision (the scores and the phase).

    At a table: ``others`` holds the payoff per outcome of each player after the mover, in
    playing order (``(players - 1, outcomes)``), ``before`` is then every one's value (the
    mover's first), and ``seats`` the record's index of each of them (of ``players``)."""

    def __init__(self, rules: Rules, turn: TurnRecord, solved, before, where: str = "",
                 context: dict | None = None, others=None, seats: tuple[int, ...] = (0,),
                 players: int = 1):
        self.rules, self.turn, self.where = rules, turn, where
        self.context = context or {}
        self.om, self.pay, self.sol = solved
        self.problem = self.om.problem
        self.space = self.problem.space
        self.card = rules.card(turn.card)
        self.skull = rules.face(rules.skull)
        self.review = TurnReview()
        self.vec = np.atleast_1d(np.asarray(before, dtype=np.float64))
        self.value = float(self.vec[0])
        self.seats, self.players = seats, players
        self.pays = np.vstack([self.pay, *([] if others is None else [others])])
        self.review.trace.append(("before the card", self.value))
        self.review.wins.append(self._by_player(self.vec))
        # (own, loss, win) in units -> outcome index of the card's own table
        om_own, om_loss, om_win = card_turn(turn.card, rules)[1:]
        self.outcome = {(int(a), int(b), bool(c)): i
                        for i, (a, b, c) in enumerate(zip(om_own, om_loss, om_win, strict=True))}
        self.rows: dict[int, bool] = {}
        self.chest_node: int | None = None  # Treasure Island: the chest of the last reroll
        if self.om.protect_out is not None:
            self.chest_best = self.space.best_below(self.pay[self.om.protect_out])
            self.bust_chance = self.problem.bonus_expectation()
            self.chest_choice = best_protect(self.space, self.skull,
                                             self.pay[self.om.protect_out])
        self.values, self.q = self._values()

    def _values(self) -> tuple[np.ndarray, np.ndarray]:
        """Every player's value of each state and action under the mover's optimal play,
        ``(players, modes, F)`` and ``(players, A)``: the mover's are the solution's."""
        values, q = self.sol.value[None], self.sol.action_value[None]
        if len(self.pays) == 1:
            return values, q
        problem, om, others = self.problem, self.om, self.pays[1:]
        if len(others) == 1 and np.array_equal(others[0], 1.0 - self.pay):
            # two players: the other's payoff is one less the mover's, so is every expectation
            return np.concatenate([values, 1.0 - values]), np.concatenate([q, 1.0 - q])
        bonus = None
        if om.protect_out is not None:  # the mover's chest, paid to each player
            chest = om.protect_out[self.chest_choice[problem.act_keep]]
            bonus = others[:, chest] - others[:, [om.base_out]]
        own = evaluate(problem, self.sol.policy, others[:, om.stop_out], others[:, om.end_out],
                       bonus)
        landing = np.where(problem.live, own, others[:, om.end_out])
        theirs = self.space.expect(landing)[:, problem.act_next, problem.act_keep]
        if bonus is not None:
            theirs = theirs + self.bust_chance[problem.act_next, problem.act_keep] * bonus
        return np.concatenate([values, own]), np.concatenate([q, theirs])
    # -- helpers ---------------------------------------------------------------------------
    def _fail(self, roll: int | None, text: str) -> InputError:
        at = f"turn {self.turn.number} (line {self.turn.line})" + (f", roll {roll}" if roll
                                                                    else "")
        return InputError(f"{at}: {text}")

    def _pos(self, counts) -> int:
        return int(self.space.index(np.array(counts)) - self.space.full[0])

    def _dice(self, counts) -> str:
        return format_dice(np.asarray(counts), self.rules)

    def _by_player(self, vec) -> list[float]:
        """A vector by position (the mover first) as one entry per player of the record
        (zero for a player whose value the turn does not give)."""
        out = [0.0] * self.players
        for seat, value in zip(self.seats, vec, strict=False):
            out[seat] = float(value)
        return out

    def _luck(self, label: str, vec, roll: int | None) -> None:
        vec = np.asarray(vec, dtype=np.float64)
        value = float(vec[0])
        event = {"kind": "roll" if roll else "card", "turn": self.turn.number,
                 "label": label, "luck": value - self.value, "before": self.value,
                 "after": value, "by_player": self._by_player(vec - self.vec)}
        if roll:
            event["roll"] = roll
        self.review.events.append(event)
        self._step(label, vec)

    def _step(self, label: str, vec) -> None:
        self.review.trace.append((label, float(vec[0])))
        self.review.wins.append(self._by_player(vec))
        self.vec, self.value = vec, float(vec[0])

    def _option(self, mode: int, pos: int, action: int | None) -> np.ndarray:
        """Every player's value of an option: stopping (``None``) or an action."""
        if action is None:
            return self.pays[:, self.om.stop_out[mode, pos]].copy()
        return self.q[:, action].copy()

    def options(self, mode: int, pos: int) -> list[tuple[str, int | None, float]]:
        return turn_options(self.rules, (self.om, self.pay, self.sol), mode, pos)

    # -- the turn --------------------------------------------------------------------------
    def run(self) -> TurnReview:
        steps = self.turn.steps
        first = steps[0].roll
        pos = self._pos(first)
        card_value = [self.om.first_roll_value(values, pay)
                      for values, pay in zip(self.values, self.pays, strict=True)]
        self._luck(f"draws {self.turn.card}", card_value, None)
        if self.om.first_rows[pos]:
            return self._first_row_end(pos, first)
        mode = 0
        for number, step in enumerate(steps[1:], 2):
            if not self.problem.live[mode, pos]:
                raise self._fail(number, f"the turn was already bust at roll {number - 1} "
                                 f"({self._dice(steps[number - 2].roll)}): no roll follows")
            self._landed(mode, pos, number - 1)
            mode, pos = self._reroll(mode, pos, steps[number - 2].roll, step, number)
        self._landed(mode, pos, len(steps))
        return self._end(mode, pos)

    def _landed(self, mode: int, pos: int, roll: int) -> None:
        """The dice of roll ``roll`` show at ``(mode, pos)``: their value, once."""
        if roll in self.rows:
            return
        self.rows[roll] = True
        counts = self.space.counts[self.space.full[pos]]
        if self.problem.live[mode, pos]:
            _, action, value = max(self.options(mode, pos), key=lambda o: o[2])
            vec = self._option(mode, pos, action)
            vec[0] = value
        else:
            vec = self._bust_value(mode, pos)
        self._luck(f"roll {roll}: {self._dice(counts)}", vec, roll)

    def _bust_value(self, mode: int, pos: int) -> np.ndarray:
        if self.chest_node is not None:
            return self.pays[:, self.om.protect_out[self.chest_node]]
        return self.pays[:, self.om.end_out[mode, pos]]

    def _keep(self, shown, step, number) -> np.ndarray:
        """The dice kept before roll ``number``: as written, else every die that shows the
        same face again (the largest keep the two rolls allow)."""
        shown = np.array(shown)
        new = np.array(step.roll)
        if step.keep is not None:
            keep = np.array(step.keep)
            if np.any(keep > shown):
                raise self._fail(number, f"keeps {self._dice(keep)}, but roll {number - 1} "
                                 f"shows {self._dice(shown)}")
        elif step.reroll is not None:
            rolled = np.array(step.reroll)
            if np.any(rolled > shown):
                raise self._fail(number, f"rerolls {self._dice(rolled)}, but roll "
                                 f"{number - 1} shows {self._dice(shown)}")
            keep = shown - rolled
        else:
            keep = np.minimum(shown, new)
        if np.any(keep > new):
            raise self._fail(number, f"{self._dice(new)} cannot follow {self._dice(shown)} "
                             f"keeping {self._dice(keep)}: the kept dice must still show")
        return keep

    def _reroll(self, mode: int, pos: int, shown, step, number: int) -> tuple[int, int]:
        keep = self._keep(shown, step, number)
        rolled = np.array(shown) - keep
        rows = np.flatnonzero((self.problem.act_mode == mode) & (self.problem.act_state == pos))
        match = [a for a in rows
                 if np.array_equal(self.space.counts[self.problem.act_keep[a]], keep)]
        if not match:
            raise self._fail(number, self._illegal(mode, rows, rolled))
        action = int(match[0])
        value = float(self.sol.action_value[action])
        vec = self._option(mode, pos, action)
        label = f"reroll {self._dice(rolled)}"
        node = int(self.problem.act_keep[action])
        self.chest_node = None
        if self.om.protect_out is not None:
            self.chest_node = self._chest(step.chest, keep, number, node)
            # the option's value assumes the best chest; another chest pays less on a bust
            chance = self.bust_chance[self.problem.act_next[action], node]
            short = self.chest_best[node] - self.pay[self.om.protect_out[self.chest_node]]
            value -= float(chance * short)
            protect = self.om.protect_out
            vec -= chance * (self.pays[:, protect[self.chest_choice[node]]]
                             - self.pays[:, protect[self.chest_node]])
            label += f", chest {self._dice(self.space.counts[self.chest_node])}"
        vec[0] = value
        self._decide(mode, pos, label, vec, number - 1)
        new_mode = int(self.problem.act_next[action])
        return new_mode, self._pos(step.roll)

    def _chest(self, written, keep, number: int, node: int) -> int:
        """The node of the dice on Treasure Island's chest for this roll: as written, else
        the best for the kept dice ``node`` (what ``hold`` names)."""
        if written is None:
            return int(self.chest_choice[node])
        chest = np.array(written)
        if chest[self.skull]:
            raise self._fail(number, f"chest {self._dice(chest)}: a skull cannot go on the "
                             "chest")
        if np.any(chest > keep):
            raise self._fail(number, f"chest {self._dice(chest)} is not among the kept dice "
                             f"{self._dice(keep)}")
        return int(self.space.index(chest))

    def _illegal(self, mode: int, rows, rolled: np.ndarray) -> str:
        """Why no action keeps these dice: the rule the reroll breaks, in words."""
        rules, card = self.rules, self.card
        moved = int(rolled.sum())
        if not len(rows):
            return f"no reroll is left with the {card.name} card"
        if rolled[self.skull]:
            if not card.skull_rerolls:
                return (f"rerolls a skull ({self._dice(rolled)}): skulls stay where they "
                        "fall (only the Sorceress frees one, once)")
            if mode:
                return f"rerolls a skull ({self._dice(rolled)}): the Sorceress is used already"
            if rolled[self.skull] > card.skull_rerolls:
                return (f"rerolls {int(rolled[self.skull])} skulls: the Sorceress frees "
                        f"{card.skull_rerolls}")
        if moved == 0:
            return "rerolls no die: write 'stop' to end the turn"
        least = rules.sorceress_min_reroll if rolled[self.skull] else rules.min_reroll
        if moved < least:
            return (f"rerolls {moved} die ({self._dice(rolled)}): a reroll moves at least "
                    f"{least} dice")
        return (f"rerolling {self._dice(rolled)} is not a legal reroll with the {card.name} "
                "card")

    def _decide(self, mode: int, pos: int, played: str, vec, roll: int) -> None:
        value = float(vec[0])
        options = self.options(mode, pos)
        best_label, best_action, best = max(options, key=lambda o: o[2])
        best_vec = self._option(mode, pos, best_action)
        best_vec[0] = best
        if self.om.protect_out is not None and best_action is not None:
            node = int(self.problem.act_keep[best_action])
            chest = self.space.counts[self.chest_choice[node]]
            best_label += f", chest {self._dice(chest)}"
        counts = self.space.counts[self.space.full[pos]]
        event = {"kind": "decision", "turn": self.turn.number, "roll": roll,
                 "position": ", ".join(part for part in (self.where, self.turn.card,
                                                         self._dice(counts)) if part),
                 "dice": self._dice(counts), "played": played, "best": best_label,
                 "played_value": value, "best_value": best, "cost": best - value,
                 "choices": len(options), "card": self.turn.card, **self.context,
                 "sorceress_used": bool(self.card.skull_rerolls and mode),
                 "rerolled": bool(self.card.rerolls < NO_LIMIT and mode),
                 "by_player": self._by_player(best_vec - vec)}
        self.review.events.append(event)
        self._step(f"plays {played}", vec)

    def _end(self, mode: int, pos: int) -> TurnReview:
        counts = self.space.counts[self.space.full[pos]].astype(int)
        written = self.turn.end
        steps = len(self.turn.steps)
        if self.problem.live[mode, pos]:
            out = int(self.om.stop_out[mode, pos])
            # (sorceress-saves-bust) the third skull with the Sorceress unused: stopping is
            # accepting the bust, which the record may call one
            accepts = out == int(self.om.end_out[mode, pos])
            if written == "island" or written == "bust" and not accepts:
                raise self._fail(steps, f"{self._dice(counts)} is not {written}: the turn "
                                 "can stop here")
            self._decide(mode, pos, "stop", self.pays[:, out], steps)
            end = "bust" if accepts else "stop"
        else:
            if written == "stop" or written == "island":
                raise self._fail(steps, f"{self._dice(counts)} is bust ({int(counts[self.skull])}"
                                 f" skulls{self._card_skulls()}): the turn cannot {written}")
            end = "bust"
            out = int(self.om.end_out[mode, pos] if self.chest_node is None
                      else self.om.protect_out[self.chest_node])
        return self._finish(out, end)

    def _card_skulls(self) -> str:
        extra = self.card.extra_skulls
        return f" and {extra} on the card" if extra else ""

    def _first_row_end(self, pos: int, first) -> TurnReview:
        """A first roll that decides the turn (the Island of Skulls, or a turn lost at once):
        no choice, the luck of the roll, then the luck of how the Island ends."""
        row = self.om.first_rows[pos]
        vec = sum(q * self.pays[:, o] for o, q in row.items())
        self._luck(f"roll 1: {self._dice(first)}", vec, 1)
        steps = self.turn.steps
        if not self.card.island:  # enough skulls for the Island, on a card without one
            if len(steps) > 1 or self.turn.end not in (None, "bust"):
                raise self._fail(1, f"{self._dice(first)} ends the turn at once (no Island "
                                 f"of Skulls with the {self.card.name} card)")
            return self._finish(next(iter(row)), "lost")
        if self.turn.end in ("stop", "bust"):
            raise self._fail(1, f"{self._dice(first)} goes to the Island of Skulls: the "
                             f"turn cannot {self.turn.end}")
        loss = self._island(steps)
        out = self.outcome.get((0, loss // UNIT, False))
        if out is None or out not in row:
            raise self._fail(len(steps), f"an Island of Skulls that starts with "
                             f"{self._dice(first)} cannot cost {loss} points")
        self._luck(f"the Island ends: each opponent loses {loss}", self.pays[:, out],
                   len(steps))
        return self._finish(out, "island")

    def _island(self, steps) -> int:
        """Each opponent's loss on the Island the rolls show (every non-skull die is rolled
        each time, and a roll without a new skull ends it)."""
        rules, card = self.rules, self.card
        if rules.island_reroll != "all" or rules.sorceress_on_island:
            raise self._fail(1, "the review follows the Island of Skulls under the default "
                             "reading only (every non-skull die rolled)")
        skulls = steps[0].roll[self.skull]
        sabre = rules.face(rules.sabre)
        shown_sabre = steps[0].roll[sabre] > 0
        for number, step in enumerate(steps[1:], 2):
            left = rules.dice - skulls
            if number - 1 > card.island_rerolls or left < ISLAND_MIN_ROLL:
                raise self._fail(number, "the Island of Skulls was over: no roll follows")
            if number > 2 and steps[number - 2].roll[self.skull] == \
                    steps[number - 3].roll[self.skull]:
                raise self._fail(number, f"roll {number - 1} added no skull: the Island of "
                                 "Skulls was over")
            if step.roll[self.skull] < skulls:
                raise self._fail(number, f"{self._dice(step.roll)} cannot follow "
                                 f"{self._dice(steps[number - 2].roll)}: skulls stay on the "
                                 "Island")
            if (step.keep or step.reroll or step.chest) is not None:
                raise self._fail(number, "on the Island of Skulls every non-skull die is "
                                 "rolled: write the dice only")
            skulls = step.roll[self.skull]
            shown_sabre = shown_sabre or step.roll[sabre] > 0
        final_sabre = steps[-1].roll[sabre] > 0
        showing = shown_sabre if rules.truce_island_sabre == "any" else final_sabre
        counted = penalty_skulls(island_count(skulls, card, rules), card, rules)
        return int(island_loss(counted, card, rules, sabre_showing=showing))

    def _finish(self, out: int, end: str) -> TurnReview:
        om_own, om_loss, om_win = card_turn(self.turn.card, self.rules)[1:]
        review = self.review
        review.own, review.loss = int(om_own[out]) * UNIT, int(om_loss[out]) * UNIT
        review.win, review.end = bool(om_win[out]), end
        review.value, review.out = float(self.pay[out]), out
        if np.any(self.vec != self.pays[:, out]):  # a stop's value is its outcome's, exactly
            self._luck("the turn ends", self.pays[:, out], None)
        self._check_points(end)
        return review

    def _check_points(self, end: str) -> None:
        written = self.turn.points
        if written is None:
            return
        review = self.review
        said, got = (written, review.loss) if end == "island" else (written, review.own)
        if said != got:
            what = "each opponent loses" if end == "island" else "the turn scores"
            raise self._fail(None, f"the score does not add up: {what} {got:+d} with these "
                             f"dice, not {said:+d}")


def turn_options(rules: Rules, solved, mode: int, pos: int) -> list[tuple[str, int | None,
                                                                          float]]:
    """Every option at ``(mode, pos)`` of the solved turn ``(om, pay, sol)`` as (label,
    action, value), stop first: the values ``hold`` lists for these dice."""
    om, pay, sol = solved
    problem, space = om.problem, om.problem.space
    rows = np.flatnonzero((problem.act_mode == mode) & (problem.act_state == pos))
    counts = space.counts[space.full[pos]].astype(int)
    out = [("stop", None, float(pay[om.stop_out[mode, pos]]))]
    for a in rows:
        keep = space.counts[problem.act_keep[a]].astype(int)
        out.append((f"reroll {format_dice(counts - keep, rules)}", int(a),
                    float(sol.action_value[a])))
    return out
