"""The cuts of the exact search: proofs that no completion of a board fits under the bound.

Each is proved in its docstring and tested against the uncut search (tests/test_squares.py).
`doomed` is always on; the pooled test (drop_pooled) with --pooled K. held[0] and
held[1] hold the matches on each row and column line (held_lines keeps them), held[2] is scratch.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...search.bits import low_mask, popcount
from .kernel import added

INF = 1 << 30
MOST_POOLED = 8                        # sizes drop_pooled may spread (rows of its depth scratch)


@njit(cache=True, inline="always")
def held_lines(rows, cols, held, x, y, s) -> None:
    """Recount the matches on the four lines of the square of size s at (x, y)."""
    held[0, y], held[0, y + s] = popcount(rows[y]), popcount(rows[y + s])
    held[1, x], held[1, x + s] = popcount(cols[x]), popcount(cols[x + s])


@njit(cache=True, inline="always")
def short(held, axis, i, s):
    """The matches a square of size s must still add to its two sides on lines i and i + s of one
    axis (0: rows, 1: columns), from the lines' counts alone: a line holding h has s - h to add."""
    return max(0, s - held[axis, i]) + max(0, s - held[axis, i + s])


@njit(cache=True, inline="always")
def column_shortfalls(held, miss_c, lines, s) -> int:
    """miss_c[x] = short(columns x) for each corner column of size s; returns the least."""
    least = 4 * s
    for x in range(lines - s):
        miss_c[x] = short(held, 1, x, s)
        least = min(least, miss_c[x])
    return least


@njit(cache=True, inline="always")
def _adds(rows, cols, held, miss_c, x, y, s, most) -> int:
    """The matches the square of size s at (x, y) adds, or INF when that is more than `most`: the
    lines' shortfalls (short) first, which usually settle it without a popcount."""
    if short(held, 0, y, s) + miss_c[x] > most:
        return INF
    add = added(rows, cols, x, y, s)
    return add if add <= most else INF


@njit(cache=True, inline="always")
def doomed(rows, cols, pl, first, most, held, miss_c, hint) -> int:
    """The depth of a size still to place (depths first..) that adds more than `most` matches
    wherever it goes, or -1 when there is none. When there is one, no completion of this board can
    cost at most (cost now) + `most`.

    Why that is a proof: squares are placed largest first and a board only gains matches. In any
    completion, the square of a size still to place sits at some placement p of that size, and
    every match of p missing from the board now is on the final board, so the final cost is at
    least (cost now) + |p minus board| >= (cost now) + (the fewest matches any placement of that
    size adds now). Taking every placement of the size (not only those the search would still
    allow, such as the mirror-image rule's) keeps the minimum a lower bound. A size s adds at most
    4s matches, so only the sizes with 4s > `most` can cut; each scan stops at the first placement
    adding at most `most` (the skips are _scan's). held[0] and held[1] are the matches on each row
    and column line (held_lines keeps them); miss_c is scratch space.

    `hint`: a depth tried first, the one that cut the board before at the same depth (a sibling,
    mostly). Siblings differ by one square, and the size that cut one usually cuts the next: 5-9%
    less time at n = 24..26, the same positions (the order only changes which proof is found).

    One copy of the scan, in one loop (the hint is its first turn), with one exit per size: a
    scan function of its own, inlined twice, or _scan shared with spread, made the whole search
    2x slower a position (issue 63)."""
    px, py, ps, _, _, pstart, pend, _, lines = pl
    for i in range(first - 1, pstart.shape[0]):
        d = hint if i < first else i          # the hint first, then the rest in order
        if d < first or pstart[d] == pend[d] or (i >= first and d == hint):
            continue
        s = ps[pstart[d]]
        if 4 * s <= most:
            if i < first:
                continue                      # the hint's size fits: go on with the rest
            break                             # this size and every smaller one fit
        w = lines - s                         # corners a side (the whole board's)
        least_c = 4 * s
        for x in range(w):
            miss_c[x] = short(held, 1, x, s)
            least_c = min(least_c, miss_c[x])
        if least_c > most:
            return d
        fits = False
        if pend[d] - pstart[d] == w * w:      # every corner, row by row (Grid.placements' order)
            for y in range(w):
                miss_r = short(held, 0, y, s)
                if miss_r + least_c > most:
                    continue
                for x in range(w):
                    if miss_r + miss_c[x] <= most and added(rows, cols, x, y, s) <= most:
                        fits = True
                        break
                if fits:
                    break
        else:
            for k in range(pstart[d], pend[d]):
                x, y = px[k], py[k]
                miss_r = short(held, 0, y, s)
                if miss_r + miss_c[x] <= most and added(rows, cols, x, y, s) <= most:
                    fits = True
                    break
        if not fits:
            return d
    return -1


