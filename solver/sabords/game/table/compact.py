"""Rows kept once: many states of the whole table hold the same row (an outcome distribution,
a turn's policy), so a table of them is kept as its distinct rows and an index per state.

The rows are matched by their bytes, so what is read back is, bit for bit, what was written.
"""

from __future__ import annotations

import numpy as np

BLOCK = 65536  # rows matched at once
GROWTH = 1.25  # a full pool's rows grow by this factor

class Pool:
    """Distinct rows of one width and type, each kept once and named by its index. Rows are
    matched by content: a hash of their bytes names the first row with that hash, and a row
    whose hash an earlier different row has (rare) is found by its bytes."""

    def __init__(self, first: np.ndarray) -> None:
        self.rows = np.ascontiguousarray(first)[None].copy()
        self.count = 0
        self.named: dict[int, int] = {}
        self.clashes: dict[bytes, int] = {}
        self._add(self.rows[0])

    @staticmethod
    def of(rows: np.ndarray) -> Pool:
        """A pool of ``rows`` (distinct), in their order."""
        pool = Pool(rows[0])
        pool.rows = np.array(rows)
        for row in pool.rows[1:]:
            pool._add(row)
        return pool

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
        at = self.named.get(hash(data))
        if at is not None:
            if self.rows[at].tobytes() == data:
                return at
            if data in self.clashes:
                return self.clashes[data]
        return self._add(row)

    def _add(self, row: np.ndarray) -> int:
        """Keep ``row`` (not kept yet) as the next index."""
        if self.count == len(self.rows):
            grown = np.empty((int(GROWTH * self.count) + 1, self.rows.shape[1]),
                             dtype=self.rows.dtype)
            grown[:self.count] = self.rows[:self.count]
            self.rows = grown
        at = self.count
        self.rows[at] = row
        data = self.rows[at].tobytes()
        if self.named.setdefault(hash(data), at) != at:
            self.clashes[data] = at
        self.count += 1
        return at

    def keep(self, ids: np.ndarray) -> np.ndarray:
        """Keep only the rows named in ``ids`` (renumbered in their order); returns ``ids``
        renumbered."""
        used, renamed = np.unique(ids, return_inverse=True)
        kept = Pool.of(self.rows[used])
        self.rows, self.count = kept.rows, kept.count
        self.named, self.clashes = kept.named, kept.clashes
        return renamed.reshape(ids.shape).astype(np.int32)


class Plays:
    """A way of playing: one outcome distribution per state, each distinct one kept once
    (``pool``, which other ways of playing may share) and named per state by ``index``.
    Indexed like the ``(states, outcomes)`` array it stands for (rows read and written
    whole)."""

    def __init__(self, index: np.ndarray, pool: Pool) -> None:
        self.index = index
        self.pool = pool

    @staticmethod
    def of(dist: np.ndarray, states: int | None = None) -> Plays:
        """The distributions ``dist`` (one row per state, or one row for all ``states``)."""
        dist = np.asarray(dist, dtype=np.float64)
        if dist.ndim == 1:
            return Plays(np.zeros(states, dtype=np.int32), Pool(dist))
        plays = Plays(np.zeros(len(dist), dtype=np.int32), Pool(dist[0]))
        for lo in range(0, len(dist), BLOCK):
            plays[lo:lo + BLOCK] = dist[lo:lo + BLOCK]
        return plays

    def picks(self, dist: np.ndarray) -> Plays:
        """The rows of ``dist`` as a way of playing that shares this one's pool."""
        return Plays(self.pool.ids(dist), self.pool)

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.index), self.pool.rows.shape[1])

    @property
    def table(self) -> np.ndarray:
        """The distinct distributions (rows past the pool's count unused)."""
        return self.pool.rows

    def __len__(self) -> int:
        return len(self.index)

    def __getitem__(self, rows) -> np.ndarray:
        return self.pool.rows[self.index[rows]]

    def __setitem__(self, rows, dist) -> None:
        shape = np.shape(self.index[rows])
        dist = np.broadcast_to(np.asarray(dist, dtype=np.float64),
                               (int(np.prod(shape)), self.shape[1]))
        self.index[rows] = self.pool.ids(dist).reshape(shape)

    def moved(self, other: Plays, tol: float) -> np.ndarray:
        """Per state: whether its distribution here and in ``other`` differ by more than
        ``tol`` in some outcome."""
        out = np.zeros(len(self.index), dtype=bool)
        differ = np.flatnonzero(self.index != other.index)
        for lo in range(0, len(differ), BLOCK):
            at = differ[lo:lo + BLOCK]
            out[at] = np.abs(self[at] - other[at]).max(axis=1) > tol
        return out

    def full(self) -> np.ndarray:
        """Every state's distribution written out."""
        return self.pool.rows[self.index]

    def distinct(self) -> np.ndarray:
        """The distinct distributions (``index`` names rows of it)."""
        return self.pool.rows[:self.pool.count]

    def prune(self) -> None:
        """Forget the distributions no state plays (the pool no longer shared)."""
        self.index = self.pool.keep(self.index)
