"""The turns' warm starts of a stage solved again and again, each distinct one kept once.

Policy iteration solves every turn of a repeating stage at every step, and each state keeps
what its turns were last solved to (:meth:`~solver.sabords.turn.lanes.DeckLanes.storage`'s
policy and :meth:`~solver.sabords.turn.lanes.DeckLanes.memo`'s last outcome distribution,
its policy's hash and reach bits, per solved card): several kilobytes a state when written
out. Many states play the same turn (far from the target every mover plays alike), so
:class:`WarmStarts` keeps each solved card's distinct policies and distinct memo entries once
(:class:`~solver.sabords.game.table.compact.Pool`) and an index per state and card. What a
turn is warm-started from is the same, bit for bit, as if every state kept its own copy.
"""

from __future__ import annotations

import numpy as np

from solver.engine.batch_arrays import PushMemo
from solver.sabords.game.table.compact import Pool


class WarmStarts:
    """Per state of a stage and solved card of ``lanes``: the policy and the push memo its
    turn was last solved to (both blank at first), kept in pools of distinct rows."""

    def __init__(self, lanes, states: int) -> None:
        self.lanes = lanes
        off = lanes.deck.packed.value_off
        self.columns = [(int(off[p]), int(off[p + 1])) for p in lanes.solved_cards]
        blank_policy = lanes.storage(1).policy[0]
        blank_memo = _memo_words(lanes.memo(1))[0]
        cards = len(self.columns)
        self.policies = [Pool(blank_policy[lo:hi]) for lo, hi in self.columns]
        self.memos = [Pool(blank_memo[c]) for c in range(cards)]
        self.policy_ids = np.zeros((states, cards), dtype=np.int32)
        self.memo_ids = np.zeros((states, cards), dtype=np.int32)
        self.outcomes = lanes.deck.count

    def load(self, part: slice, store) -> PushMemo:
        """Write the policies of the states ``part`` into ``store`` (a
        :meth:`DeckLanes.storage` for them) and return their push memo."""
        for c, (lo, hi) in enumerate(self.columns):
            store.policy[:, lo:hi] = self.policies[c].rows[self.policy_ids[part, c]]
        words = np.stack([self.memos[c].rows[self.memo_ids[part, c]]
                          for c in range(len(self.columns))], axis=1)
        return _memo_of(words, self.outcomes)

    def save(self, part: slice, store, memo: PushMemo) -> None:
        """Keep what the turns of the states ``part`` were solved to."""
        words = _memo_words(memo)
        for c, (lo, hi) in enumerate(self.columns):
            self.policy_ids[part, c] = self.policies[c].ids(store.policy[:, lo:hi])
            self.memo_ids[part, c] = self.memos[c].ids(words[:, c])

    def start_from(self, part, others) -> None:
        """Warm-start the states ``part`` from what the states ``others`` were solved to (the
        same turns: a push memo holds for any payoffs)."""
        self.policy_ids[part] = self.policy_ids[others]
        self.memo_ids[part] = self.memo_ids[others]

    def prune(self) -> None:
        """Forget the rows no state names any more (after a step has solved every state)."""
        for c in range(len(self.columns)):
            self.policy_ids[:, c] = self.policies[c].keep(self.policy_ids[:, c])
            self.memo_ids[:, c] = self.memos[c].keep(self.memo_ids[:, c])

    @property
    def nbytes(self) -> int:
        pools = sum(p.nbytes for p in (*self.policies, *self.memos))
        return pools + self.policy_ids.nbytes + self.memo_ids.nbytes


def _memo_words(memo: PushMemo) -> np.ndarray:
    """A push memo ``(slots, cards, ...)`` as one row of 64-bit words per slot and card: the
    distribution's bits, the hash, the reach bits."""
    dist, hashes, reached = (np.ascontiguousarray(x) for x in memo)
    return np.concatenate([dist.view(np.uint64), hashes[..., None].view(np.uint64),
                           reached.astype(np.uint64, copy=False)], axis=-1)


def _memo_of(words: np.ndarray, outcomes: int) -> PushMemo:
    """:func:`_memo_words`' inverse."""
    return PushMemo(np.ascontiguousarray(words[..., :outcomes]).view(np.float64),
                    np.ascontiguousarray(words[..., outcomes]).view(np.int64),
                    np.ascontiguousarray(words[..., outcomes + 1:]))
