"""The board and move generation of the stepping-stones exact search (kernel.py), compiled with numba.

The grid holds two groups (A left, B right); each empty cell touching a number sits in a bucket by
its neighbour sum, so the cells where k may go are read off bucket k - j (j new ones). `_gen` lists a
level's moves (place, start group B, merge B into A), `_place`/`_unplace` make and undo one.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...search import symmetry
from ...search.bits import popcount
from ...search.compiled import borrowed, transform

H, W = 64, 128                 # grid rows, columns; group A lives in columns < 64, group B in >= 64
HALF = 64
CA = 32 * W + 32               # start cell of group A
CB = 32 * W + 96               # start cell of group B
MARGIN = 3
MAXL = 160                     # search levels (numbers placed + merges)
MAXM = 4096                    # moves per level
MAXC = 256                     # cells per board
MAXS = 2048                    # largest neighbour sum kept in a bucket
OCCUPIED = 1 << 24             # added to the sum of an occupied cell
CAP = 128                      # cells per bucket
DR = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
DC = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)
OFF = DR * W + DC

PLACE, NEWB, MERGE = 0, 1, 2
ERR_MOVES, ERR_EDGE, ERR_REST = 1, 2, 3
SHUFFLE_SEED = 20220
CLOCK_EVERY = 1 << 16   # positions between two looks at the clock


def _mask_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Masks of the 8 neighbours by popcount, all of them and one per symmetry class."""
    dirs = list(zip(DR.tolist(), DC.tolist(), strict=True))
    perm = [[dirs.index(symmetry.transform(o, *d)) for d in dirs] for o in range(8)]
    allm = np.zeros((9, 70), dtype=np.int64)
    alln = np.zeros(9, dtype=np.int64)
    canm = np.zeros((9, 70), dtype=np.int64)
    cann = np.zeros(9, dtype=np.int64)
    for m in range(256):
        j = bin(m).count("1")
        allm[j, alln[j]] = m
        alln[j] += 1
        images = [sum(1 << perm[o][d] for d in range(8) if m >> d & 1) for o in range(8)]
        if m == min(images):
            canm[j, cann[j]] = m
            cann[j] += 1
    return allm, alln, canm, cann


MASKS = _mask_tables()      # (allm, alln, canm, cann): the kernels take them as one tuple


@njit(cache=True, inline="always")
def _bucket_move(sm, pos, bk, bn, q, s_new):
    """Move empty cell q from the bucket of its sum to that of s_new (bucket 0 is not kept; bn[0]
    flags an overflow)."""
    s = sm[q]
    if s >= 1:
        i = pos[q]
        last = bk[s, bn[s] - 1]
        bk[s, i] = last
        pos[last] = i
        bn[s] -= 1
    if s_new >= 1:
        if bn[s_new] >= CAP or s_new >= MAXS:
            bn[0] = 1
        else:
            bk[s_new, bn[s_new]] = q
            pos[q] = bn[s_new]
            bn[s_new] += 1
    sm[q] = s_new


@njit(cache=True, inline="always")
def _put(st, p, v, sign, blocks=True):
    """Add (sign=1) or remove (sign=-1) value v at cell p of the board st = (b, sm, pl, pos, bk, bn),
    keeping neighbour sums, blocks and the buckets of empty cells by sum (so the cells with a wanted
    sum are found without a scan). `_tail`, which places no ones, leaves the blocks alone
    (blocks=False): its moves are undone in reverse, so they are right again when it returns."""
    b, sm, pl, pos, bk, bn = st
    if sign > 0:
        s = sm[p]
        _bucket_move(sm, pos, bk, bn, p, 0)
        sm[p] = s + OCCUPIED
        b[p] = v
    else:
        s = sm[p] - OCCUPIED
        b[p] = 0
        sm[p] = 0
        _bucket_move(sm, pos, bk, bn, p, s)
    for d in range(8):
        q = p + OFF[d]
        if sm[q] < OCCUPIED:
            _bucket_move(sm, pos, bk, bn, q, sm[q] + sign * v)
        else:
            sm[q] += sign * v
        if blocks and v >= 2:
            pl[q] += sign


