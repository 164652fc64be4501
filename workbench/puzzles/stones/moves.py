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
EXACT = 10                     # _viable plays at most this far past k (12: the same time; 6, 8, 20: slower)
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
def _tail(st, walk, k0, best, best_cells, budget, target, found, stats):
    """The bulk of the tree: no ones left and one group, so number k goes exactly on a cell of sum k.

    A lean loop for this case; a child whose successor cannot be placed (no cell of sum k + 1 now,
    and no neighbour of sum 1 that it would lift to k + 1) is counted without being placed.
    With target > 0 only the children from which the game can go on to the target's window are
    listed (_viable): a board with none is taken back at once, counted, not searched below.
    walk = (cand, ncand, idx, reach) is its workspace.
    With room in `found` (the count of optimal boards), every board that places `target` is kept
    there (_keep), not only the first: the leaf test then looks below the target, not the best.
    Returns (best, cells in the best board or 0, positions, error code).
    """
    b, sm, _, _, bk, bn = st
    cand, ncand, idx, reach = walk
    whole = np.empty((2, 4), dtype=np.int64)
    whole[0, 0] = 0
    whole[0, 1] = H - 1
    whole[0, 2] = 0
    whole[0, 3] = HALF - 1
    nbest = 0
    nodes = 0
    lim = _limit(best, target, found)
    if target > 0:
        ncand[0] = _viable(st, reach, k0, target, cand, 0)
    else:
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
            if v <= lim and bn[v + 1] == 0:
                leaf = True
                for d in range(8):
                    q = p + OFF[d]
                    if sm[q] == 1:
                        leaf = False
                        break
                if leaf:
                    continue
            row = p // W
            col = p % W
            if row < MARGIN or row >= H - MARGIN or col < MARGIN or col >= HALF - MARGIN or L >= MAXL - 2:
                return best, nbest, nodes, ERR_EDGE
            _put(st, p, v, 1, False)
            if v > lim:
                lim = _keep(b, whole, 0, v, target, found, stats)
                if v > best:
                    best = v
                    nbest = _snapshot(b, whole, 0, best_cells)
            if target > 0:
                nv = _viable(st, reach, v + 1, target, cand, L + 1)
                if nv == 0:
                    _put(st, p, v, -1, False)
                    continue
                ncand[L + 1] = nv
            else:
                ncand[L + 1] = bn[v + 1]
                cand[L + 1, :bn[v + 1]] = bk[v + 1, :bn[v + 1]]
            L += 1
            idx[L] = 0
        else:
            L -= 1
            if L >= 0:
                _put(st, cand[L, idx[L] - 1], k0 + L, -1, False)
    return best, nbest, nodes, 0


@njit(cache=True)
def _viable(st, reach, k, target, cand, row):
    """Writes into cand[row] the cells of sum k from which the game can go on to place every number of
    k..t, t = min(target, 2k - 1, k + EXACT), and returns how many: the children worth placing (0: the
    board is dead). Sound for a search that only asks whether `target` is reachable, since reaching
    it means placing all of k..t.

    Proof that the game below is the game (no ones left, one group). Take m in k..t, the cell x where
    it goes and s0, x's sum now. When m goes there x's sum is s0 plus the numbers placed next to it
    since, each in k..m-1; two of them add at least 2k + 1 > t >= m, so at most one did. Either none
    (x is a root: s0 = m, k <= s0 <= t) or exactly one, j (x is a small cell: 1 <= s0 = m - j <= t - k,
    next to j's cell); a cell of any other sum takes none of k..t. By induction on m, m's cell has
    lo <= m, lo being s0 for a root and s0 plus the least lo of its root or small neighbours for a
    small cell. So the cells that can take a number are the roots of k..t and the small cells of
    lo <= t, and a cell takes m exactly when its sum at that time is m. Playing k..t on just those
    cells, each with its sum and a bit mask of its neighbours among them, is then the game itself
    up to t, with what Hall-type counts miss: a number that kills a root of a larger sum next to it,
    a small cell touched twice. Over 64 such cells it answers every cell of sum k (no cut).

    Cost: a call costs about four positions and cuts at once what the search would reach only by
    placing the numbers (the issue 61 notes: a(4), target 39, 18.6 M positions become 2.9 M).
    """
    _, sm, _, _, bk, bn = st
    slot, xc, xv, xa, xlo, xs, bym = reach
    t = min(target, 2 * k - 1, k + EXACT)
    if t < k or bn[k] == 0:
        cand[row, :bn[k]] = bk[k, :bn[k]]
        return bn[k]
    n = 0
    full = False
    for d in range(k, t + 1):
        for i in range(bn[d]):
            if n >= 64:
                full = True
                break
            c = bk[d, i]
            slot[c] = n + 1
            xc[n] = c
            xlo[n] = d
            n += 1
    head = 0
    while head < n and not full:
        c = xc[head]
        lo = xlo[head]
        head += 1
        for j in range(8):
            q = c + OFF[j]
            s = sm[q]
            if 1 <= s <= t - k and lo + s <= t:
                e = slot[q] - 1
                if e < 0 or lo + s < xlo[e]:
                    if n >= 64:
                        full = True
                        break
                    if e < 0:
                        slot[q] = n + 1
                    else:
                        xlo[e] = lo + s     # a shorter path: its neighbours again, from a copy
                    xc[n] = q
                    xlo[n] = lo + s
                    n += 1
    found = bn[k]
    if full:
        cand[row, :bn[k]] = bk[k, :bn[k]]
    else:
        m = 0                               # the distinct cells, their sums and neighbour masks
        for i in range(n):
            c = xc[i]
            if slot[c] == i + 1:            # not a later copy
                xc[m] = c
                slot[c] = m + 1
                m += 1
        n = m
        for i in range(n):
            xv[i] = sm[xc[i]]
            a = np.uint64(0)
            for j in range(8):
                e = slot[xc[i] + OFF[j]]
                if e > 0:
                    a |= np.uint64(1) << np.uint64(e - 1)
            xa[i] = a
        good = _play(xv, xa, xs, bym, n, k, t)
        found = 0
        while good:                         # the roots of sum k are cells 0..bn[k] - 1, in bk's order
            cand[row, found] = xc[_low(good)]
            good &= good - np.uint64(1)
            found += 1
    for i in range(n):
        slot[xc[i]] = 0
    return found