@njit(cache=True, inline="always")
def _pool(rows, cols, x, y, s, add, um, lm) -> None:
    """Add the matches the square of size s at (x, y) would add to um (rows, columns), and its count
    `add` to the least counts lm of its four lines."""
    mask = low_mask(s)
    hm, vm = mask << np.uint64(x), mask << np.uint64(y)
    um[0, y] |= hm & ~rows[y]
    um[0, y + s] |= hm & ~rows[y + s]
    um[1, x] |= vm & ~cols[x]
    um[1, x + s] |= vm & ~cols[x + s]
    lm[0, y] = min(lm[0, y], add)
    lm[0, y + s] = min(lm[0, y + s], add)
    lm[1, x] = min(lm[1, x], add)
    lm[1, x + s] = min(lm[1, x + s], add)


@njit(cache=True, inline="always")
def _scan(rows, cols, pl, d, most, held, miss_c, um, lm) -> int:
    """The fewest matches a placement of the size of depth d adds, among those adding at most
    `most` (INF if none), each pooled into um and lm (_pool).

    Most of the scan is skipped without looking at a placement: the lines y and y + s leave at
    least short(rows y) to add to a square's top and bottom, the columns x and x + s short(columns
    x) to its sides, so a corner whose two shortfalls exceed `most` cannot fit, nor can any corner
    of a row y whose shortfall plus the least column shortfall does. miss_c is scratch space."""
    px, py, ps, _, _, pstart, pend, _, lines = pl
    s = ps[pstart[d]]
    least = INF
    least_c = column_shortfalls(held, miss_c, lines, s)
    if least_c > most:
        return least
    w = lines - s                             # corners a side (the whole board's)
    if pend[d] - pstart[d] == w * w:          # every corner, row by row (Grid.placements' order)
        for y in range(w):
            miss_r = short(held, 0, y, s)
            if miss_r + least_c > most:
                continue
            for x in range(w):
                if miss_r + miss_c[x] > most:
                    continue
                add = added(rows, cols, x, y, s)
                if add <= most:
                    least = min(least, add)
                    _pool(rows, cols, x, y, s, add, um, lm)
        return least
    for k in range(pstart[d], pend[d]):
        x, y = px[k], py[k]
        add = _adds(rows, cols, held, miss_c, x, y, s, most)
        if add <= most:
            least = min(least, add)
            _pool(rows, cols, x, y, s, add, um, lm)
    return least


@njit(cache=True, inline="always")
def spread(rows, cols, pl, d, most, held, miss_c, um, lm) -> int:
    """The fewest matches a placement of the size of depth d adds to this board, with um (one word
    per row line, then per column line) set to every match added by one of its placements adding at
    most `most`, and lm to the fewest any of those adds, per line it has a side on (pooled_cut)."""
    um[:] = 0
    lm[:] = INF
    return _scan(rows, cols, pl, d, most, held, miss_c, um, lm)