@njit(cache=True, inline="always")
def _grow(bb, g, p):
    r = p // W
    c = p % W
    if bb[g, 0] > bb[g, 1]:
        bb[g, 0] = r
        bb[g, 1] = r
        bb[g, 2] = c
        bb[g, 3] = c
    else:
        bb[g, 0] = min(bb[g, 0], r)
        bb[g, 1] = max(bb[g, 1], r)
        bb[g, 2] = min(bb[g, 2], c)
        bb[g, 3] = max(bb[g, 3], c)


@njit(cache=True)
def _edge_ok(bb, g):
    lo = g * HALF
    return (bb[g, 0] >= MARGIN and bb[g, 1] < H - MARGIN
            and bb[g, 2] >= lo + MARGIN and bb[g, 3] < lo + HALF - MARGIN)


@njit(cache=True)
def _elig(b, pl, p):
    """Neighbours of p that may still receive a new one."""
    m = 0
    for d in range(8):
        q = p + OFF[d]
        if b[q] == 0 and pl[q] == 0:
            m |= 1 << d
    return m


@njit(cache=True)
def _add_places(st, p, k, r, L, mv, allm, alln):
    """Moves putting k on empty cell p with j = k - sum new ones, into the move lists
    mv = (mt, mp, mm, mo, nm) of level L; returns False on overflow."""
    b, sm, pl, _, _, _ = st
    mt, mp, mm, mo, nm = mv
    s = sm[p]
    j = k - s
    if b[p] != 0 or s < 1 or j < 0 or j > r:
        return True
    e = _elig(b, pl, p)
    for i in range(alln[j]):
        m = allm[j, i]
        if m & ~e == 0:
            if nm[L] >= MAXM:
                return False
            mt[L, nm[L]] = PLACE
            mp[L, nm[L]] = p
            mm[L, nm[L]] = m
            mo[L, nm[L]] = 0
            nm[L] += 1
    return True


