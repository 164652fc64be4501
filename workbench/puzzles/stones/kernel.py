"""The exact search's kernel for the stepping-stones puzzle (OEIS A337663), compiled with numba.

Why this shape:
- Ones are placed lazily: number k goes on an empty cell whose sum is k - j, together with j new ones
  around it (j <= ones left). A new one may never touch a number >= 2 already placed, because it
  would have changed that number's sum.
- A number may also start a new, separate group (k placed on k new ones). Groups live in two regions of
  one grid (A left, B right, far apart), grow independently and are merged when a number touches
  both: B is rotated/reflected (8 ways) and translated next to A, and the merge is legal only when no
  cell of B touches a cell of A unless both are ones. With n <= 8 ones at most two groups can exist
  (a second group needs k >= 3 new ones, a third k >= 4 more), which is why n is capped at 8.
- Symmetry: the first group starts with 2 on one of the 6 inequivalent pairs of ones; a new group
  uses one mask per symmetry class (its orientation is tried at merge time).
- The tree is cut at a fixed value into independent tasks (`frontier`, `dedupe`); `run_chunk`
  searches some of them, and past a cap on positions hands the moves it has not tried back as
  boards of their own. search.py hands them out; the record hunt (record.py) uses `subtree`.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...search import symmetry
from ...search.bits import popcount
from ...search.compiled import canonical_codes, clock, transform
from ...search.deadline import NEVER, Deadline
from ...search.outcome import Outcome
from ...search.symmetry import at_origin

H, W = 64, 128                 # grid rows, columns; group A lives in columns < 64, group B in >= 64
HALF = 64
CA = 32 * W + 32               # start cell of group A
CB = 32 * W + 96               # start cell of group B
MARGIN = 3
MAXL = 160                     # search levels (numbers placed + merges)
MAXM = 4096                    # moves per level
MAXC = 256                     # cells per board
MAXS = 2048                    # largest neighbour sum kept in a bucket
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


@njit(cache=True)
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


@njit(cache=True)
def _put(st, p, v, sign):
    """Add (sign=1) or remove (sign=-1) value v at cell p of the board st = (b, sm, pl, pos, bk, bn),
    keeping neighbour sums, blocks and the buckets of empty cells by sum (so the cells with a wanted
    sum are found without a scan)."""
    b, sm, pl, pos, bk, bn = st
    s = sm[p]
    if sign > 0:
        _bucket_move(sm, pos, bk, bn, p, 0)
        sm[p] = s
        b[p] = v
    else:
        b[p] = 0
        sm[p] = 0
        _bucket_move(sm, pos, bk, bn, p, s)
    for d in range(8):
        q = p + OFF[d]
        if b[q] == 0:
            _bucket_move(sm, pos, bk, bn, q, sm[q] + sign * v)
        else:
            sm[q] += sign * v
        if v >= 2:
            pl[q] += sign


@njit(cache=True)
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


@njit(cache=True)
def _place(st, bb, g, p, m, k):
    for d in range(8):
        if m >> d & 1:
            _put(st, p + OFF[d], 1, 1)
            _grow(bb, g, p + OFF[d])
    _put(st, p, k, 1)
    _grow(bb, g, p)


@njit(cache=True)
def _unplace(st, p, m, k):
    _put(st, p, k, -1)
    for d in range(8):
        if m >> d & 1:
            _put(st, p + OFF[d], 1, -1)


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


@njit(cache=True)
def _tail(st, walk, k0, best, best_cells, budget):
    """The bulk of the tree: no ones left and one group, so number k goes exactly on a cell of sum k.

    A lean loop for this case; a child whose successor cannot be placed (no cell of sum k + 1 now,
    and no neighbour of sum 1 that it would lift to k + 1) is counted without being placed.
    walk = (cand, ncand, idx) is its workspace. Returns (best, cells in the best board or 0,
    positions, error code).
    """
    b, sm, _, _, bk, bn = st
    cand, ncand, idx = walk
    whole = np.empty((2, 4), dtype=np.int64)
    whole[0, 0] = 0
    whole[0, 1] = H - 1
    whole[0, 2] = 0
    whole[0, 3] = HALF - 1
    nbest = 0
    nodes = 0
    ncand[0] = bn[k0]
    cand[0, :bn[k0]] = bk[k0, :bn[k0]]
    idx[0] = 0
    L = 0
    while L >= 0:
        if budget > 0 and nodes >= budget:
            ncand[:L + 1] = idx[:L + 1]
        if idx[L] < ncand[L]:
            p = cand[L, idx[L]]
            idx[L] += 1
            v = k0 + L
            nodes += 1
            if v <= best and bn[v + 1] == 0:
                leaf = True
                for d in range(8):
                    q = p + OFF[d]
                    if b[q] == 0 and sm[q] == 1:
                        leaf = False
                        break
                if leaf:
                    continue
            row = p // W
            col = p % W
            if row < MARGIN or row >= H - MARGIN or col < MARGIN or col >= HALF - MARGIN or L >= MAXL - 2:
                return best, nbest, nodes, ERR_EDGE
            _put(st, p, v, 1)
            if v > best:
                best = v
                nbest = _snapshot(b, whole, 0, best_cells)
            L += 1
            ncand[L] = bn[v + 1]
            cand[L, :bn[v + 1]] = bk[v + 1, :bn[v + 1]]
            idx[L] = 0
        else:
            L -= 1
            if L >= 0:
                _put(st, cand[L, idx[L] - 1], k0 + L, -1)
    return best, nbest, nodes, 0


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
    lists (type, cell, mask, orientation) and _tail's workspace."""
    board = (np.zeros(H * W, dtype=np.int32), np.zeros(H * W, dtype=np.int32),
             np.zeros(H * W, dtype=np.int32), np.zeros(H * W, dtype=np.int32),
             np.zeros((MAXS, CAP), dtype=np.int32), np.zeros(MAXS, dtype=np.int32))
    moves = (np.empty((MAXL, MAXM), dtype=np.int32), np.empty((MAXL, MAXM), dtype=np.int32),
             np.empty((MAXL, MAXM), dtype=np.int32), np.empty((MAXL, MAXM), dtype=np.int32))
    walk = (np.empty((MAXL, CAP), dtype=np.int32), np.empty(MAXL, dtype=np.int64), np.empty(MAXL, dtype=np.int64))
    return board, moves, walk


