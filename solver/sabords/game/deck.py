"""The independent-draw assumption, measured: the solved policy played with a real deck.

The solver draws each turn's card independently with the deck's frequencies; at the table the
35 cards are shuffled into one pile that both players draw from in turn, and reshuffled when it
runs out. This module plays whole games, many at once and seeded, with both players using the
solved policy (each turn's outcome drawn from the solved policy's distribution for that card
and state, :attr:`GameTable.card_plays`), under either way of drawing cards, so the report can
set the first player's simulated chance against the exact one.
"""

from __future__ import annotations

import numpy as np

from solver.sabords.game.two_player import GameTable
from solver.sabords.turn.lanes import deck_turns

NORMAL, LAST, SUDDEN = 0, 1, 2


def simulate(table: GameTable, games: int, seed: int, real_deck: bool,
             chunk: int = 50_000) -> np.ndarray:
    """The first player's result (1, 1/2 or 0) in ``games`` games, both players optimal."""
    if table.card_plays is None:
        raise ValueError("the simulation needs the solved play (see game.with_play)")
    rng = np.random.default_rng(seed)
    out = np.empty(games)
    for start in range(0, games, chunk):
        count = min(chunk, games - start)
        out[start:start + count] = _chunk(table, count, rng, real_deck)
    return out


def _chunk(table: GameTable, games: int, rng, real_deck: bool) -> np.ndarray:
    spec = table.spec
    rules = spec.rules
    deck = deck_turns(rules)
    low, top = spec.bottom, spec.top
    span, width = top - low, table.last.shape[1]
    counts = np.array([n for _, n in rules.deck])
    pile_cards = np.repeat(np.arange(len(counts)), counts)
    plays = table.card_plays
    scores = np.zeros((games, 2), dtype=np.int64)
    mover = np.zeros(games, dtype=np.int64)
    phase = np.full(games, NORMAL)
    trigger = np.full(games, -1)
    result = np.full(games, np.nan)
    piles = np.array([rng.permutation(pile_cards) for _ in range(games)]) if real_deck else None
    drawn = np.zeros(games, dtype=np.int64)
    live = np.arange(games)
    while len(live):
        if real_deck:
            used = drawn[live] == len(pile_cards)
            for g in live[used]:
                piles[g] = rng.permutation(pile_cards)
            drawn[live[used]] = 0
            card = piles[live, drawn[live]]
            drawn[live] += 1
        else:
            card = rng.choice(len(counts), size=len(live), p=deck.weights)
        g = live
        me = scores[g, mover[g]]
        other = scores[g, 1 - mover[g]]
        dist = np.empty((len(g), deck.count))
        for ph, name in ((NORMAL, "normal"), (SUDDEN, "sudden-death")):
            sel = phase[g] == ph
            state = (me[sel] - low) * span + (other[sel] - low)
            dist[sel] = plays[name][state, card[sel]]
        sel = phase[g] == LAST
        state = (me[sel] - low) * width + np.minimum(other[sel] - top, width - 1)
        dist[sel] = plays["last"][state, card[sel]]
        cum = np.cumsum(dist, axis=1)
        pick = np.minimum((rng.random(len(g))[:, None] * cum[:, -1:] > cum).sum(axis=1),
                          deck.count - 1)
        won = deck.win[pick]
        me_after = np.maximum(me + deck.own[pick], low)
        other_after = np.maximum(other - deck.loss[pick], low)
        scores[g, mover[g]] = me_after
        scores[g, 1 - mover[g]] = other_after
        first_is_mover = mover[g] == 0
        done = won.copy()
        result[g[won]] = np.where(first_is_mover[won], 1.0, 0.0)
        # the last turn: the game ends unless the trigger player dropped below the target
        last = (phase[g] == LAST) & ~won
        ends = last & (other_after >= top)
        diff = scores[g, 0] - scores[g, 1]
        result[g[ends]] = np.where(diff[ends] > 0, 1.0, np.where(diff[ends] == 0, 0.5, 0.0))
        done |= ends
        drop = last & ~ends
        if rules.endgame == "race-wins-at-once":
            phase[g[drop]] = SUDDEN
        else:
            phase[g[drop]] = NORMAL
        trigger[g[drop]] = -1
        # a race: reaching the target at the end of one's own turn wins at once
        race = (phase[g] == SUDDEN) & ~won & ~drop & (me_after >= top)
        result[g[race]] = np.where(first_is_mover[race], 1.0, 0.0)
        done |= race
        trig = (phase[g] == NORMAL) & ~won & ~drop & (me_after >= top)
        phase[g[trig]] = LAST
        trigger[g[trig]] = mover[g[trig]]
        mover[g] = 1 - mover[g]
        live = g[~done]
    if rules.ties != "shared":
        raise ValueError("the deck simulation covers shared ties only")
    return result