@njit(cache=True, inline="always")
def _shift(xv, xa, bym, i, m, t):
    """Add m to the sums of cell i's neighbours, keeping the masks by sum (sums past t are dropped)."""
    one = np.uint64(1)
    a = xa[i]
    while a:
        j = _low(a)
        a &= a - one
        v = xv[j]
        bit = one << np.uint64(j)
        if v <= t:
            bym[v] &= ~bit
        v += m
        if v <= t:
            bym[v] |= bit
        xv[j] = v


@njit(cache=True, inline="always")
def _play(xv, xa, xs, bym, n, k, t):
    """The mask of the cells of sum k from which k..t can be placed, one at a time, each on a free cell
    whose sum xv equals it (placing m adds m to the cells of its neighbour mask xa). Depth-first,
    each first choice until it reaches t; bym[v] is the mask of the cells of sum v (v <= t), xs holds
    each level's open choices and (at 64 + level) its choice."""
    one = np.uint64(1)
    bym[:t + 1] = 0
    for i in range(n):
        bym[xv[i]] |= one << np.uint64(i)
    used = np.uint64(0)
    good = np.uint64(0)
    L = 0
    xs[0] = bym[k]
    while True:
        if xs[L] == 0:
            if L == 0:
                break
            L -= 1
            c = np.int64(xs[64 + L])
            used &= ~(one << np.uint64(c))
            _shift(xv, xa, bym, c, -(k + L), t)
            continue
        i = _low(xs[L])
        xs[L] &= xs[L] - one
        if k + L == t:                      # the first choice reaches t: undo back to level 0
            good |= one << (xs[64] if L > 0 else np.uint64(i))
            while L > 0:
                L -= 1
                c = np.int64(xs[64 + L])
                used &= ~(one << np.uint64(c))
                _shift(xv, xa, bym, c, -(k + L), t)
            continue
        xs[64 + L] = np.uint64(i)
        used |= one << np.uint64(i)
        _shift(xv, xa, bym, i, k + L, t)
        L += 1
        xs[L] = bym[k + L] & ~used
    return good


DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
LOWEST = np.zeros(64, dtype=np.int64)
for _i in range(64):
    LOWEST[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i


@njit(cache=True, inline="always")
def _low(a):
    """Index of the lowest set bit of a nonzero uint64 (de Bruijn)."""
    return LOWEST[((a & (~a + np.uint64(1))) * DEBRUIJN) >> np.uint64(58)]


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
    its levels, the masks by sum)."""
    board = (np.zeros(H * W, dtype=np.int32), np.zeros(H * W, dtype=np.int32),
             np.zeros(H * W, dtype=np.int32), np.zeros(H * W, dtype=np.int32),
             np.zeros((MAXS, CAP), dtype=np.int32), np.zeros(MAXS, dtype=np.int32))
    moves = (np.empty((MAXL, MAXM), dtype=np.int32), np.empty((MAXL, MAXM), dtype=np.int32),
             np.empty((MAXL, MAXM), dtype=np.int32), np.empty((MAXL, MAXM), dtype=np.int32))
    reach = (np.zeros(H * W, dtype=np.int32), np.empty(64, dtype=np.int32), np.empty(64, dtype=np.int64),
             np.empty(64, dtype=np.uint64), np.empty(64, dtype=np.int32), np.empty(128, dtype=np.uint64),
             np.empty(MAXS, dtype=np.uint64))
    walk = (np.empty((MAXL, CAP), dtype=np.int32), np.empty(MAXL, dtype=np.int64), np.empty(MAXL, dtype=np.int64),
            reach)
    return board, moves, walk


@njit(cache=True)
def _borrowed(ws):
    """The workspace as views without reference counts (search.compiled.borrowed): the kernels pass
    its arrays to a helper at every position, and numba's atomic reference counts on those calls
    took most of the search's time. The caller keeps `ws` alive."""
    (b, sm, pl, pos, bk, bn), (mt, mp, mm, mo), (cand, ncand, idx, (slot, xc, xv, xa, xlo, xs, bym)) = ws
    return ((borrowed(b), borrowed(sm), borrowed(pl), borrowed(pos), borrowed(bk), borrowed(bn)),
            (borrowed(mt), borrowed(mp), borrowed(mm), borrowed(mo)),
            (borrowed(cand), borrowed(ncand), borrowed(idx),
             (borrowed(slot), borrowed(xc), borrowed(xv), borrowed(xa), borrowed(xlo), borrowed(xs), borrowed(bym))))
