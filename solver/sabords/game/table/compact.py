"""Rows kept once: many states of the whole table hold the same row (an outcome distribution,
a turn's policy), so a table of them is kept as its distinct rows and an index per state.

The rows are matched by their bytes, so what is read back is, bit for bit, what was written.
"""

from __future__ import annotations

import numpy as np


class Pool:
    """Distinct rows of one width and type, each kept once and named by its index. Rows are
    matched by content (a hash of their bytes, then the bytes compared)."""

    def __init__(self, first: np.ndarray) -> None:
        self.rows = np.ascontiguousarray(first)[None].copy()
        self.count = 1
        self.named: dict[int, list[int]] = {hash(self.rows[0].tobytes()): [0]}

    @property
    def nbytes(self) -> int:
        return self.count * self.rows[0].nbytes

    def ids(self, block: np.ndarray) -> np.ndarray:
        """The index of each row of ``block`` (rows not kept yet are added)."""
        block = np.ascontiguousarray(block)
        keys = block.view(np.dtype((np.void, block.shape[1] * block.itemsize))).ravel()
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        ids = np.array([self._id(block[at]) for at in first.tolist()], dtype=np.int32)
        return ids[inverse.ravel()]

    def _id(self, row: np.ndarray) -> int:
        data = row.tobytes()
        same = self.named.setdefault(hash(data), [])
        for at in same:
            if self.rows[at].tobytes() == data:
                return at
        if self.count == len(self.rows):
            grown = np.empty((2 * self.count, self.rows.shape[1]), dtype=self.rows.dtype)
            grown[:self.count] = self.rows
            self.rows = grown
        self.rows[self.count] = row
        same.append(self.count)
        self.count += 1
        return self.count - 1

    def keep(self, ids: np.ndarray) -> np.ndarray:
        """Keep only the rows named in ``ids`` (renumbered in their order); returns ``ids``
        renumbered."""
        used, renamed = np.unique(ids, return_inverse=True)
        self.rows = self.rows[used]
        self.count = len(used)
        self.named = {}
        for at in range(self.count):
            self.named.setdefault(hash(self.rows[at].tobytes()), []).append(at)
        return renamed.reshape(ids.shape).astype(np.int32)
