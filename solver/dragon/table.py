"""Die Dracheninsel's executable rulebook of the cards played between players.

:mod:`solver.dragon.rulebook` holds the mover's own turn (steps, flights, Weite Reise, swaps,
Drachenpatrouille, Angst & Schrecken); this module holds the cards that take or give cards,
answer another card, stop the mover or decide a delivered treasure: Hinterhältiger Angriff,
Böser Fluch, Gegenzauber, Süßer Schlummer, Untreue, and the pass. In the same style: a typed
:class:`Play`, ``legal_plays(table, moment)`` and ``apply(table, play)``, over a :class:`Table`
(one hand per seat, the draw and discard piles). Each card's effect is written here once; the
simulated games (:mod:`solver.dragon.play`) only choose among the legal plays.

Readings of unclear rules are named variants (``models/dracheninsel/variants.toml``):
``counterspell-chain`` (may a Gegenzauber be answered by a Gegenzauber?), ``counterspell-curse``
(does Gegenzauber cancel Böser Fluch?), ``slumber-delivery`` (may Süßer Schlummer stop a pair
entering a boat?), ``slumber-ends-turn`` (may a mover stopped before doing anything pass?).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from solver.dragon.cards import Card

KINDS = ("ambush", "curse", "counterspell", "slumber", "betrayal", "pass")
ANSWERED = ("ambush", "slumber", "fright")  # Gegenzauber's list (002:541-543)


@dataclass(frozen=True)
class Play:
    """One card play at the table (or a pass).

    - ``ambush``: Hinterhältiger Angriff, one random card from ``target``'s hand;
    - ``curse``: Böser Fluch, the whole hand discarded, ``draws`` random cards from each other
      seat (fewer from a seat that holds fewer);
    - ``counterspell``: Gegenzauber, cancels the card being answered;
    - ``slumber``: Süßer Schlummer, the mover's action is taken back and its turn ends;
    - ``betrayal``: Untreue, claims the whole delivered treasure;
    - ``pass``: the mover lays down ``lay_down`` and draws back up to the hand size.
    """

    kind: str
    seat: int
    card: str = ""
    target: int | None = None
    lay_down: tuple[str, ...] = ()


class Moment(NamedTuple):
    """When cards may be played.

    ``kind``: ``turn-start`` (the mover, before its first action), ``answer`` (``card`` was
    just played by ``by`` against the seats ``against``), ``action`` (the mover's action is
    about to stand; ``leaving``: the pair leaves the treasure field, ``delivery``: a pair
    enters a boat), ``claim`` (a treasure delivered to ``owner``'s boat with ``partner``;
    ``by``: who claimed last, -1 nobody yet), ``idle`` (the mover was stopped before doing
    anything)."""

    kind: str
    mover: int
    card: str = ""
    by: int = -1
    against: tuple[int, ...] = ()
    owner: int = -1
    partner: int = -1
    leaving: bool = False
    delivery: bool = False


@dataclass
class Table:
    """One hand per seat, the draw pile and the discard pile (the lone hunter's simulation,
:mod:`solver.dragon.simulate`, uses one seat)."""

    rng: random.Random
    draw: list[Card]
    hands: list[list[Card]]
    hand_size: int
    readings: dict[str, str]
    curse_draws: int = 1  # cards Böser Fluch takes from each other seat
    discard: list[Card] = field(default_factory=list)

    @classmethod
    def shuffled(cls, rng: random.Random, cards: list[Card], seats: int, hand_size: int,
                 readings: dict[str, str], curse_draws: int = 1) -> Table:
        """A new table: ``cards`` shuffled into the draw pile, ``seats`` empty hands."""
        draw = list(cards)
        rng.shuffle(draw)
        return cls(rng, draw, [[] for _ in range(seats)], hand_size, readings, curse_draws)

    def holding(self, seat: int, action: str) -> list[Card]:
        """The cards of ``seat`` that show ``action``, single-action cards first."""
        return sorted((c for c in self.hands[seat] if action in c.actions),
                      key=lambda c: (len(c.actions), c.name))

    def refill(self, seat: int) -> None:
        """Draw up to the hand size (the discard pile reshuffled when the draw pile runs out)."""
        hand = self.hands[seat]
        while len(hand) < self.hand_size:
            if not self.draw:
                self.draw, self.discard = self.discard, []
                self.rng.shuffle(self.draw)
                if not self.draw:
                    return
            hand.append(self.draw.pop())

    def spend(self, seat: int, names: list[str]) -> None:
        """Lay the named cards from ``seat``'s hand on the discard pile."""
        hand = self.hands[seat]
        for name in names:
            card = next(c for c in hand if c.name == name)
            hand.remove(card)
            self.discard.append(card)

    def answerable(self) -> tuple[str, ...]:
        """The cards a Gegenzauber cancels under the readings in force."""
        out = ANSWERED
        if self.readings["counterspell-curse"] == "allowed":
            out += ("curse",)
        if self.readings["counterspell-chain"] == "allowed":
            out += ("counterspell",)
        return out


