"""Seeded simulated games of Die Dracheninsel with the whole deck, scored with coins.

Two, three and four players play on the opening board with one shared 99-card deck (the
assumed action counts), one hand of six a player, clockwise from a seat drawn by lot. With
four players each player has one hunter (four of the six colours, a different choice each
game); with three, each has two hunters and one hand (the appendix: red and grey, green and
blue, brown and yellow) and moves one of them a turn; two players play by the appendix too
(an assumption, ``[players]`` in ``models/dracheninsel/rules.toml``). The coins are the
fourteen of the box: the two 100s first, then 125, 150, 175, 200, 240, 300; the game ends
when every treasure is delivered or taken out of the game, and the highest total wins (a tie:
the highest single coin; the same coins: both win).

The policy of each card (the cards' rules are :mod:`solver.dragon.table` and
:mod:`solver.dragon.rulebook`; this module only chooses):

* **moving** (terrain cards, Tollkühner Flug, Weite Reise, Drachenpatrouille, Angst &
  Schrecken): the route finders' optimal turn for the hunter's goal (the treasure field, or a
  boat when carrying); with two hunters, the hunter whose turn is best (reaches its goal,
  then the fewest cards short, a delivery first, then the fewest cards spent). A dragon lifted
  or set by Drachenpatrouille lands on a random legal field the route does not touch;
* **Zerstörende Kräfte, Tosende Elemente**: played only when the route without them falls
  exactly one card short of the goal; then the turn is planned exactly with them
  (``route_method.best_route``);
* **Hinterhältiger Angriff**: at the start of the turn, against the player holding the most
  cards (the first clockwise on a tie);
* **Böser Fluch**: at the start of the turn (after any Angriff) when the hand cannot reach
  the goal this turn; the turn is then planned with the cards drawn;
* **Gegenzauber**: played by the player a card works against (the robbed player, the mover
  stopped by Süßer Schlummer, the owner of a hunter sent home by Angst & Schrecken) whenever
  it holds one; where a Gegenzauber may be answered, the card's player answers whenever it
  holds one. A mover whose Angst & Schrecken is cancelled ends its turn there;
* **Süßer Schlummer**: played by the first player clockwise from the mover that holds one
  against the action that reaches the mover's goal (entering the treasure field, as first or
  second, or a pair entering a boat), unless that action serves one of its own hunters (the
  waiter the mover joins, or the mover's partner). The action is taken back, its cards stay
  played, and the turn ends;
* **Untreue**: the boat's owner claims the delivered treasure whenever it holds one; the
  partner answers whenever it holds one, and so on;
* **a pass** (no card played and the goal not reached, or after a Süßer Schlummer that left
  the mover nothing done) lays down every card the mover's best plan does not play when that
  plan reaches the goal, and the whole hand otherwise; a hunter waiting on the treasure field
  and a hunter with nothing to head for do nothing.

Every reading of the rules that acts in play is counted where its rule applies
(``playcount.GameRecord.event``): **arises** (the rule is met) and **decides** (the two
readings part there: the turn ends differently). ``VARIANT_PLAY`` names, for each reading,
the other reading a game can be replayed under; a game where the reading never decided a
turn plays identically under it. Arises / decides, reading by reading:

* counterspell-chain: a Gegenzauber answers a card / the card's player then holds one too;
* counterspell-curse: a Böser Fluch is played / a player it robs holds a Gegenzauber;
* slumber-delivery: a pair enters a boat / a player who may stop it holds Süßer Schlummer;
* slumber-ends-turn: Süßer Schlummer stops a mover that had done nothing / the pass lays
  down a card (no-pass: no pass);
* last-action: Süßer Schlummer stops an action that plays two cards / never: both readings
  leave the same place and the same cards (played cards never return to the hand);
* six-actions: the mover took cards from others this turn / its plan plays more than six
  cards with the Angriff or Fluch (at-most-six: the plan stops before the seventh);
* long-journey-duration: the plan plays Weite Reise / it enters the freed terrain without a
  card after playing another card (one-action: free until the next card; the plan stops);
* three-player-colours: a player with two hunters holds a card of its other colour or pays
  for a field of it / it pays for such a field (per-player: the same plan keeps that card, a
  lower bound on the reading's effect);
* waiter-swaps: another player's hunter waits on the treasure field holding a swap card
  while the mover heads there / the mover falls one card short and reaches the field with
  that card (out-of-turn: the waiter plays it for the mover);
* frightened-lone-carrier: Angst & Schrecken sends a lone carrier home / always (the
  treasure leaves the game or stays); no replay: a treasure without a hunter is no state of
  the position model, so the report bounds the effect by the treasure's worth;
* tie-break-gap (once a game): the game ends with equal totals and equal highest coins but
  other coins different / the winners differ.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from solver.dragon.board import Island, default_island
from solver.dragon.cards import Card, deck, holds_swap
from solver.dragon.move import Move, played
from solver.dragon.playcount import GameRecord, count_turn
from solver.dragon.position import Hunter, Position
from solver.dragon.route import RouteQuery, RouteResult
from solver.dragon.route_method import best_route
from solver.dragon.rulebook import DONE, GUARD, GUARDING, SECOND, Turn, TurnState, dragon_sites
from solver.dragon.rules import table_readings
from solver.dragon.table import (
    Moment,
    Play,
    Table,
    against,
    answered,
    apply,
    claim,
    legal_plays,
)

SEED = 7117
PLAYER_COUNTS = (2, 3, 4)
GAMES_PER_COUNT = 15  # simulated games per player count (2, 3, 4), besides the replays
MAX_TURNS = 200  # a game that has not ended by then is stopped (reported)
# what the game does under each other reading (module docstring: the policies)
VARIANT_PLAY = {
    "counterspell-chain": "allowed",
    "counterspell-curse": "allowed",
    "slumber-delivery": "forbidden",
    "slumber-ends-turn": "no-pass",
    "six-actions": "at-most-six",
    "long-journey-duration": "one-action",
    "three-player-colours": "per-player",
    "waiter-swaps": "out-of-turn",
}


def _answer(play: Play, m: Moment) -> bool:
    """Gegenzauber policy: the seat a card works against answers it, and so does the card's
    player when its card is answered."""
    return play.seat in m.against


def _claims(play: Play, m: Moment) -> bool:
    """Untreue policy: always claim, always answer."""
    return True


@dataclass
class Game:
    """One simulated game in progress."""

    pos: Position
    table: Table
    seats: list[tuple[str, ...]]
    readings: dict[str, str]
    rng: random.Random
    record: GameRecord
    carried: dict[str, int]  # colour -> value of the treasure it carries or guards
    coins: list[list[int]]
    removed: list[int]
    route_points: bool = True

    def seat_of(self, colour: str) -> int:
        return next(i for i, s in enumerate(self.seats) if colour in s)


def new_game(index: int, players: int, seed: int = SEED, readings: dict | None = None,
             island: Island | None = None) -> tuple[Game, int]:
    """The opening of game ``index`` with ``players`` players, and the first seat."""
    island = island or default_island()
    model = island.model
    spec = model.raw["players"]
    rng = random.Random(f"{seed}:game:{players}:{index}")
    if players in spec["two_hunters"]:
        pairs = [tuple(p) for p in spec["pairs"]]
        seats = rng.sample(pairs, players)
        draws = int(spec["curse_draws_two_hunters"])
    else:
        colours = rng.sample(list(island.boat_colours), players)
        seats = [(c,) for c in sorted(colours, key=island.boat_colours.index)]
        draws = int(spec["curse_draws"])
    table = Table.shuffled(rng, deck(model), len(seats), model.hand_size,
                           table_readings(readings), draws)
    for s in range(players):
        table.refill(s)
    hunters = {c: Hunter(c, island.boat_node[c]) for seat in seats for c in seat}
    pos = Position(island, island.start_tiles(), [], hunters, model.coins["values"][0])
    game = Game(pos, table, seats, table.readings, rng, GameRecord(players, index), {},
                [[] for _ in seats], [])
    return game, rng.randrange(players)  # "Es wird ausgelost, welcher Spieler beginnt."


# ---- routes -----------------------------------------------------------------------------


def query(pos: Position, colour: str, hand: list[Card],
          variants: dict[str, str] | None = None) -> RouteQuery:
    """A route query whose hand may hold more than six cards (cards drawn from others)."""
    q = RouteQuery(pos, colour, hand[: pos.island.model.hand_size], None, dict(variants or {}))
    q.hand = list(hand)
    return q


def route(q: RouteQuery) -> RouteResult:
    """The swap policy: the best route without the swap cards; with them only when that
    falls exactly one card short of the goal."""
    return _with_swaps(q, _plain(q))


def _plain(q: RouteQuery) -> RouteResult:
    return best_route(query(q.position, q.hunter, [c for c in q.hand if not c.swaps()],
                            q.variants))


def _with_swaps(q: RouteQuery, plain: RouteResult) -> RouteResult:
    if plain.remaining != 1 or not holds_swap(q.hand):
        return plain
    return best_route(q)


def _movable(pos: Position, colour: str) -> bool:
    h = pos.hunters[colour]
    if h.at == pos.island.treasure:
        return False  # waiting on the treasure field
    return h.partner is not None or pos.treasure is not None


def best_hunter(g: Game, seat: int) -> tuple[RouteQuery, RouteResult]:
    """The hunter of ``seat`` to move and its route: chosen on the routes without swap cards
    (reaches its goal, the fewest cards short, a delivery first, the fewest cards spent)."""
    options = []
    for colour in g.seats[seat]:
        if _movable(g.pos, colour):
            q = query(g.pos, colour, g.table.hands[seat])
            r = _plain(q)
            options.append(((r.value[0], q.goal != "boat", r.value[1], colour), q, r))
    _, q, r = min(options, key=lambda o: o[0])
    return q, _with_swaps(q, r)


# ---- one turn ---------------------------------------------------------------------------


def play_turn(g: Game, seat: int) -> None:
    """Seat ``seat`` plays one turn (every policy of the module docstring)."""
    rec, t = g.record, g.table
    rec.turns += 1
    if not any(_movable(g.pos, c) for c in g.seats[seat]):
        return
    start_cards, drawn = 0, 0
    ambush = [p for p in legal_plays(t, Moment("turn-start", seat)) if p.kind == "ambush"]
    if ambush:
        most = max(len(t.hands[p.target]) for p in ambush)
        n = len(g.seats)
        p = min((p for p in ambush if len(t.hands[p.target]) == most),
                key=lambda p: (p.target - seat) % n)
        start_cards += 1
        drawn += _answerable(g, p)
    q, r = best_hunter(g, seat)
    curse = [p for p in legal_plays(t, Moment("turn-start", seat)) if p.kind == "curse"]
    if curse and not r.reachable:
        start_cards += 1
        drawn += _answerable(g, curse[0])
        q, r = best_hunter(g, seat)
    if g.route_points and len(q.hand) <= q.position.island.model.hand_size:
        rec.add(count_turn(q, r, route))
    q, plan, helper = _waiter_swap(g, seat, q, r)
    turn = Turn(q)
    plan = _limits(g, q, turn, plan, start_cards, drawn)
    _play_plan(g, seat, q, turn, plan, start_cards, helper)


def _answerable(g: Game, play: Play) -> int:
    """Play a card Gegenzauber may answer; count the readings it touches; the cards taken."""
    t, rec = g.table, g.record
    g.record.played(play.kind)
    if play.kind == "curse":  # counterspell-curse: would a victim cancel it?
        rec.event("counterspell-curse",
                  any(t.holding(v, "counterspell") for v in against(t, play)))
    _chain_event(g, play.kind, play.seat, against(t, play), play.card)
    stood, taken = apply(t, play, _answer)
    return len(taken) if stood else 0


def _chain_event(g: Game, card: str, by: int, victims: tuple[int, ...],
                 played: str | None = None) -> None:
    """counterspell-chain arises when a Gegenzauber answers ``card`` (an action, played by
    ``by`` against ``victims``; ``played``: the name of the card still in ``by``'s hand; a dry
    run: no card leaves a hand); it decides when ``by`` then holds a Gegenzauber too, which
    it would play under ``counterspell-chain=allowed``."""
    t = g.table

    def fate(chain: str) -> bool:
        hands = [list(h) for h in t.hands]
        if played:
            hands[by].remove(next(c for c in hands[by] if c.name == played))
        copy = Table(random.Random(0), [], hands, t.hand_size,
                     {**t.readings, "counterspell-chain": chain}, t.curse_draws)
        return answered(copy, card, by, victims, _answer)

    no = fate("no")
    if no:
        return  # nobody answers: the chain rule does not come up
    rest = [c.name for c in t.hands[by] if "counterspell" in c.actions]
    if played in rest:
        rest.remove(played)
    g.record.event("counterspell-chain", bool(rest))


def _waiter_swap(g: Game, seat: int, q: RouteQuery,
                 r: RouteResult) -> tuple[RouteQuery, list[Move], tuple[int, Card] | None]:
    """waiter-swaps: another player's hunter waits on the treasure field holding a swap card
    while the mover heads there. It decides when the mover falls short and reaches the field
    with that card (played out of turn by the waiter: the variant's policy)."""
    t, isl = g.table, g.pos.island
    if q.goal != "treasure":
        return q, r.plan, None
    for h in g.pos.hunters.values():
        w = g.seat_of(h.colour)
        if h.at != isl.treasure or w == seat:
            continue
        cards = [c for c in t.hands[w] if c.swaps()]
        if not cards:
            continue
        decides = False
        if r.remaining == 1:
            helped = best_route(query(q.position, q.hunter, list(q.hand) + cards[:1]))
            decides = helped.reachable
        g.record.event("waiter-swaps", decides)
        if decides and g.readings["waiter-swaps"] == "out-of-turn":
            t.hands[w].remove(cards[0])
            t.hands[seat].append(cards[0])
            return query(q.position, q.hunter, t.hands[seat]), helped.plan, (w, cards[0])
        return q, r.plan, None
    return q, r.plan, None


def _limits(g: Game, q: RouteQuery, turn: Turn, plan: list[Move], start_cards: int,
            drawn: int) -> list[Move]:
    """six-actions and long-journey-duration: count them on the plan; under the other reading
    the plan is cut before its first move that reading forbids."""
    cut = len(plan)
    if drawn:
        n, over = start_cards, None
        for i, m in enumerate(plan):
            n += len(m.cards())
            if n > q.position.island.model.hand_size and over is None:
                over = i
        g.record.event("six-actions", over is not None)
        if over is not None and g.readings["six-actions"] == "at-most-six":
            cut = min(cut, over)
    if any(m.action == "long-journey" for m in plan):
        bad = one_action_breach(turn, plan)
        g.record.event("long-journey-duration", bad is not None)
        if bad is not None and g.readings["long-journey-duration"] == "one-action":
            cut = min(cut, bad)
    plan = plan[:cut]
    st = turn.initial()
    for i, m in enumerate(plan):
        st, _ = turn.apply(st, m)
        if st.mode == SECOND and i == len(plan) - 1:
            return plan[:-1]
    return plan


def one_action_breach(turn: Turn, plan: list[Move]) -> int | None:
    """The first move that enters a field of a terrain freed by Weite Reise without a card
    after the mover has played another card since (long-journey-duration=one-action reads
    the terrain as free only until the next card), or None."""
    fresh: dict[int, bool] = {}
    st = turn.initial()
    isl = turn.isl
    for i, m in enumerate(plan):
        if m.action == "long-journey":
            fresh[turn.terrains.index(m.terrain)] = True
        else:
            if m.enters() and m.payer() is None:
                v = isl.node(m.to)
                tile = st.tiles[v] if isl.is_field(v) else None
                if tile in fresh and not fresh[tile] and tile != turn.own:
                    return i
            if m.cards():
                fresh = dict.fromkeys(fresh, False)
        st, _ = turn.apply(st, m)
    return None


def _goal_move(st: TurnState, m: Move) -> bool:
    """Does the move reach the mover's goal (the treasure field, as first or second, or a
    boat with the treasure)? The pair leaving the treasure field is not one."""
    return st.mode in (DONE, SECOND) and not m.leave


def _slumberer(g: Game, seat: int, q: RouteQuery, m: Move, delivery: bool) -> Play | None:
    """Süßer Schlummer policy: the first player clockwise holding one whose own hunters the
    action does not serve."""
    t, isl = g.table, g.pos.island
    served = {g.seat_of(h.colour) for h in g.pos.hunters.values()
              if h.colour == g.pos.hunters[q.hunter].partner
              or (h.at == isl.treasure and not delivery)}
    n = len(g.seats)
    moment = Moment("action", seat, delivery=delivery, leaving=m.leave)
    options = [p for p in legal_plays(t, moment) if p.seat not in served]
    if delivery:  # slumber-delivery: would someone stop it where that is allowed?
        allowed = {**t.readings, "slumber-delivery": "allowed"}
        t2 = Table(t.rng, [], t.hands, t.hand_size, allowed, t.curse_draws)
        g.record.event("slumber-delivery",
                       any(p.seat not in served for p in legal_plays(t2, moment)))
    if not options:
        return None
    return min(options, key=lambda p: ((p.seat - seat) % n, len(p.card)))


def _play_plan(g: Game, seat: int, q: RouteQuery, turn: Turn, plan: list[Move],
               start_cards: int, helper: tuple[int, Card] | None) -> None:
    """Play the plan move by move, letting the others answer, then end the turn."""
    t, rec, isl = g.table, g.record, g.pos.island
    st = turn.initial()
    done_any = start_cards > 0
    spent: list[str] = []
    other = _other_terrain(g, seat, q.hunter)
    refund = g.readings["three-player-colours"] == "per-player"
    pays_other = False
    touched = {g.pos.hunters[q.hunter].at}
    stopped = passed = False
    for m in plan:
        nst, _ = turn.apply(st, m)
        cards = m.cards()
        if other and m.enters() and m.use == other and m.payer():
            pays_other = True
            if refund:
                cards = [c for c in cards if c != m.payer()]
        if m.action == "fright":
            if _hits_guard(st, m, q):
                rec.event("frightened-lone-carrier", True)
                rec.bound.append(g.carried.get(m.target, 0))
            if m.target not in g.seats[seat]:
                rec.played("fright")
                t.spend(seat, cards)
                spent += cards
                victims = (g.seat_of(m.target),)
                _chain_event(g, "fright", seat, victims)
                if not answered(t, "fright", seat, victims, _answer):
                    stopped = True
                    break
                st = nst
                done_any = True
                continue
        if _goal_move(nst, m):
            sl = _slumberer(g, seat, q, m, q.goal == "boat")
            if sl is not None:
                rec.played("slumber")
                _chain_event(g, "slumber", sl.seat, (seat,), sl.card)
                stood, _ = apply(t, sl, _answer)
                if stood:
                    t.spend(seat, cards)
                    spent += cards
                    if len(cards) > 1:
                        rec.event("last-action", False)  # the same place, the same cards
                    stopped = True
                    passed = _after_slumber(g, seat, q, turn, st, done_any or bool(cards))
                    break
        t.spend(seat, cards)
        spent += cards
        if m.action != "step":
            rec.played(m.action)
        touched.add(isl.node(m.to))
        st = nst
        done_any = True
    if other:
        hand_other = any(c.terrains == (other,) for c in q.hand)
        if pays_other or hand_other:
            rec.event("three-player-colours", pays_other)
    if helper is not None and helper[1] in t.hands[seat]:
        t.hands[seat].remove(helper[1])
        t.hands[helper[0]].append(helper[1])
    _end_turn(g, seat, q, turn, st, touched, spent, passed or stopped)


def _other_terrain(g: Game, seat: int, colour: str) -> str | None:
    """With two hunters a player: the terrain of the player's other hunter."""
    rest = [c for c in g.seats[seat] if c != colour]
    return g.pos.island.model.terrain_of(rest[0]) if rest else None


def _hits_guard(st: TurnState, m: Move, q: RouteQuery) -> bool:
    """Does Angst & Schrecken send home a lone carrier (a hunter guarding a treasure)?"""
    if m.target == q.hunter:
        return st.mode == GUARD
    return any(o[0] == m.target and o[2] == GUARDING for o in st.others)


def pass_cards(g: Game, seat: int, q: RouteQuery, pos: Position) -> tuple[str, ...]:
    """The pass policy: lay down the cards the best plan from here does not play when it
    reaches the goal, the whole hand otherwise."""
    hand = g.table.hands[seat]
    r = route(query(pos, q.hunter, hand))
    if not r.reachable:
        return tuple(c.name for c in hand)
    keep = list(played(r.plan))
    out = []
    for c in hand:
        if c.name in keep:
            keep.remove(c.name)
        else:
            out.append(c.name)
    return tuple(out)


def _after_slumber(g: Game, seat: int, q: RouteQuery, turn: Turn, st: TurnState,
                   something_done: bool) -> bool:
    """slumber-ends-turn: a mover stopped before doing anything may pass (the default). It
    decides when the pass would lay down a card. Returns whether the mover passed."""
    if something_done:
        return False
    pos, _ = turn.position(st)
    lay = pass_cards(g, seat, q, pos)
    g.record.event("slumber-ends-turn", bool(lay))
    moves = legal_plays(g.table, Moment("idle", seat))
    if moves and lay:
        apply(g.table, Play("pass", seat, lay_down=lay))
        return True
    return False


def _end_turn(g: Game, seat: int, q: RouteQuery, turn: Turn, st: TurnState, touched: set,
              spent: list[str], passed: bool) -> None:
    """The position the turn leaves (dragons placed, treasures followed, a delivery cashed),
    the pass policy, and the refill."""
    t, isl = g.table, g.pos.island
    placed: list[int] = []
    if st.dragons_off:
        after, _ = turn.position(st)
        taken = {h.at for h in after.hunters.values()} | set(st.dragons) | touched
        placed = g.rng.sample(dragon_sites(isl, taken), st.dragons_off)
    new, delivered = turn.position(st, placed)
    carried: dict[str, int] = {}
    for h in new.hunters.values():
        if h.partner or h.guarding:
            v = g.carried.get(h.colour) or g.carried.get(h.partner or "")
            carried[h.colour] = v if v else g.pos.treasure
    cashed = g.carried.get(q.hunter) if delivered else None
    if cashed is not None:
        owner = g.seat_of(isl.boat_owner[st.at])
        partner = g.seat_of(st.partner)
        winner = owner if owner == partner else claim(t, owner, partner, _claims)
        if winner is None:
            g.coins[owner].append(cashed)
            g.coins[partner].append(cashed)
        else:
            if owner != partner:
                g.record.played("betrayal")
            g.coins[winner] += [cashed, cashed]
    g.removed += sorted(set(g.carried.values()) - set(carried.values()) - {cashed})
    g.pos, g.carried = new, carried
    if not spent and not passed and st.mode != DONE:
        apply(t, Play("pass", seat, lay_down=pass_cards(g, seat, q, new)))
    t.refill(seat)


def _treasures_out(g: Game) -> bool:
    """Is a treasure still in the game (on the treasure field, carried, or guarded)?"""
    return g.pos.treasure is not None or bool(g.carried)


def winners(coins: list[list[int]], rule: str) -> list[int]:
    """The winning seats: the highest total; on a tie the highest single coin; then, under
    ``tie-break-gap=next-coin``, the next highest coin and so on; else all of them win."""
    totals = [sum(c) for c in coins]
    best = [s for s, v in enumerate(totals) if v == max(totals)]
    top = max(max(coins[s], default=0) for s in best)
    best = [s for s in best if max(coins[s], default=0) == top]
    if rule == "next-coin":
        key = max(sorted(coins[s], reverse=True) for s in best)
        best = [s for s in best if sorted(coins[s], reverse=True) == key]
    return best


def play_game(index: int, players: int, seed: int = SEED, readings: dict | None = None,
              on_turn: Callable[[Game], None] | None = None,
              route_points: bool = True) -> GameRecord:
    """Simulate game ``index`` with ``players`` players (its own random stream) under the
    readings (defaults overridden by ``readings``) and count every point on every turn
    (``route_points``: the route readings too, which a replay does not need)."""
    g, mover = new_game(index, players, seed, readings)
    g.route_points = route_points
    rec = g.record
    rec.first = mover
    while rec.turns < MAX_TURNS:
        if not _treasures_out(g):
            rec.ended = True
            break
        if on_turn:
            on_turn(g)
        play_turn(g, mover % players)
        mover += 1
    rec.coins = [sorted(c, reverse=True) for c in g.coins]
    rec.removed = sorted(g.removed)
    rec.winners = winners(g.coins, g.readings["tie-break-gap"])
    shared, gap = winners(g.coins, "shared"), winners(g.coins, "next-coin")
    if len(shared) > 1 and len({tuple(rec.coins[s]) for s in shared}) > 1:
        rec.event("tie-break-gap", shared != gap)
    return rec


def _game(args: tuple) -> dict:
    index, players, seed, readings = args
    return play_game(index, players, seed, readings, route_points=not readings).to_json()


def simulate_play(games: int = GAMES_PER_COUNT, seed: int = SEED, workers: int = 2) -> dict:
    """``games`` games for each player count, then, for every reading in ``VARIANT_PLAY``,
    every game in which it decided a turn replayed under it: does the winner change? (A game
    in which it decided no turn plays identically under it, so each game's change is known
    and the share of games whose winner changes is a plain binomial share.)"""
    jobs = [(i, n, seed, None) for n in PLAYER_COUNTS for i in range(games)]
    rows = _run(jobs, workers)
    again = []
    for name, choice in sorted(VARIANT_PLAY.items()):
        hit = [(j, r) for j, r in zip(jobs, rows, strict=True) if r["decides"].get(name)]
        again += [(j[0], j[1], seed, {name: choice}) for j, _ in hit]
    replayed = _run(again, workers)
    out: dict = {}
    for job, row in zip(again, replayed, strict=True):
        name = next(iter(job[3]))
        base = rows[jobs.index((job[0], job[1], seed, None))]
        out.setdefault(name, []).append({"players": job[1], "index": job[0],
                                         "winners": row["winners"],
                                         "changed": row["winners"] != base["winners"]})
    print(f"  dracheninsel play: {len(rows)} games, {sum(r['turns'] for r in rows)} turns, "
          f"{len(replayed)} replays", file=sys.stderr, flush=True)
    two = default_island().model.raw["players"]["two_hunters"]
    hunters = sorted({n * (2 if n in two else 1) for n in PLAYER_COUNTS})
    return {"games": len(rows), "seed": seed, "players": list(PLAYER_COUNTS),
            "hunters": f"{hunters[0]} to {hunters[-1]}" if len(hunters) > 1 else hunters[0],
            "per_game": rows, "replays": out}


def _run(jobs: list[tuple], workers: int) -> list[dict]:
    if workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(_game, jobs))
    return [_game(j) for j in jobs]
