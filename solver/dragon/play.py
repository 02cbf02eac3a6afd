"""How often each sampled rule point arises in play: a seeded simulation of whole games.

``ambiguity.py`` measures a reading's effect on random situations in which its point can
arise; this module measures how often that situation comes up in a game. Four hunters (four
of the six colours, a different choice each game) play on the opening board with one shared
99-card deck (the assumed action counts), six cards a hand, clockwise. On each turn, before it
is played, every sampled point is checked:

* **arises**: the turn is the point's situation (``[NAME.situation]`` in
  ``models/dracheninsel/variants.toml``: where the mover stands, what else is on the island,
  which cards the hand holds), tested on the real position and hand;
* **decides**: it arises, and the turn's optimum differs between the two readings: the
  default's optimal plan is illegal or no longer optimal under the other reading (the same
  test as ``ambiguity.py``'s "situations whose best action changes"); both readings are solved
  exactly.

The turn is then played by the default reading's optimum (the router's best turn, as in
``simulate.py``). Rules of the simulation, each a simplification of the table:

* a hunter that carries no treasure when none is left on the treasure field (nothing for the
  router to head for), and a hunter waiting on the treasure field, keep their hands and do
  nothing;
* a turn that plays no card and does not reach its goal is a pass that exchanges the whole hand;
* after a turn the mover draws up to six; cards taken by Böser Fluch or Hinterhältiger Angriff
  are not played (the router never plans with unknown cards), nor are the green cards
  (Süßer Schlummer, Gegenzauber, Untreue): every treasure is shared;
* a dragon the router moves out of its way (Drachenpatrouille) lands on a random legal field
  the route does not touch;
* the game ends when every treasure is delivered or taken out of the game (``MAX_TURNS``
  stops a game that stalls; the report says how many did).

A turn's count is 0 or 1 for each point, so a share is (turns where it arises) / (turns
simulated); its standard error treats the games as independent clusters of turns.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from solver.dragon.board import Island, default_island
from solver.dragon.cards import Card, deck, parse_card
from solver.dragon.move import Move, played
from solver.dragon.position import Hunter, Position
from solver.dragon.route import RouteQuery
from solver.dragon.rulebook import Turn, dragon_sites
from solver.dragon.rules import rule_variants

GAMES = 40  # simulated games (each about 30 turns)
SEED = 7117
PLAYERS = 4  # hunters in a game: the rulebook explains the game for four or five
MAX_TURNS = 200  # a game that has not ended by then is stopped (reported)


# ---- which points a turn touches ------------------------------------------------------------


def _actions_needed(spec: dict) -> list[str]:
    """The actions the situation's hand must show (``own-double`` is checked apart)."""
    out = []
    for name in spec.get("cards", []):
        if name != "own-double":
            out += list(parse_card(name).actions)
    return out


def arises(q: RouteQuery, spec: dict) -> bool:
    """Is this turn the point's situation: the mover, the island and the hand as the spec says?"""
    from solver.dragon.ambiguity import fits

    if not fits(q.position, q.hunter, spec):
        return False
    hand = list(q.hand)
    if "own-double" in spec.get("cards", []):
        if not any(len(c.terrains) == 2 and q.own in c.terrains for c in hand):
            return False
    for action in _actions_needed(spec):
        card = next((c for c in hand if action in c.actions), None)
        if card is None:
            return False
        hand.remove(card)  # two Weite Reise need two cards
    return True


@dataclass
class TurnCount:
    """What one turn shows for one point: whether it arises and whether it decides the turn."""

    arises: bool = False
    decides: bool = False
    value_changes: bool = False


def count_turn(q: RouteQuery, default_result=None) -> dict[str, TurnCount]:
    """For every sampled rule point, whether this turn arises in its situation and whether the
    reading decides the turn (both readings solved exactly). ``default_result``: the default
    reading's optimum, when already solved."""
    from solver.dragon.ambiguity import plan_still_best, solve, with_reading

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


# ---- the game --------------------------------------------------------------------------------


@dataclass
class Cards:
    """One draw pile, one discard pile, a hand per hunter."""

    rng: random.Random
    draw: list[Card]
    hand_size: int
    discard: list[Card] = field(default_factory=list)
    hands: dict[str, list[Card]] = field(default_factory=dict)

    def refill(self, colour: str) -> None:
        hand = self.hands.setdefault(colour, [])
        while len(hand) < self.hand_size:
            if not self.draw:
                self.draw, self.discard = self.discard, []
                self.rng.shuffle(self.draw)
                if not self.draw:
                    return
            hand.append(self.draw.pop())

    def play(self, colour: str, names: list[str]) -> None:
        hand = self.hands[colour]
        for name in names:
            card = next(c for c in hand if c.name == name)
            hand.remove(card)
            self.discard.append(card)

    def exchange(self, colour: str) -> None:
        self.discard += self.hands[colour]
        self.hands[colour] = []