def legal_plays(table: Table, m: Moment) -> list[Play]:
    """Every card play the rules allow at moment ``m`` (each card kind once per seat).
    Süßer Schlummer names the mover as its ``target``."""
    seats = range(len(table.hands))
    out: list[Play] = []

    def each(seat: int, action: str, target: int | None = None) -> None:
        for name in sorted({c.name for c in table.holding(seat, action)}):
            out.append(Play(action, seat, name, target=target))

    if m.kind == "turn-start":
        for s in seats:
            if s != m.mover and table.hands[s]:
                each(m.mover, "ambush", target=s)
        each(m.mover, "curse")
    elif m.kind == "answer" and m.card in table.answerable():
        for s in seats:
            if s != m.by:
                each(s, "counterspell")
    elif m.kind == "action" and not m.leaving:
        if not m.delivery or table.readings["slumber-delivery"] == "allowed":
            for s in seats:
                if s != m.mover:
                    each(s, "slumber", target=m.mover)
    elif m.kind == "claim" and m.owner != m.partner:
        # only the owner starts the fight (002:316); then the two answer card for card
        each(m.partner if m.by == m.owner else m.owner, "betrayal")
    elif m.kind == "idle" and table.readings["slumber-ends-turn"] == "pass-if-nothing-done":
        out.append(Play("pass", m.mover))
    return out


def against(table: Table, play: Play) -> tuple[int, ...]:
    """The seats a card works against (the ones that may wish to cancel it)."""
    if play.kind == "curse":
        n = len(table.hands)
        return tuple((play.seat + k) % n for k in range(1, n))
    if play.kind in ("ambush", "slumber"):
        return (play.target,)
    return ()


def apply(table: Table, play: Play,
          answer: Callable[[Play, Moment], bool] | None = None) -> tuple[bool, list[Card]]:
    """Play ``play``: its card goes to the discard pile; a card Gegenzauber can cancel is
    answered (``answer``: each player's choice, see :func:`answered`); if it stands, its
    effect on the cards is done. Returns (it stands, the cards the player took or drew)."""
    hand = table.hands[play.seat]
    if play.kind == "pass":
        table.spend(play.seat, list(play.lay_down))
        before = len(hand)
        table.refill(play.seat)
        return True, hand[before:]
    table.spend(play.seat, [play.card])
    if answer is not None and not answered(table, play.kind, play.seat,
                                           against(table, play), answer):
        return False, []
    if play.kind == "ambush":
        return True, _take(table, play.seat, play.target, 1)
    if play.kind == "curse":
        table.discard += hand
        hand.clear()
        taken = []
        for victim in against(table, play):
            taken += _take(table, play.seat, victim, table.curse_draws)
        return True, taken
    return True, []


def _take(table: Table, seat: int, victim: int | None, count: int) -> list[Card]:
    """``count`` random cards from ``victim``'s hand into ``seat``'s (fewer if it holds fewer:
    002:490-492)."""
    if victim is None:
        return []
    theirs = table.hands[victim]
    taken = [theirs.pop(table.rng.randrange(len(theirs)))
             for _ in range(min(count, len(theirs)))]
    table.hands[seat].extend(taken)
    return taken


def answered(table: Table, card: str, by: int, victims: tuple[int, ...],
             answer: Callable[[Play, Moment], bool]) -> bool:
    """Does ``card`` (action name), just played by ``by`` against ``victims``, keep its effect?
    Gegenzauber cancels it; under ``counterspell-chain=allowed`` a Gegenzauber may be answered
    in turn, and so on. ``answer(play, moment)``: a player's choice whether to make a legal
    Gegenzauber play (made plays are applied here)."""
    effect = True
    last_by, last_card, side = by, card, victims
    while True:
        m = Moment("answer", by, last_card, last_by, side)
        play = next((p for p in legal_plays(table, m) if answer(p, m)), None)
        if play is None:
            return effect
        table.spend(play.seat, [play.card])
        effect = not effect
        side = (last_by,)
        last_by, last_card = play.seat, "counterspell"


def would_stand(table: Table, play: Play, answer: Callable[[Play, Moment], bool],
                readings: dict[str, str] | None = None) -> bool:
    """Would ``play`` stand (a dry run of :func:`apply` on copied hands, under ``readings``
    when given)? No card leaves a hand and the table's random stream is not touched."""
    copy = Table(random.Random(0), [], [list(h) for h in table.hands], table.hand_size,
                 {**table.readings, **(readings or {})}, table.curse_draws)
    return apply(copy, play, answer)[0]


def claim(table: Table, owner: int, partner: int,
          wants: Callable[[Play, Moment], bool]) -> int | None:
    """Untreue at a delivery to ``owner``'s boat with ``partner``: the owner may start, then
    the two answer card for card; the seat that played the last Untreue gets both coins (None:
    the owner shares, one coin each). ``wants(play)``: a player's choice."""
    last = -1
    while True:
        m = Moment("claim", owner, by=last, owner=owner, partner=partner)
        play = next((p for p in legal_plays(table, m) if wants(p, m)), None)
        if play is None:
            return None if last == -1 else last
        apply(table, play)
        last = play.seat
