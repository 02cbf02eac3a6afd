"""The whole table's compact storage (issue #35 §2, memory): every distinct row kept once, and
a solve through it identical, bit for bit, to one that keeps every state's rows in full."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game.table import compact as compact_module
from solver.sabords.game.table import equilibrium
from solver.sabords.game.table.compact import Plays, Pool
from solver.sabords.game.table.equilibrium import solve_table
from solver.sabords.game.table.states import TableSpec
from solver.sabords.game.table.warm import WarmStarts
from solver.sabords.rules import load_rules

SPEC = TableSpec.of(load_rules(("score-floor-zero",)).with_dice(3), 3, 500)


class PlainWarmStarts:
    """Every state's warm starts written out in full (the reference)."""

    def __init__(self, lanes, states: int) -> None:
        self.policy = lanes.storage(1).policy[[0] * states]
        self.memo = lanes.memo(states)

    def load(self, part: slice, store):
        store.policy[:] = self.policy[part]
        return type(self.memo)(*(m[part].copy() for m in self.memo))

    def save(self, part: slice, store, memo) -> None:
        self.policy[part] = store.policy
        for mine, new in zip(self.memo, memo, strict=True):
            mine[part] = new

    def prune(self) -> None:
        pass


def test_a_pool_keeps_each_row_once_and_gives_it_back() -> None:
    rng = np.random.default_rng(7)
    rows = rng.integers(-3, 3, size=(50, 4)).astype(np.int16)
    block = rows[rng.integers(0, 50, size=300)]
    pool = Pool(np.zeros(4, dtype=np.int16))
    ids = pool.ids(block)
    assert np.array_equal(pool.rows[ids], block)
    distinct = {r.tobytes() for r in block} | {np.zeros(4, np.int16).tobytes()}
    assert pool.count == len(distinct)
    again = pool.ids(block[::-1])  # rows already kept are found, not added
    assert np.array_equal(again, ids[::-1]) and pool.count == len(distinct)
    kept = pool.keep(ids[:10])
    assert np.array_equal(pool.rows[kept], block[:10])
    assert pool.count == len({r.tobytes() for r in block[:10]})
    assert np.array_equal(pool.rows[pool.ids(block[:10])], block[:10])


def test_rows_whose_hashes_clash_are_told_apart_by_their_bytes(monkeypatch) -> None:
    monkeypatch.setattr(compact_module, "hash", lambda data: 7, raising=False)
    rows = np.arange(24, dtype=np.int16).reshape(8, 3)
    pool = Pool(rows[0])
    ids = pool.ids(np.concatenate([rows, rows[::-1]]))
    assert np.array_equal(ids, np.r_[np.arange(8), np.arange(8)[::-1]])
    kept = pool.keep(ids[[2, 5, 5]])
    assert np.array_equal(pool.rows[kept], rows[[2, 5, 5]]) and pool.count == 2
    assert np.array_equal(pool.ids(rows[[5, 1, 2]]), [1, 2, 0])


def test_warm_starts_give_back_what_was_saved() -> None:
    lanes = equilibrium.TableSolver(SPEC).lanes
    warm = WarmStarts(lanes, 6)
    blank = lanes.storage(6)
    store = lanes.storage(6)
    memo = warm.load(slice(0, 6), store)
    assert np.array_equal(store.policy, blank.policy)  # nothing solved yet
    assert all(np.array_equal(m, b) for m, b in zip(memo, lanes.memo(6), strict=True))
    pay = np.random.default_rng(3).random((6, lanes.deck.count))
    pay[3:] = pay[:3]  # three states play alike: their rows are kept once
    lanes.solve(pay, np.arange(6), store, 1e-14, distribution=True, memo=memo)
    warm.save(slice(0, 6), store, memo)
    warm.prune()
    again = lanes.storage(6)
    back = warm.load(slice(0, 6), again)
    assert np.array_equal(again.policy, store.policy)
    for mine, theirs in zip(back, memo, strict=True):
        assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs)
    assert np.array_equal(warm.policy_ids[3:], warm.policy_ids[:3])
    assert max(p.count for p in warm.policies) <= 3