@njit(cache=True)
def _dfs(ws, cells, k0, r0, hasb0, limits, masks, out):
    """Depth-first search from the board `cells` (next number k0, r0 ones left, hasb0: a group B).

    ws is a zeroed workspace (see _workspace) and is left zeroed; masks = MASKS.
    limits = (cut, floor, budget, deadline, cap): with cut > 0, the boards just after placing `cut`
    are written to `frontier` (as far as it has room) instead of being searched; only boards above
    `floor` are kept as best; with budget > 0 (the record hunt) the moves of each level are shuffled,
    a level with more moves than fit keeps those that fit, and the search stops after about `budget`
    positions; past the deadline (Deadline.at) the search unwinds. After `cap` positions (cap > 0)
    it hands the rest back: every move not yet tried, at every level of the current path, is written
    to `frontier` as a board of its own (so nothing searched is thrown away), and the positions leave
    those boards out, since their own searches count them as their first.
    out = (best_cells, frontier, stats). Returns (best value, cells in best board, frontier count);
    stats[0] += positions visited, stats[1] = error code, stats[2] = 1 if the deadline stopped it,
    2 if the cap did (and the deadline did not).
    """
    st, moves, walk = ws
    b, sm, pl, pos, bk, bn = st
    mt, mp, mm, mo = moves
    cut, floor, budget, deadline, cap = limits
    best_cells, frontier, stats = out
    ncell = cells.shape[0]
    bb = np.empty((2, 4), dtype=np.int64)
    bb[:, 0] = H
    bb[:, 1] = -1
    bb[:, 2] = W
    bb[:, 3] = -1
    hasb = hasb0
    top = 1 if r0 + ncell > 0 else 0
    for i in range(ncell):
        _put(st, cells[i, 0], cells[i, 1], 1)
        _grow(bb, 1 if cells[i, 0] % W >= HALF else 0, cells[i, 0])
        top = max(top, cells[i, 1])
    best = max(floor, top)
    nbest = _snapshot(b, bb, hasb, best_cells) if top > floor else 0
    nm = np.zeros(MAXL, dtype=np.int64)
    idx = np.zeros(MAXL, dtype=np.int64)
    kk = np.zeros(MAXL, dtype=np.int64)
    rr = np.zeros(MAXL, dtype=np.int64)
    pend = np.full(MAXL, -1, dtype=np.int64)
    bbs = np.empty((MAXL, 2, 4), dtype=np.int64)
    hbs = np.zeros(MAXL, dtype=np.int64)
    saved = np.empty((MAXL, MAXC), dtype=np.int64)    # B's cells before a merge, for the undo
    nsaved = np.zeros(MAXL, dtype=np.int64)
    bcells = np.empty(MAXC, dtype=np.int64)
    tmp = np.empty((MAXM if budget > 0 else 1, 4), dtype=np.int32)
    nfront = 0
    spill = False
    kk[0] = k0
    rr[0] = r0
    mv = (mt, mp, mm, mo, nm)
    err = _gen(st, bb, hasb, k0, r0, -1, 0, mv, masks, bcells)
    L = 0
    nodes = 1
    next_clock = CLOCK_EVERY
    timed = deadline < math.inf
    while L >= 0:
        if timed and nodes >= next_clock:
            next_clock = nodes + CLOCK_EVERY
            if clock() > deadline:          # unwind: every level counts as exhausted
                stats[2] = 1
                timed = False
                nm[:L + 1] = idx[:L + 1]
        if cap > 0 and nodes >= cap and stats[2] == 0:
            stats[2] = 2
            cap = 0
            spill = True
        if budget > 0:
            if err == ERR_MOVES:
                err = 0
            if nodes >= budget:
                nm[:L + 1] = idx[:L + 1]
            else:
                _shuffle(L, mv, idx, tmp)
        if err != 0:
            break
        if idx[L] < nm[L]:
            i = idx[L]
            idx[L] += 1
            t = mt[L, i]
            p = mp[L, i]
            k = kk[L]
            bbs[L] = bb
            hbs[L] = hasb
            if t == MERGE:
                d = mm[L, i]
                o = mo[L, i]
                nb = 0
                for row in range(bb[1, 0], bb[1, 1] + 1):
                    for col in range(bb[1, 2], bb[1, 3] + 1):
                        q = row * W + col
                        if b[q] != 0:
                            saved[L, nb] = q
                            nb += 1
                nsaved[L] = nb
                for j in range(nb):
                    q = saved[L, j]
                    v = b[q]
                    _put(st, q, v, -1)
                    tr, tc = transform(o, q // W - d // W, q % W - d % W)
                    tq = (p // W + tr) * W + p % W + tc
                    _put(st, tq, v, 1)
                    _grow(bb, 0, tq)
                bb[1, 0] = H
                bb[1, 1] = -1
                bb[1, 2] = W
                bb[1, 3] = -1
                hasb = 0
                kk[L + 1] = k
                rr[L + 1] = rr[L]
                pend[L + 1] = p
            else:
                m = mm[L, i]
                g = 1 if t == NEWB or p % W >= HALF else 0
                _place(st, bb, g, p, m, k)
                if t == NEWB:
                    hasb = 1
                if not _edge_ok(bb, g):
                    err = ERR_EDGE
                    break
                kk[L + 1] = k + 1
                rr[L + 1] = rr[L] - popcount(m)
                pend[L + 1] = -1
                if k > best:
                    best = k
                    nbest = _snapshot(b, bb, hasb, best_cells)
            nodes += 1
            L += 1
            if L >= MAXL - 1:
                err = ERR_MOVES
                break
            idx[L] = 0
            if pend[L] < 0 and (spill or cut > 0 and kk[L] == cut + 1):
                if spill:
                    nodes -= 1              # the board's own search counts it
                if nfront < frontier.shape[0]:
                    n = _snapshot(b, bb, hasb, frontier[nfront, 2:])
                    frontier[nfront, 0, 0] = n
                    frontier[nfront, 0, 1] = kk[L]
                    frontier[nfront, 1, 0] = rr[L]
                    frontier[nfront, 1, 1] = hasb
                nfront += 1
                nm[L] = 0
            elif cut == 0 and rr[L] == 0 and hasb == 0 and pend[L] < 0:
                best, nb, n, err = _tail(st, walk, kk[L], best, best_cells,
                                         max(1, budget - nodes) if budget > 0 else 0)
                if nb > 0:
                    nbest = nb
                nodes += n
                nm[L] = 0
            else:
                err = _gen(st, bb, hasb, kk[L], rr[L], pend[L], L, mv, masks, bcells)
        else:
            L -= 1
            if L < 0:
                break
            i = idx[L] - 1
            t = mt[L, i]
            p = mp[L, i]
            if t == MERGE:
                d = mm[L, i]
                o = mo[L, i]
                for j in range(nsaved[L]):
                    q = saved[L, j]
                    tr, tc = transform(o, q // W - d // W, q % W - d % W)
                    tq = (p // W + tr) * W + p % W + tc
                    v = b[tq]
                    _put(st, tq, v, -1)
                    _put(st, q, v, 1)
            else:
                _unplace(st, p, mm[L, i], kk[L])
            bb[:] = bbs[L]
            hasb = hbs[L]
    for i in range(ncell - 1, -1, -1):
        _put(st, cells[i, 0], cells[i, 1], -1)
    if bn[0] != 0:
        err = ERR_MOVES
    stats[0] += nodes
    if err != 0:
        stats[1] = err
    return best, nbest, nfront


@njit(cache=True, nogil=True)
def _run_chunk(front, tasks, masks, deadline, cap, board, stats, rest):
    """Search the frontier boards front[tasks] (one thread's chunk, without the GIL); the best
    board goes to `board`. After `cap` positions in all (cap > 0) the rest of the work goes to
    `rest` as frontier boards: the moves not yet tried below the board being searched, then the
    boards not started. Returns (best value, its cell count, boards in rest); stats as in _dfs,
    and stats[1] = ERR_REST if `rest` had no room for them."""
    ws = _workspace()
    cells = np.empty((MAXC, 2), dtype=np.int64)
    out = (cells, rest, stats)
    best_here, nb_here, nrest = 0, 0, 0
    for j in range(len(tasks)):
        f = front[tasks[j]]
        n = f[0, 0]
        left = 0
        if cap > 0:
            left = max(1, cap - stats[0])
        best, nb, nrest = _dfs(ws, f[2:2 + n], f[0, 1], f[1, 0], f[1, 1], (0, best_here, 0, deadline, left), masks,
                               out)
        if nb > 0 and best > best_here:
            best_here, nb_here = best, nb
            board[:nb] = cells[:nb]
        if stats[2] == 2:
            for i in tasks[j + 1:]:
                if nrest < rest.shape[0]:
                    rest[nrest, :front.shape[1]] = front[i]
                nrest += 1
            if nrest > rest.shape[0]:
                stats[1] = ERR_REST
        if stats[2]:
            break
    return best_here, nb_here, nrest


REST = 4096               # room for the boards a capped task hands back


def run_chunk(front: np.ndarray, tasks: np.ndarray, deadline: Deadline,
              cap: int = 0) -> tuple[Outcome[list[list[int]]], np.ndarray]:
    """The best board below the frontier boards front[tasks], complete unless the deadline cut it
    short; and the rest of the work as frontier boards when the cap on positions (cap > 0) cut it
    short (the outcome covers all the rest does not). Raises RuntimeError when the search's fixed
    limits were exceeded."""
    board, stats = np.zeros((MAXC, 2), dtype=np.int64), np.zeros(3, dtype=np.int64)
    rest = np.zeros((REST if cap > 0 else 0, 2 + MAXC, 2), dtype=np.int64)
    found, nb, nrest = _run_chunk(front, tasks, MASKS, deadline.at, cap, board, stats, rest)
    if stats[1]:
        raise RuntimeError(f"search limits exceeded (code {stats[1]})")
    rows = 2 + int(rest[:nrest, 0, 0].max(initial=0))
    handed_back = rest[:nrest if stats[2] == 2 else 0, :rows].copy()
    return (Outcome(int(found) if nb else None, _board(board[:nb]) if nb else None, positions=int(stats[0]),
                    complete=stats[2] != 1, tasks=len(tasks), maximise=True), handed_back)


@njit(cache=True, nogil=True)
def _below(cells, k0, r0, budget, masks, out, stats):
    """_dfs below one board within `budget` positions, without the GIL: the hunt runs it on one
    thread while beams run on the others. The move order is shuffled from a fixed seed, so that a
    board's result does not depend on the thread or on what ran before."""
    np.random.seed(SHUFFLE_SEED)
    best, nb, _ = _dfs(_workspace(), cells, k0, r0, 0, (0, k0 - 1, budget, math.inf, 0), masks,
                       (out, np.empty((0, 2, 2), dtype=np.int64), stats))
    return best, nb


def subtree(n: int, board: list[list[int]], budget: int) -> Outcome[list[list[int]]]:
    """The best board below `board` (numbers 2..k and the ones they touch; the rest of the n ones
    still in hand), by the exact search's kernel within `budget` positions: best is the best value
    above k or k, the witness that board (None if none above k), complete when the whole subtree was
    searched. The record hunt uses it to make a board's tail optimal: a beam keeps too few boards
    there to find the best ending."""
    r2, c2 = next((r, c) for r, c, v in board if v == 2)
    k = max(v for _, _, v in board)
    if any(max(abs(r - r2), abs(c - c2)) > HALF // 2 - 8 for r, c, _ in board):
        return Outcome(k, complete=False, maximise=True)    # too near the edge of group A's half
    cells = np.array(sorted((((r - r2 + CA // W) * W + c - c2 + CA % W, v) for r, c, v in board),
                            key=lambda t: t[1]), dtype=np.int64)
    ones = sum(v == 1 for _, _, v in board)
    out, stats = np.empty((MAXC, 2), dtype=np.int64), np.zeros(3, dtype=np.int64)
    best, nb = _below(cells, k + 1, n - ones, max(1, budget), MASKS, out, stats)
    if stats[1]:
        return Outcome(k, complete=False, maximise=True)
    return Outcome(int(best), _board(out[:nb]) if nb else None, positions=int(stats[0]),
                   complete=int(stats[0]) < budget, maximise=True)


def _board(cells: np.ndarray) -> list[list[int]]:
    """Grid cells -> [row, col, value] triples with the top-left used cell at (0, 0)."""
    return at_origin([[int(p) // W, int(p) % W, int(v)] for p, v in cells])


def frontier(n: int, cut: int, deadline: Deadline = NEVER) -> tuple[np.ndarray | None, Outcome[list[list[int]]]]:
    """The boards just after placing `cut` (tasks; None when the deadline passes first), and the
    outcome of the search above the cut (its best board; complete: it covers nothing below)."""
    cells = np.empty((MAXC, 2), dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    empty = np.empty((0, 2), dtype=np.int64)
    probe = np.empty((0, 2, 2), dtype=np.int64)
    front = probe
    for _ in range(2):        # count the boards, then store them
        stats[:] = 0
        best, nb, count = _dfs(_workspace(), empty, 2, n, 0, (cut, 0, 0, deadline.at, 0), MASKS, (cells, front, stats))
        if stats[1]:
            raise RuntimeError(f"search limits exceeded (code {stats[1]})")
        above = Outcome(int(best), _board(cells[:nb]) if nb else None, positions=int(stats[0]),
                        complete=not stats[2], maximise=True)
        if stats[2]:
            return None, above
        if front is probe:
            front = np.zeros((count, 2 + n + cut, 2), dtype=np.int64)   # header rows, then the cells
    return front, above


def dedupe(front: np.ndarray, deadline: Deadline = NEVER) -> np.ndarray:
    """Drop frontier boards that are rotations/reflections of others (one group only): their
    subtrees are images of each other. This removes the residual symmetry of the symmetric starts.
    Past the deadline the boards come back as they are: fewer tasks only save time."""
    if len(front) == 0 or deadline.passed():
        return front
    one = front[:, 1, 1] == 0
    f = front[one]
    valid = np.arange(f.shape[1] - 2)[None, :] < f[:, 0, 0][:, None]
    p = f[:, 2:, 0]
    codes = canonical_codes(p // W, p % W, f[:, 2:, 1], valid)
    rows = np.ascontiguousarray(codes).view(np.dtype((np.void, codes.shape[1] * codes.itemsize)))
    _, keep = np.unique(rows.ravel(), return_index=True)     # whole rows as bytes: 6x np.unique(axis=0)
    return np.concatenate([f[np.sort(keep)], front[~one]])