@njit(cache=True)
def _merge_ok(b, sm, pl, bcells, nb, c, d, o):
    """Can group B (cells bcells) be moved so that its empty cell d lands on A's empty cell c?"""
    cr = c // W
    cc = c % W
    dr0 = d // W
    dc0 = d % W
    for i in range(nb):
        q = bcells[i]
        tr, tc = transform(o, q // W - dr0, q % W - dc0)
        tr += cr
        tc += cc
        if tr < MARGIN or tr >= H - MARGIN or tc < MARGIN or tc >= HALF - MARGIN:
            return -1
        t = tr * W + tc
        if b[t] != 0:
            return 0
        if b[q] >= 2:
            if sm[t] != 0:
                return 0
        elif pl[t] != 0:
            return 0
    return 1


@njit(cache=True)
def _gen(st, bb, hasb, k, r, pend, L, mv, masks, bcells):
    """All moves for placing k (or, after a merge, placing k at the pending cell) into the move lists
    mv of level L. Returns an error code."""
    b, sm, pl, _, bk, bn = st
    mt, mp, mm, mo, nm = mv
    allm, alln, canm, cann = masks
    nm[L] = 0
    if pend >= 0:
        return 0 if _add_places(st, pend, k, r, L, mv, allm, alln) else ERR_MOVES
    if k == 2:                       # the first group: 2 on two new ones, one mask per class
        for i in range(cann[2]):
            if r >= 2:
                mt[L, nm[L]] = PLACE
                mp[L, nm[L]] = CA
                mm[L, nm[L]] = canm[2, i]
                mo[L, nm[L]] = 0
                nm[L] += 1
        return 0
    for s in range(max(1, k - r), k + 1):
        for i in range(bn[s]):
            if not _add_places(st, bk[s, i], k, r, L, mv, allm, alln):
                return ERR_MOVES
    if hasb == 0 and k <= r:         # a new, separate group
        for i in range(cann[k]):
            if nm[L] >= MAXM:
                return ERR_MOVES
            mt[L, nm[L]] = NEWB
            mp[L, nm[L]] = CB
            mm[L, nm[L]] = canm[k, i]
            mo[L, nm[L]] = 0
            nm[L] += 1
    if hasb == 1:                    # merges: k touches both groups
        nb = 0
        for row in range(bb[1, 0], bb[1, 1] + 1):
            for col in range(bb[1, 2], bb[1, 3] + 1):
                q = row * W + col
                if b[q] != 0:
                    bcells[nb] = q
                    nb += 1
        for sa in range(1, k):                       # c in A and d in B with sa + sb in [k-r, k]
            for ia in range(bn[sa]):
                c = bk[sa, ia]
                if c % W >= HALF:
                    continue
                for sb in range(max(1, k - r - sa), k - sa + 1):
                    for ib in range(bn[sb]):
                        d = bk[sb, ib]
                        if d % W < HALF:
                            continue
                        for o in range(8):
                            ok = _merge_ok(b, sm, pl, bcells, nb, c, d, o)
                            if ok < 0:
                                return ERR_EDGE
                            if ok == 1:
                                if nm[L] >= MAXM:
                                    return ERR_MOVES
                                mt[L, nm[L]] = MERGE
                                mp[L, nm[L]] = c
                                mm[L, nm[L]] = d
                                mo[L, nm[L]] = o
                                nm[L] += 1
    return 0


@njit(cache=True, inline="always")
def _place(st, bb, g, p, m, k):
    for d in range(9):                  # the new ones (mask m), then k at p
        if d == 8 or m >> d & 1:
            q = p + OFF[d] if d < 8 else p
            _put(st, q, 1 if d < 8 else k, 1)
            _grow(bb, g, q)


@njit(cache=True, inline="always")
def _unplace(st, p, m, k):
    for d in range(-1, 8):              # k at p, then the new ones (mask m)
        if d < 0 or m >> d & 1:
            _put(st, p + OFF[d] if d >= 0 else p, 1 if d >= 0 else k, -1)


@njit(cache=True)
def _snapshot(b, bb, hasb, out):
    """Write the nonzero cells as (cell, value) pairs into out; returns the count."""
    n = 0
    for g in range(1 + hasb):
        for row in range(bb[g, 0], bb[g, 1] + 1):
            for col in range(bb[g, 2], bb[g, 3] + 1):
                p = row * W + col
                if b[p] != 0:
                    out[n, 0] = p
                    out[n, 1] = b[p]
                    n += 1
    return n


@njit(cache=True, inline="always")
def _limit(best, target, found):
    """The value a board must beat to be kept: the best, or below the target when counting (room
    in `found`), so that every board that places the target is kept."""
    return min(best, target - 1) if found.shape[0] > 0 else best


@njit(cache=True, inline="always")
def _keep(b, bb, hasb, v, target, found, stats):
    """A board of value v above the search's limit: when counting (room in `found`) and v reaches
    the target, it is written there (stats[3] counts them, past the room too) and the limit stays
    below the target; otherwise the limit becomes v. Returns the new limit."""
    if found.shape[0] > 0 and v >= target:
        i = stats[3]
        if i < found.shape[0]:
            found[i, 0, 0] = _snapshot(b, bb, hasb, found[i, 1:])
            found[i, 0, 1] = v
        stats[3] = i + 1
        return target - 1
    return v


@njit(cache=True)
def _shuffle(L, mv, idx, tmp):
    """Record hunt: when level L is first entered, shuffle its moves, then order them stably by the
    number of new ones they spend (fewest first: ones are the scarce resource)."""
    mt, mp, mm, mo, nm = mv
    if idx[L] != 0:
        return
    m = nm[L]
    for i in range(m - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        for a in (mt, mp, mm, mo):
            t = a[L, i]
            a[L, i] = a[L, j]
            a[L, j] = t
    start = np.zeros(10, dtype=np.int64)
    for i in range(m):
        start[_cost(mt[L, i], mm[L, i]) + 1] += 1
    for c in range(1, 10):
        start[c] += start[c - 1]
    for i in range(m):
        c = _cost(mt[L, i], mm[L, i])
        tmp[start[c], 0] = mt[L, i]
        tmp[start[c], 1] = mp[L, i]
        tmp[start[c], 2] = mm[L, i]
        tmp[start[c], 3] = mo[L, i]
        start[c] += 1
    for i in range(m):
        mt[L, i] = tmp[i, 0]
        mp[L, i] = tmp[i, 1]
        mm[L, i] = tmp[i, 2]
        mo[L, i] = tmp[i, 3]


@njit(cache=True)
def _cost(t, m):
    """New ones a move spends (a merge spends them only in its next step)."""
    return 0 if t == MERGE else min(8, popcount(m))


@njit(cache=True)
def _workspace():
    """The board (values, sums, blocks, bucket positions, buckets, bucket sizes), the per-level move
    lists (type, cell, mask, orientation) and _tail's workspace (with _viable's: each cell's place in
    its list plus one, the cells, their sums, neighbour masks and least numbers, the open choices of
    its levels, the masks by sum; and _live_ones's marks of the cells next to each candidate one, the
    cells' marks in the game's order and the roots each level's path serves)."""
    board = (np.zeros(H * W, dtype=np.int32), np.zeros(H * W, dtype=np.int32),
             np.zeros(H * W, dtype=np.int32), np.zeros(H * W, dtype=np.int32),
             np.zeros((MAXS, CAP), dtype=np.int32), np.zeros(MAXS, dtype=np.int32))
    moves = (np.empty((MAXL, MAXM), dtype=np.int32), np.empty((MAXL, MAXM), dtype=np.int32),
             np.empty((MAXL, MAXM), dtype=np.int32), np.empty((MAXL, MAXM), dtype=np.int32))
    reach = (np.zeros(H * W, dtype=np.int32), np.empty(64, dtype=np.int32), np.empty(64, dtype=np.int64),
             np.empty(64, dtype=np.uint64), np.empty(64, dtype=np.int32), np.empty(128, dtype=np.uint64),
             np.empty(MAXS, dtype=np.uint64), np.zeros(H * W, dtype=np.int32), np.empty(64, dtype=np.uint64),
             np.empty(64, dtype=np.uint64))
    walk = (np.empty((MAXL, CAP), dtype=np.int32), np.empty(MAXL, dtype=np.int64), np.empty(MAXL, dtype=np.int64),
            reach)
    return board, moves, walk


@njit(cache=True)
def _borrowed(ws):
    """The workspace as views without reference counts (search.compiled.borrowed): the kernels pass
    its arrays to a helper at every position, and numba's atomic reference counts on those calls
    took most of the search's time. The caller keeps `ws` alive."""
    (b, sm, pl, pos, bk, bn), (mt, mp, mm, mo), (cand, ncand, idx, (slot, xc, xv, xa, xlo, xs, bym, amb, xe, es)) = ws
    return ((borrowed(b), borrowed(sm), borrowed(pl), borrowed(pos), borrowed(bk), borrowed(bn)),
            (borrowed(mt), borrowed(mp), borrowed(mm), borrowed(mo)),
            (borrowed(cand), borrowed(ncand), borrowed(idx),
             (borrowed(slot), borrowed(xc), borrowed(xv), borrowed(xa), borrowed(xlo), borrowed(xs), borrowed(bym),
              borrowed(amb), borrowed(xe), borrowed(es))))