@dataclass
class GameCount:
    """One simulated game: turns played, whether it ended, and each point's counts."""

    turns: int = 0
    ended: bool = False
    arises: dict[str, int] = field(default_factory=dict)
    decides: dict[str, int] = field(default_factory=dict)
    value_changes: dict[str, int] = field(default_factory=dict)

    def add(self, counts: dict[str, TurnCount]) -> None:
        for name, tc in counts.items():
            self.arises[name] = self.arises.get(name, 0) + tc.arises
            self.decides[name] = self.decides.get(name, 0) + tc.decides
            self.value_changes[name] = self.value_changes.get(name, 0) + tc.value_changes

    def to_json(self) -> dict:
        return {"turns": self.turns, "ended": self.ended,
                "arises": dict(sorted(self.arises.items())),
                "decides": dict(sorted(self.decides.items())),
                "value_changes": dict(sorted(self.value_changes.items()))}


def after_turn(q: RouteQuery, plan: list[Move], rng: random.Random) -> tuple[Position, int]:
    """The position after the mover plays ``plan``, and the treasures delivered by it (0 or 1).

    The plan is played through the rulebook (:class:`~solver.dragon.rulebook.Turn`), whose
    state carries every hunter, tile and dragon; a dragon the plan moved out of the way (or
    set) is placed on a random legal field the route never touched."""
    turn = Turn(q)
    st, _ = turn.play(plan)
    placed: list[int] = []
    if st.dragons_off:
        isl = q.position.island
        touched = {isl.node(m.to) for m in plan} | {q.position.hunters[q.hunter].at}
        after, _ = turn.position(st)
        taken = {h.at for h in after.hunters.values()} | set(st.dragons) | touched
        placed = rng.sample(dragon_sites(isl, taken), st.dragons_off)
    return turn.position(st, placed)


def _treasures_out(pos: Position) -> int:
    """Treasures on the island: on the treasure field, carried by a pair, or guarded alone."""
    pairs = {frozenset((h.colour, h.partner)) for h in pos.hunters.values() if h.partner}
    guards = sum(h.guarding for h in pos.hunters.values())
    return (pos.treasure is not None) + len(pairs) + guards


def play_game(index: int, seed: int = SEED, island: Island | None = None,
              on_turn: Callable[[RouteQuery], None] | None = None) -> GameCount:
    """Simulate game ``index`` (its own random stream) and count every point on every turn."""
    from solver.dragon.ambiguity import solve

    island = island or default_island()
    rng = random.Random(f"{seed}:game:{index}")
    colours = sorted(rng.sample(list(island.boat_colours), PLAYERS),
                     key=island.boat_colours.index)
    draw = deck(island.model)
    rng.shuffle(draw)
    cards = Cards(rng, draw, island.model.hand_size)
    for c in colours:
        cards.refill(c)
    hunters = {c: Hunter(c, island.boat_node[c]) for c in colours}
    pos = Position(island, island.start_tiles(), [], hunters, island.model.coins["values"][0])
    out = GameCount()
    mover = rng.randrange(PLAYERS)  # "Es wird ausgelost, welcher Spieler beginnt."
    while out.turns < MAX_TURNS:
        if not _treasures_out(pos):
            out.ended = True
            break
        colour = colours[mover % PLAYERS]
        mover += 1
        me = pos.hunters[colour]
        out.turns += 1
        if me.at == island.treasure or (me.partner is None and pos.treasure is None):
            continue  # waiting on the treasure field, or nothing to head for
        q = RouteQuery(pos, colour, list(cards.hands[colour]))
        result = solve(q)
        if on_turn:
            on_turn(q)
        out.add(count_turn(q, result))
        used = played(result.plan)
        if not used and not result.reachable:
            cards.exchange(colour)
        else:
            cards.play(colour, used)
            pos, _ = after_turn(q, result.plan, rng)
        cards.refill(colour)
    return out


def _game(args: tuple[int, int]) -> dict:
    index, seed = args
    return play_game(index, seed).to_json()


def simulate_play(games: int = GAMES, seed: int = SEED, workers: int = 2) -> dict:
    """Every game's counts (a list, game by game) and their totals per point."""
    jobs = [(i, seed) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            rows = list(pool.map(_game, jobs))
    else:
        rows = [_game(j) for j in jobs]
    print(f"  dracheninsel play: {games} games, {sum(r['turns'] for r in rows)} turns",
          file=sys.stderr, flush=True)
    return {"games": games, "seed": seed, "players": PLAYERS, "per_game": rows}


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
