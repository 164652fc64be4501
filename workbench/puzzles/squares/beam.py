"""Beam search for matchstick squares: Chaffin's greedy rule applied to many boards at once.

Squares are placed largest first, as in the depth-first search (search.py), but breadth-first: every
board of the beam gets each placement of the next size that adds the fewest matches to it (ties all
kept; a free placement alone), and the `width` cheapest of those children, duplicates dropped, form
the next beam. Why: the greedy depth-first search spends its time varying the smallest squares below
its first few choices of large ones; the beam varies every size. With width 16 000 (the third of
the heuristics' BEAM_WIDTHS) it finds n = 57's published 1250, which no depth-first heuristic here
reached in 20 minutes.

Ties at the cut are broken by a hash of the board, which is also how duplicates are found: the key of
a child is its cost in the high bits and its board's hash in the low ones, so one sort ranks the
children, spreads the ties pseudo-randomly and puts equal boards side by side.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...search.bits import low_mask
from ...search.deadline import NEVER, Deadline
from ...search.outcome import Outcome
from .kernel import PlacementArrays, Placements, added, put
from .model import Placement

COST_SHIFT = 50                  # a child's key: cost << COST_SHIFT | the board's hash, truncated
PARENT_SHIFT = 20                # a child's origin: parent << PARENT_SHIFT | placement


@njit(cache=True, inline="always")
def _mix(word: np.uint64, line: int) -> np.uint64:
    """A 64-bit hash of one board line (splitmix64 of the word and its position)."""
    z = word + np.uint64(line + 1) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, parallel=True)
def _children(boards, cost, sym, pl, first, last, bound, offsets, keys, origins):
    """Each board's greedy children among the placements first..last-1 of `pl` (PlacementArrays)
    that stay under `bound`. With `offsets` empty only count them (per board); otherwise write their
    keys and origins there. A board is `lines` row words then `lines` column words."""
    px, py, ps, _, _, _, _, _, lines = pl
    counting = offsets.shape[0] == 0
    counts = np.zeros(boards.shape[0], np.int64)
    for i in prange(boards.shape[0]):
        rows, cols = boards[i, :lines], boards[i, lines:]
        least = 1 << 30
        for k in range(first, last):
            if not (sym[i] and px[k] > py[k]):
                least = min(least, added(rows, cols, px[k], py[k], ps[k]))
        if cost[i] + least >= bound:
            continue
        h = np.uint64(0)
        if not counting:
            for j in range(2 * lines):
                h += _mix(boards[i, j], j)
        c = 0
        for k in range(first, last):
            if sym[i] and px[k] > py[k]:
                continue
            x, y, s = px[k], py[k], ps[k]
            if added(rows, cols, x, y, s) != least:
                continue
            if not counting:
                child = h
                mask = low_mask(s)
                rm, cm = mask << np.uint64(x), mask << np.uint64(y)
                for j, m in ((y, rm), (y + s, rm), (lines + x, cm), (lines + x + s, cm)):
                    child += _mix(boards[i, j] | m, j) - _mix(boards[i, j], j)
                keys[offsets[i] + c] = ((cost[i] + least) << COST_SHIFT) | np.int64(
                    child >> np.uint64(64 - COST_SHIFT))
                origins[offsets[i] + c] = (i << PARENT_SHIFT) | k
            c += 1
            if least == 0:                    # a free placement: that one alone
                break
        counts[i] = c
    return counts


@njit(cache=True, parallel=True)
def _place(boards, paths, sym, origins, keys, chosen, pl, depth):
    """The chosen children as the next beam: boards, paths, symmetry flags and costs."""
    px, py, ps, pdiag, _, _, _, _, lines = pl
    m = chosen.shape[0]
    nboards = np.empty((m, boards.shape[1]), np.uint64)
    npaths = np.empty((m, paths.shape[1]), np.int32)
    nsym = np.empty(m, np.bool_)
    ncost = np.empty(m, np.int64)
    for t in prange(m):
        c = chosen[t]
        i, k = origins[c] >> PARENT_SHIFT, origins[c] & ((1 << PARENT_SHIFT) - 1)
        nboards[t] = boards[i]
        put(nboards[t, :lines], nboards[t, lines:], px[k], py[k], ps[k])
        npaths[t] = paths[i]
        npaths[t, depth] = k
        nsym[t] = sym[i] and pdiag[k]
        ncost[t] = keys[c] >> COST_SHIFT
    return nboards, npaths, nsym, ncost


def beam(pl: Placements, width: int, bound: int, deadline: Deadline = NEVER) -> Outcome[list[Placement]]:
    """The cheapest solution below `bound` that a beam of `width` boards reaches (best None if none,
    or past the deadline). The outcome is complete when the beam never dropped a board: it then
    followed every greedy choice, and a wider one would find nothing more."""
    arrays: PlacementArrays = pl.arrays
    lines = arrays[-1]
    depths = len(pl.pstart)
    boards = np.zeros((1, 2 * lines), np.uint64)
    paths = np.full((1, depths), -1, np.int32)
    sym, cost = np.ones(1, np.bool_), np.zeros(1, np.int64)
    nothing = np.zeros(0, np.int64)
    cut = False
    for depth in range(depths):
        if deadline.passed():
            return Outcome(complete=False)
        span = (arrays, pl.pstart[depth], pl.pend[depth], bound)
        counts = _children(boards, cost, sym, *span, nothing, nothing, nothing)
        total = int(counts.sum())
        if total == 0:
            return Outcome(complete=not cut)
        offsets = np.concatenate(([0], np.cumsum(counts)[:-1]))
        keys, origins = np.empty(total, np.int64), np.empty(total, np.int64)
        _children(boards, cost, sym, *span, offsets, keys, origins)
        order = np.argsort(keys)
        ranked = keys[order]
        distinct = np.ones(total, np.bool_)
        distinct[1:] = ranked[1:] != ranked[:-1]
        chosen = order[distinct]
        cut = cut or len(chosen) > width
        boards, paths, sym, cost = _place(boards, paths, sym, origins, keys, chosen[:width], arrays, depth)
    best = int(np.argmin(cost))
    return Outcome(int(cost[best]), pl.decode(paths[best]), 1, complete=not cut)