@njit(cache=True, inline="always")
def pooled_cut(rows, cols, spread_u, x, y, s, add, most) -> bool:
    """Whether laying the square of size s at (x, y), which adds `add` matches, leaves a board on
    which a size u cannot fit under `most` - `add`, given spread_u = (um, lm, low, u) from spread(u)
    on this board: a cut of the board with the square, proved without laying it.

    Why that is a proof: a placement r of u that adds more than `most` now still adds more than
    `most` - `add` with the square laid, since it loses at most the square's `add` new matches.
    Every other r adds at least `low` now, and all its added matches lie in um. Laying the square
    lowers r's count only by the square's new matches on a line both have a side on; r (of another
    size than u) shares at most one row line and one column line with the square. So an r with a
    side on the square's row line L now adds at least lm[L] and loses at most the square's new
    matches on L that meet um, plus the most on one of its column lines; an r with a side on one of
    its column lines C and none on its row lines loses at most those on C; any other r loses
    nothing. And r has only u matches on a line, so it loses at most u on each (a cap
    wherever the square is the larger: 1.6x fewer positions at n = 28, 5-7% less CPU). When the least
    of these is still more than `most` - `add`, no r fits."""
    um, lm, low, u = spread_u
    mask = low_mask(s)
    hm, vm = mask << np.uint64(x), mask << np.uint64(y)
    r0, r1 = min(popcount(hm & ~rows[y] & um[0, y]), u), min(popcount(hm & ~rows[y + s] & um[0, y + s]), u)
    c0, c1 = min(popcount(vm & ~cols[x] & um[1, x]), u), min(popcount(vm & ~cols[x + s] & um[1, x + s]), u)
    most_c = max(c0, c1)
    least = min(low, lm[0, y] - r0 - most_c, lm[0, y + s] - r1 - most_c, lm[1, x] - c0, lm[1, x + s] - c1)
    return add + least > most


@njit(cache=True, inline="always")
def pooled_depths(pl, d, hint, sizes, depth) -> int:
    """The depths of up to `sizes` sizes that may cut the children of a board the search lists at
    depth d, into `depth`: `hint` (the size that cut the last board at depth d + 1, if any), then
    the sizes of depths d + 1, d + 2, ... Returns how many. An empty depth (a restricted search's)
    is skipped, as doomed skips it."""
    pstart, pend = pl[5], pl[6]
    depths = pstart.shape[0]
    n = 0
    if hint > d and pstart[hint] < pend[hint]:
        depth[0] = hint
        n = 1
    e = d + 1
    while n < sizes and e < depths:
        if pstart[e] < pend[e] and e != hint:
            depth[n] = e
            n += 1
        e += 1
    return n


@njit(cache=True, inline="always")
def drop_pooled(rows, cols, pl, d, most, held, hint, pool, children, nc) -> int:
    """Drop from the children (cand, cadd) = `children`, the first nc (placements, matches added),
    of this board at depth d those that pooled_cut proves dead with one of up to `sizes` sizes
    (pooled_depths), keeping the rest in order; returns how many are kept. pool = (sizes, depth,
    um, lm), the last three scratch.

    What it buys: most children of a board are cut by doomed as soon as they are laid, mostly by
    one of the few largest sizes still to place. pooled_cut proves most of those cuts from the
    parent board, in a few popcounts a child, against one spread a size for all of them: n = 28 at
    the optimal bound, one thread, 4x fewer positions and 1.2x less CPU (docs/notes/squares.md).

    Each size is spread only while some child is kept, and only the children it keeps are tested
    against the next: a child is dropped when any size cuts it, so the children kept are the same
    as with every size spread, in any order of the sizes. At n = 26 that is 21% fewer spreads
    (each a scan of a size's placements), but no CPU saved that a loaded machine shows
    (docs/notes/squares.md)."""
    px, py, ps, pstart = pl[0], pl[1], pl[2], pl[5]
    sizes, depth, um, lm = pool
    cand, cadd = children
    s = ps[pstart[d]]
    for j in range(pooled_depths(pl, d, hint, sizes, depth)):
        e = depth[j]
        low = spread(rows, cols, pl, e, most, held, held[2], um, lm)
        spread_u = (um, lm, low, ps[pstart[e]])
        kept = 0
        for i in range(nc):
            k, add = cand[i], cadd[i]
            if not pooled_cut(rows, cols, spread_u, px[k], py[k], s, add, most):
                cand[kept], cadd[kept] = k, add
                kept += 1
        nc = kept
        if nc == 0:
            break
    return nc
