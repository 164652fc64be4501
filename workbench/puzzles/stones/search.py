"""Exact search for the stepping-stones puzzle (OEIS A337663), compiled with numba.

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
- The tree is cut at a fixed value into independent tasks (the frontier), shuffled and handed out in
  small chunks to a pool of threads (the kernel releases the GIL): task sizes vary a lot, so a fixed
  split would leave a core idle. Between chunks Python honours the time limit and logs progress.
"""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any

import numba
import numpy as np
from numba import njit

from ...solvers.base import Incumbent, Options, Report, Result, Status

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
NEIGHBOUR_OFFSETS = OFF

PLACE, NEWB, MERGE = 0, 1, 2
ERR_MOVES, ERR_EDGE = 1, 2
TIMED_OUT = -1          # stats[2] after a search stopped at its deadline (stats[2] > 0: the deadline)
CLOCK_EVERY = 1 << 16   # positions between two looks at the clock


def _transform(o: int, dr: int, dc: int) -> tuple[int, int]:
    """The 8 symmetries of the square: bit 0 swaps the axes, bits 1 and 2 negate them."""
    if o & 1:
        dr, dc = dc, dr
    if o & 2:
        dr = -dr
    if o & 4:
        dc = -dc
    return dr, dc


_tr = njit(cache=True)(_transform)       # the same, for the compiled search


