"""An independent brute-force solver for reduced Mille Sabords turns (tests only).

Nothing here uses the engine or the project's scoring: dice are ordered tuples of letters,
decisions are hold masks over positions, rolls are enumerated outcome by outcome, and the
optimal values come from exact policy iteration with Fractions and Gauss-Jordan elimination.
It covers the default rules (French reading) for a subset of cards, and five turn readings
(``solve``'s ``readings``: keep-a-non-skull, battle-bust-no-penalty,
battle-four-skulls-no-penalty, card-counts-as-kept-die, battle-sabres-any-roll), each written
here from its description alone. Under battle-sabres-any-roll a state's mode says whether the
card's sabres have shown on any roll so far, the dice showing included (the engine's mode
leaves the dice showing out: its mode-0 state with the sabres showing is mode 1 here).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

FACES = "CDMPSX"
SETS = {3: 100, 4: 200, 5: 500, 6: 1000, 7: 2000, 8: 4000}
BATTLE = {"sea-battle-2": (2, 300), "sea-battle-3": (3, 500), "sea-battle-4": (4, 1000)}
CARD_SKULLS = {"skulls-1": 1, "skulls-2": 2}


def set_points(n: int) -> int:
    return SETS[min(n, 8)] if n >= 3 else 0


def stop_score(dice: tuple[str, ...], card: str, chest_allowed: bool = True,
               battle_won: bool = False) -> int:
    """Own points when the turn ends on these dice (chest_allowed False: protected dice;
    battle_won: the card's sabres showed on an earlier roll and that wins the battle)."""
    counts = Counter(dice)
    if card == "gold":
        counts["C"] += 1
    if card == "diamond":
        counts["D"] += 1
    groups = [["M", "P"], ["C"], ["D"], ["S"]] if card == "monkey-business" else \
        [["C"], ["D"], ["M"], ["P"], ["S"]]
    points = 100 * (counts["C"] + counts["D"])
    group_size = {}
    for group in groups:
        n = sum(counts[f] for f in group)
        points += set_points(n)
        for f in group:
            group_size[f] = n
    need, bonus = BATTLE.get(card, (0, 0))
    won = Counter(dice)["S"] >= need
    if chest_allowed:
        all_score = all(
            d in "CD" or group_size.get(d, 0) >= 3 or (d == "S" and need and won)
            for d in dice
        )
        if all_score and card not in CARD_SKULLS:
            points += 500
        if card in BATTLE:
            points = points + bonus if won or battle_won else -bonus
    if card == "captain":
        points *= 2
    return points


def bust_score(dice: tuple[str, ...], card: str, readings: frozenset[str] = frozenset()) -> int:
    if card not in BATTLE:
        return 0
    need, bonus = BATTLE[card]
    if "battle-bust-no-penalty" in readings and dice.count("S") >= need:
        return 0
    return -bonus


def best_protected(kept: tuple[str, ...]) -> int:
    """Treasure Island: the best score of any subset of the kept non-skull dice."""
    others = [d for d in kept if d != "X"]
    best = 0
    for mask in range(1 << len(others)):
        chosen = tuple(d for i, d in enumerate(others) if mask >> i & 1)
        best = max(best, stop_score(chosen, "treasure-island", chest_allowed=False))
    return best


def skulls(dice, card) -> int:
    return dice.count("X") + CARD_SKULLS.get(card, 0)


def _solve_linear(rows: list[dict[int, Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Gauss-Jordan elimination on a sparse-dict system."""
    n = len(rhs)
    a = [dict(r) for r in rows]
    b = list(rhs)
    for col in range(n):
        pivot = next(r for r in range(col, n) if a[r].get(col, 0) != 0)
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        inv = 1 / a[col][col]
        a[col] = {k: v * inv for k, v in a[col].items()}
        b[col] *= inv
        for r in range(n):
            if r != col and a[r].get(col, 0) != 0:
                f = a[r][col]
                for k, v in a[col].items():
                    a[r][k] = a[r].get(k, 0) - f * v
                b[r] -= f * b[col]
    return b


def solve(card: str, n: int, readings: frozenset[str] = frozenset()):
    """Exact optimal values {(mode, sorted dice): Fraction} and the start value."""
    sorceress = card == "sorceress"
    remember = "battle-sabres-any-roll" in readings and card in BATTLE
    need = BATTLE.get(card, (0, 0))[0]
    modes = (0, 1) if sorceress or remember else (0,)
    # the card is one kept die: a reroll may then keep none of the dice
    least_kept = 0 if ("card-counts-as-kept-die" in readings
                       and card in ("gold", "diamond", *CARD_SKULLS)) else 1
    states = sorted({tuple(sorted(d)) for d in product(FACES, repeat=n)})

    def shown(mode, dice):  # the mode once these dice show (battle-sabres-any-roll)
        return 1 if remember and (mode or dice.count("S") >= need) else mode

    live = [(m, s) for m in modes for s in states
            if skulls(s, card) < 3 and shown(m, s) == m]
    index = {ms: i for i, ms in enumerate(live)}

    def stop_value(mode, dice):
        return stop_score(dice, card, battle_won=remember and mode == 1)

    def actions(mode, dice):
        for mask in range(1, 1 << n):
            rolled = [dice[i] for i in range(n) if mask >> i & 1]
            kept = tuple(dice[i] for i in range(n) if not mask >> i & 1)
            held = [d for d in kept if d != "X"] if "keep-a-non-skull" in readings else kept
            if len(rolled) < 2 or len(held) < least_kept:
                continue
            freed = rolled.count("X")
            if freed > (1 if sorceress and mode == 0 else 0):
                continue
            yield kept, len(rolled), (1 if freed else mode)

    def transitions(kept, r, nxt):
        """[(probability, landing (mode, state) or None, constant)]"""
        out = []
        p = Fraction(1, 6**r)
        for roll in product(FACES, repeat=r):
            new = tuple(sorted(kept + roll))
            if skulls(new, card) < 3:
                out.append((p, (shown(nxt, new), new), Fraction(0)))
            elif card == "treasure-island":
                out.append((p, None, Fraction(best_protected(kept))))
            else:
                out.append((p, None, Fraction(bust_score(new, card, readings))))
        return out

    cache = {}

    def q(mode, dice, act, values):
        key = (mode, dice, act)
        if key not in cache:
            cache[key] = transitions(*act)
        return sum(p * (values[land] if land else c) for p, land, c in cache[key])

    policy = {ms: None for ms in live}  # None: stop
    while True:
        rows, rhs = [], []
        for m, s in live:
            act = policy[(m, s)]
            row = {index[(m, s)]: Fraction(1)}
            if act is None:
                rows.append(row)
                rhs.append(Fraction(stop_value(m, s)))
                continue
            const = Fraction(0)
            for p, land, c in cache.setdefault((m, s, act), transitions(*act)):
                if land is None:
                    const += p * c
                else:
                    row[index[land]] = row.get(index[land], 0) - p
            rows.append(row)
            rhs.append(const)
        solution = _solve_linear(rows, rhs)
        values = {ms: solution[index[ms]] for ms in live}
        changed = False
        for m, s in live:
            current = values[(m, s)]
            best, best_act = Fraction(stop_value(m, s)), None
            for act in actions(m, s):
                v = q(m, s, act, values)
                if v > best:
                    best, best_act = v, act
            if best > current:
                policy[(m, s)] = best_act
                changed = True
        if not changed:
            break
    start = Fraction(0)
    for roll in product(FACES, repeat=n):
        s = tuple(sorted(roll))
        k = skulls(s, card)
        if k >= 4 and card not in BATTLE:
            start += Fraction(0)  # the Island of Skulls: no own points
        elif k >= 4 and "battle-four-skulls-no-penalty" in readings:
            start += Fraction(0)  # the turn is lost, nothing paid
        elif k >= 3:
            start += bust_score(s, card, readings)
        else:
            start += values[(shown(0, s), s)]
    return values, start / 6**n