@pytest.fixture(scope="module")
def compact():
    return solve_table(SPEC)


def test_compact_warm_starts_solve_as_full_ones(compact, monkeypatch) -> None:
    monkeypatch.setattr(equilibrium, "WarmStarts", PlainWarmStarts)
    plain = solve_table(SPEC)
    assert np.array_equal(plain.values, compact.values)
    assert np.array_equal(plain.dist, compact.dist)
    assert plain.stats["history"] == compact.stats["history"]


def test_plays_read_back_what_was_written_and_sweep_alike(compact) -> None:
    solver = equilibrium.TableSolver(SPEC)
    dist = compact.dist
    plays = Plays.of(dist)
    assert np.array_equal(plays.full(), dist) and np.array_equal(plays[5:9], dist[5:9])
    assert plays.pool.count == len({row.tobytes() for row in dist}) < len(dist) // 10
    other = plays.picks(dist[::-1])
    moved = plays.moved(other, 1e-9)
    assert np.array_equal(moved, np.abs(dist - dist[::-1]).max(axis=1) > 1e-9) and moved.any()
    plays[3] = dist[0]
    assert np.array_equal(plays[3], dist[0]) and plays.index[3] == plays.index[0]
    plays[3] = dist[3]
    full, compacted = (solver.play(d) for d in (dist, plays))
    assert np.array_equal(full, compacted)
    assert np.abs(full - compact.values).max() < 1e-14
    plays.prune()
    assert np.array_equal(plays.full(), dist)


def test_successors_are_computed_where_read_as_the_layout_gives_them() -> None:
    solver = equilibrium.TableSolver(SPEC)
    layout = solver.layout
    rows = np.random.default_rng(5).choice(layout.states, size=40, replace=False)
    mine = solver.successors(rows)
    for row, got in zip(rows.tolist(), mine, strict=True):
        name, scores = layout.state_of(row)
        assert np.array_equal(got, layout.successors(name, scores)[0])
    stage = next(s for s in layout.stages() if s.repeats)
    kept = solver.stage_successors(stage)
    inside = np.arange(stage.start, stage.stop)[::7]
    assert np.array_equal(kept[inside], solver.successors(inside))
    assert "succ" not in solver.__dict__  # the whole table's are built only when asked for


def test_the_solution_and_its_cache_entry_keep_the_play_compactly(compact, monkeypatch,
                                                                  tmp_path) -> None:
    from solver.sabords.game.table.positions import load_table

    assert isinstance(compact.plays, Plays)
    assert compact.plays.pool.count == len({row.tobytes() for row in compact.dist})
    monkeypatch.setenv("TREASURE_CACHE", str(tmp_path))
    built = load_table(SPEC)
    assert list(tmp_path.rglob("*.tsc"))
    again = load_table(SPEC)  # read back from the entry just written
    assert isinstance(again.plays, Plays)
    assert np.array_equal(again.dist, compact.dist) and np.array_equal(built.dist, compact.dist)
    assert np.array_equal(again.values, compact.values)


def test_the_reduced_stage_is_swept_in_place_and_put_back(compact) -> None:
    from solver.sabords.game.table.linear import evaluate
    from solver.sabords.game.table.settle import Reduced

    solver = equilibrium.TableSolver(SPEC)
    stage = next(s for s in solver.layout.stages() if s.names == ("normal",))
    order = solver._order(stage)
    rows = [int(r) for r in order[[3, 40, 77]]]
    values, dist = compact.values.copy(), compact.dist
    reduced = Reduced(values, dist, solver.succ, order, rows)
    assert np.array_equal(values, compact.values)
    work = values.copy()  # the constant part as a copy of the table swept
    work[rows] = 0.0
    evaluate(work, order[~np.isin(order, rows)], solver.succ, dist)
    assert np.array_equal(reduced.const, np.roll(work[solver.succ[rows]], 1, axis=2))
    assert np.abs(reduced.const).max() > 0.1