def _mask_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Masks of the 8 neighbours by popcount, all of them and one per symmetry class."""
    dirs = list(zip(DR.tolist(), DC.tolist()))
    perm = [[dirs.index(_transform(o, *d)) for d in dirs] for o in range(8)]
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


ALLM, ALLN, CANM, CANN = _mask_tables()


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
def _put(b, sm, pl, pos, bk, bn, p, v, sign):
    """Add (sign=1) or remove (sign=-1) value v at cell p, keeping neighbour sums, blocks and the
    buckets of empty cells by sum (so the cells with a wanted sum are found without a scan)."""
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
def _add_places(b, sm, pl, p, k, r, L, mt, mp, mm, mo, nm, allm, alln):
    """Moves putting k on empty cell p with j = k - sum new ones; returns False on overflow."""
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
        tr, tc = _tr(o, q // W - dr0, q % W - dc0)
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
def _gen(b, sm, pl, pos, bk, bn, bb, hasb, k, r, pend, L, mt, mp, mm, mo, nm,
         allm, alln, canm, cann, bcells):
    """All moves for placing k (or, after a merge, placing k at the pending cell). Returns an error code."""
    nm[L] = 0
    if pend >= 0:
        return 0 if _add_places(b, sm, pl, pend, k, r, L, mt, mp, mm, mo, nm, allm, alln) else ERR_MOVES
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
            if not _add_places(b, sm, pl, bk[s, i], k, r, L, mt, mp, mm, mo, nm, allm, alln):
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
def _place(b, sm, pl, pos, bk, bn, bb, g, p, m, k):
    for d in range(8):
        if m >> d & 1:
            _put(b, sm, pl, pos, bk, bn, p + OFF[d], 1, 1)
            _grow(bb, g, p + OFF[d])
    _put(b, sm, pl, pos, bk, bn, p, k, 1)
    _grow(bb, g, p)


@njit(cache=True)
def _unplace(b, sm, pl, pos, bk, bn, p, m, k):
    _put(b, sm, pl, pos, bk, bn, p, k, -1)
    for d in range(8):
        if m >> d & 1:
            _put(b, sm, pl, pos, bk, bn, p + OFF[d], 1, -1)


@njit(cache=True)
def _popcount(m):
    n = 0
    while m:
        n += m & 1
        m >>= 1
    return n


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
def _tail(b, sm, pl, pos, bk, bn, k0, best, best_cells, cand, ncand, idx, budget):
    """The bulk of the tree: no ones left and one group, so number k goes exactly on a cell of sum k.

    A lean loop for this case; a child whose successor cannot be placed (no cell of sum k + 1 now,
    and no neighbour of sum 1 that it would lift to k + 1) is counted without being placed.
    Returns (best, cells in the best board or 0, positions, error code).
    """
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
            _put(b, sm, pl, pos, bk, bn, p, v, 1)
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
                _put(b, sm, pl, pos, bk, bn, cand[L, idx[L] - 1], k0 + L, -1)
    return best, nbest, nodes, 0


@njit(cache=True)
def _shuffle(L, mt, mp, mm, mo, idx, nm, tmp):
    """Record hunt: when level L is first entered, shuffle its moves, then order them stably by the
    number of new ones they spend (fewest first: ones are the scarce resource)."""
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
    return 0 if t == MERGE else min(8, _popcount(m))


@njit(cache=True)
def _workspace():
    """Board, sums, blocks, bucket positions, buckets, bucket sizes and the per-level move lists."""
    return (np.zeros(H * W, dtype=np.int32), np.zeros(H * W, dtype=np.int32),
            np.zeros(H * W, dtype=np.int32), np.zeros(H * W, dtype=np.int32),
            np.zeros((MAXS, CAP), dtype=np.int32), np.zeros(MAXS, dtype=np.int32),
            np.empty((MAXL, MAXM), dtype=np.int32), np.empty((MAXL, MAXM), dtype=np.int32),
            np.empty((MAXL, MAXM), dtype=np.int32), np.empty((MAXL, MAXM), dtype=np.int32),
            np.empty((MAXL, CAP), dtype=np.int32), np.empty(MAXL, dtype=np.int64),
            np.empty(MAXL, dtype=np.int64))


@njit(cache=True)
def _clock_us() -> int:
    with numba.objmode(t="int64"):
        t = int(time.monotonic() * 1e6)
    return t


@njit(cache=True)
def _dfs(ws, cells, ncell, k0, r0, hasb0, cut, floor, budget, allm, alln, canm, cann, best_cells, frontier,
         stats):
    """Depth-first search from the board `cells` (next number k0, r0 ones left).

    ws is a zeroed workspace (see _workspace) and is left zeroed. With cut > 0, the boards just
    after placing `cut` are written to `frontier` (as far as it has room) instead of being searched.
    With budget > 0 (the record hunt) the moves of each level are shuffled, a level with more moves
    than fit keeps those that fit, and the search stops after about `budget` positions.
    Returns (best value, cells in best board, frontier count); stats[0] += positions visited,
    stats[1] = error code. A third entry stats[2] > 0 is a deadline (time.monotonic() in
    microseconds): past it the search unwinds and sets stats[2] = TIMED_OUT.
    """
    b, sm, pl, pos, bk, bn, mt, mp, mm, mo, cand, ncand, cidx = ws
    bb = np.empty((2, 4), dtype=np.int64)
    bb[:, 0] = H
    bb[:, 1] = -1
    bb[:, 2] = W
    bb[:, 3] = -1
    hasb = hasb0
    top = 1 if r0 + ncell > 0 else 0
    for i in range(ncell):
        _put(b, sm, pl, pos, bk, bn, cells[i, 0], cells[i, 1], 1)
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
    kk[0] = k0
    rr[0] = r0
    err = _gen(b, sm, pl, pos, bk, bn, bb, hasb, k0, r0, -1, 0, mt, mp, mm, mo, nm,
               allm, alln, canm, cann, bcells)
    L = 0
    nodes = 1
    next_clock = CLOCK_EVERY
    timed = stats.shape[0] > 2 and stats[2] > 0
    while L >= 0:
        if timed and nodes >= next_clock:
            next_clock = nodes + CLOCK_EVERY
            if _clock_us() > stats[2]:      # unwind: every level counts as exhausted
                stats[2] = TIMED_OUT
                timed = False
                nm[:L + 1] = idx[:L + 1]
        if budget > 0:
            if err == ERR_MOVES:
                err = 0
            if nodes >= budget:
                nm[:L + 1] = idx[:L + 1]
            else:
                _shuffle(L, mt, mp, mm, mo, idx, nm, tmp)
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
                    _put(b, sm, pl, pos, bk, bn, q, v, -1)
                    tr, tc = _tr(o, q // W - d // W, q % W - d % W)
                    tq = (p // W + tr) * W + p % W + tc
                    _put(b, sm, pl, pos, bk, bn, tq, v, 1)
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
                _place(b, sm, pl, pos, bk, bn, bb, g, p, m, k)
                if t == NEWB:
                    hasb = 1
                if not _edge_ok(bb, g):
                    err = ERR_EDGE
                    break
                kk[L + 1] = k + 1
                rr[L + 1] = rr[L] - _popcount(m)
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
            if cut > 0 and pend[L] < 0 and kk[L] == cut + 1:
                if nfront < frontier.shape[0]:
                    n = _snapshot(b, bb, hasb, frontier[nfront, 2:])
                    frontier[nfront, 0, 0] = n
                    frontier[nfront, 0, 1] = kk[L]
                    frontier[nfront, 1, 0] = rr[L]
                    frontier[nfront, 1, 1] = hasb
                nfront += 1
                nm[L] = 0
            elif cut == 0 and rr[L] == 0 and hasb == 0 and pend[L] < 0:
                best, nb, n, err = _tail(b, sm, pl, pos, bk, bn, kk[L], best, best_cells, cand, ncand, cidx,
                                         max(1, budget - nodes) if budget > 0 else 0)
                if nb > 0:
                    nbest = nb
                nodes += n
                nm[L] = 0
            else:
                err = _gen(b, sm, pl, pos, bk, bn, bb, hasb, kk[L], rr[L], pend[L], L,
                           mt, mp, mm, mo, nm, allm, alln, canm, cann, bcells)
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
                    tr, tc = _tr(o, q // W - d // W, q % W - d % W)
                    tq = (p // W + tr) * W + p % W + tc
                    v = b[tq]
                    _put(b, sm, pl, pos, bk, bn, tq, v, -1)
                    _put(b, sm, pl, pos, bk, bn, q, v, 1)
            else:
                _unplace(b, sm, pl, pos, bk, bn, p, mm[L, i], kk[L])
            bb[:] = bbs[L]
            hasb = hbs[L]
    for i in range(ncell - 1, -1, -1):
        _put(b, sm, pl, pos, bk, bn, cells[i, 0], cells[i, 1], -1)
    if bn[0] != 0:
        err = ERR_MOVES
    stats[0] += nodes
    if err != 0:
        stats[1] = err
    return best, nbest, nfront


CHUNK = 16                     # tasks per hand-out: small, so the threads finish together


@njit(cache=True, nogil=True)
def _run_chunk(front, tasks, allm, alln, canm, cann, board, stats):
    """Search the frontier boards front[tasks] (one thread's chunk, without the GIL); the best
    board goes to `board`. Returns (best value, its cell count); stats as in _dfs."""
    ws = _workspace()
    cells = np.empty((MAXC, 2), dtype=np.int64)
    dummy = np.empty((0, 2, 2), dtype=np.int64)
    best_here, nb_here = 0, 0
    for i in tasks:
        f = front[i]
        n = f[0, 0]
        best, nb, _ = _dfs(ws, f[2:2 + n], n, f[0, 1], f[1, 0], f[1, 1], 0, best_here, 0,
                           allm, alln, canm, cann, cells, dummy, stats)
        if nb > 0 and best > best_here:
            best_here, nb_here = best, nb
            board[:nb] = cells[:nb]
        if stats.shape[0] > 2 and stats[2] == TIMED_OUT:
            break
    return best_here, nb_here


POSITIONS_PER_SECOND = 2.5e6    # the kernel's speed here (measured: 5e7 positions in 19.5 s), for budgets


def subtree(n: int, board: list[list[int]], budget: int) -> tuple[int, list[list[int]], bool]:
    """The best board below `board` (numbers 2..k and the ones they touch; the rest of the n ones
    still in hand), by the exact search's kernel within `budget` positions. Returns (best value
    above k or k, that board or [], whether the whole subtree was searched). The record hunt uses it
    to make a board's tail optimal: a beam keeps too few boards there to find the best ending."""
    r2, c2 = next((r, c) for r, c, v in board if v == 2)
    k = max(v for _, _, v in board)
    if any(max(abs(r - r2), abs(c - c2)) > HALF // 2 - 8 for r, c, _ in board):
        return k, [], False                     # too near the edge of group A's half of the grid
    cells = np.array(sorted((((r - r2 + CA // W) * W + c - c2 + CA % W, v) for r, c, v in board),
                            key=lambda t: t[1]), dtype=np.int64)
    ones = sum(v == 1 for _, _, v in board)
    out, stats = np.empty((MAXC, 2), dtype=np.int64), np.zeros(2, dtype=np.int64)
    best, nb, _ = _dfs(_workspace(), cells, len(cells), k + 1, n - ones, 0, 0, k, max(1, budget),
                       ALLM, ALLN, CANM, CANN, out, np.empty((0, 2, 2), dtype=np.int64), stats)
    if stats[1]:
        return k, [], False
    return int(best), _board(out[:nb]) if nb else [], int(stats[0]) < budget


def _board(cells: np.ndarray) -> list[list[int]]:
    """Grid cells -> [row, col, value] triples with the top-left used cell at (0, 0)."""
    rows = [[int(p) // W, int(p) % W, int(v)] for p, v in cells]
    r0 = min(r for r, _, _ in rows)
    c0 = min(c for _, c, _ in rows)
    return sorted([[r - r0, c - c0, v] for r, c, v in rows], key=lambda t: t[2])


def frontier(n: int, cut: int, deadline: float | None = None) -> tuple[np.ndarray | None, int, np.ndarray, int]:
    """The boards just after placing `cut` (tasks), and the best board seen above the cut; None
    for the tasks when the deadline (time.monotonic()) passes first."""
    cells = np.empty((MAXC, 2), dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    empty = np.empty((0, 0), dtype=np.int64)
    probe = np.empty((0, 2, 2), dtype=np.int64)
    front = probe
    for _ in range(2):        # count the boards, then store them
        stats[:] = 0, 0, 0 if deadline is None else max(1, int(deadline * 1e6))
        best, nb, count = _dfs(_workspace(), empty, 0, 2, n, 0, cut, 0, 0, ALLM, ALLN, CANM, CANN, cells,
                               front, stats)
        if stats[1]:
            raise RuntimeError(f"search limits exceeded (code {stats[1]})")
        if stats[2] == TIMED_OUT:
            return None, best, cells[:nb].copy(), int(stats[0])
        if front is probe:
            front = np.zeros((count, 2 + n + cut, 2), dtype=np.int64)   # header rows, then the cells
    return front, best, cells[:nb].copy(), int(stats[0])


def dedupe(front: np.ndarray, deadline: float | None = None) -> np.ndarray:
    """Drop frontier boards that are rotations/reflections of others (one group only): their
    subtrees are images of each other. This removes the residual symmetry of the symmetric starts.
    Past the deadline (time.monotonic()) the boards come back as they are: fewer tasks only save time."""
    if len(front) == 0:
        return front
    one = front[:, 1, 1] == 0
    f = front[one]
    cnt = f[:, 0, 0]
    width = f.shape[1] - 2
    valid = np.arange(width)[None, :] < cnt[:, None]
    p, v = f[:, 2:, 0], f[:, 2:, 1]
    best = None
    for o in range(8):
        if deadline is not None and time.monotonic() > deadline:
            return front
        r, c = _transform(o, p // W, p % W)
        r = np.where(valid, r, 10**6)
        c = np.where(valid, c, 10**6)
        r = r - r.min(axis=1, keepdims=True)
        c = c - c.min(axis=1, keepdims=True)
        code = np.where(valid, (r * 1024 + c) * 1024 + v, np.iinfo(np.int64).max)
        code.sort(axis=1)
        if best is None:
            best = code
            continue
        diff = code != best
        first = diff.argmax(axis=1)
        rows = np.arange(len(code))
        less = diff.any(axis=1) & (code[rows, first] < best[rows, first])
        best[less] = code[less]
    _, keep = np.unique(best, axis=0, return_index=True)
    return np.concatenate([f[np.sort(keep)], front[~one]])


def search(n: int, time_limit: float | None = None, threads: int = 2, seed: int = 0,
           cut: int | None = None, log=None, report: Report | None = None) -> dict:
    """Exhaustive search for a(n): the largest number reachable with n ones (n <= 8)."""
    if not 1 <= n <= 8:
        raise ValueError("the exact search handles 1 <= n <= 8 (at most two groups)")
    start = time.monotonic()
    cut = cut if cut is not None else {1: 3, 2: 3, 3: 4, 4: 6, 5: 6}.get(n, 7)
    deadline = None if time_limit is None else start + time_limit
    front, best, best_cells, nodes = frontier(n, cut, deadline)
    if report is not None and len(best_cells):
        report(Incumbent(best, None, _board(best_cells)))
    cut_short = front is None           # the deadline came before the tasks were made
    front = np.empty((0, 2, 2), dtype=np.int64) if front is None else dedupe(front, deadline)
    order = np.random.default_rng(seed).permutation(len(front))
    threads = max(1, min(threads, os.cpu_count() or 1))
    chunks = [order[i:i + CHUNK] for i in range(0, len(order), CHUNK)]
    done, logged = 0, 0

    def run(tasks: np.ndarray) -> tuple[int, int, np.ndarray, np.ndarray]:
        board, stats = np.zeros((MAXC, 2), dtype=np.int64), np.zeros(3, dtype=np.int64)
        stats[2] = 0 if deadline is None else max(1, int(deadline * 1e6))
        found, nb = _run_chunk(front, tasks, ALLM, ALLN, CANM, CANN, board, stats)
        return found, nb, board, stats

    with ThreadPoolExecutor(threads) as pool:
        pending = {pool.submit(run, c): len(c) for c in chunks[:4 * threads]}
        queued = iter(chunks[4 * threads:])
        while pending:
            finished, _ = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)
            for future in finished:
                found, nb, board, stats = future.result()
                if stats[1]:
                    raise RuntimeError(f"search limits exceeded (code {stats[1]})")
                nodes += int(stats[0])
                size = pending.pop(future)
                done += size if stats[2] != TIMED_OUT else 0     # a chunk cut short proves nothing
                if found > best and nb > 0:
                    best, best_cells = int(found), board[:nb].copy()
                    if report is not None:
                        report(Incumbent(best, None, _board(best_cells)))
            if deadline is None or time.monotonic() <= deadline:   # past it: running chunks stop at the clock
                for c in queued:
                    pending[pool.submit(run, c)] = len(c)
                    if len(pending) >= 4 * threads:
                        break
            if log is not None and (done - logged >= len(order) // 200 or not pending):
                logged = done
                print(f"{time.monotonic() - start:9.1f}s tasks {done}/{len(order)} positions {nodes:,} "
                      f"best {best}", file=log, flush=True)
    complete = not cut_short and done == len(order)     # every task searched to the end: a proof
    return {"best": int(best), "board": _board(best_cells) if len(best_cells) else [],
            "complete": complete, "positions": nodes, "tasks": len(order), "cut": cut,
            "seconds": time.monotonic() - start}


def warm_up() -> None:
    """Compile the exact search and the record hunt (numba caches them on disk)."""
    from .hunt import hunt
    search(1, threads=1)
    hunt(1, 0.01, threads=1)


def solve(n: int | None, params: Any, options: Options, report: Report) -> Result:
    """The native search: exhaustive for n <= 5 (or --exact, n <= 8; the proof is the complete
    enumeration), the record hunt (hunt.py) for n >= 6 or with --hunt."""
    assert n is not None
    if (n >= 6 and not params.exact) or params.hunt:
        from .hunt import solve as hunt
        return hunt(n, params, options, report)
    log = sys.stderr if options.verbose else None
    out = search(n, options.time_limit, options.threads, options.seed, params.cut, log, report)
    if not out["board"] and out["best"] == 1:
        out["board"] = [[0, 0, 1]]        # no 2 can be placed: a lone one is the whole board
    status = Status.OPTIMAL if out["complete"] else Status.FEASIBLE
    return Result(status=status, objective=out["best"], bound=out["best"] if out["complete"] else None,
                  values=out["board"], solution=out["board"],
                  message=f"{out['positions']:,} positions, {out['tasks']} tasks cut at {out['cut']}"
                          + ("" if out["complete"] else " (time limit: incomplete)"))


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="exact stepping-stones search with a progress log")
    ap.add_argument("n", type=int)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cut", type=int, default=None)
    ap.add_argument("--time-limit", type=float, default=None)
    a = ap.parse_args()
    res = search(a.n, a.time_limit, a.threads, cut=a.cut, log=sys.stdout)
    print({k: v for k, v in res.items() if k != "board"})
    print(res["board"])
