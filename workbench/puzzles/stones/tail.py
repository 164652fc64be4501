"""The tail of the stepping-stones exact search (kernel.py): no ones left and one group, so number k
goes exactly on a cell of sum k. Its lean loop, and the target's prune: the game itself played over
the next numbers on the few cells that can take them (_viable), in a small depth-first search.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...search.bits import lowest_bit
from .moves import ERR_EDGE, HALF, MARGIN, MAXL, OFF, H, W, _keep, _limit, _put, _snapshot

GROUP_AHEAD = 10               # a group of roots (_live_ones) is played at most this far past k: 8 to 16 the
                               # same time, up to 2k - 1 slower; a tail board's own game (_viable) plays to 2k - 1


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
    b, sm, _, _, _, bn = st
    cand, ncand, idx, reach = walk
    whole = np.empty((2, 4), dtype=np.int64)
    whole[0, 0] = 0
    whole[0, 1] = H - 1
    whole[0, 2] = 0
    whole[0, 3] = HALF - 1
    nbest = 0
    nodes = 0
    lim = _limit(best, target, found)
    ncand[0] = _viable(st, reach, k0, target, cand, 0) if target > 0 else _bucket(st, k0, cand, 0)
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
            else:
                nv = _bucket(st, v + 1, cand, L + 1)
            ncand[L + 1] = nv
            L += 1
            idx[L] = 0
        else:
            L -= 1
            if L >= 0:
                _put(st, cand[L, idx[L] - 1], k0 + L, -1, False)
    return best, nbest, nodes, 0


@njit(cache=True, inline="always")
def _bucket(st, k, cand, row):
    """Writes into cand[row] every cell of sum k (where k may go) and returns how many."""
    bk, bn = st[4], st[5]
    cand[row, :bn[k]] = bk[k, :bn[k]]
    return bn[k]


@njit(cache=True)
def _viable(st, reach, k, target, cand, row):
    """Writes into cand[row] the cells of sum k from which the game can go on to place every number of
    k..t, t = min(target, 2k - 1), and returns how many: the children worth placing (0: the
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

    Cost: a call costs three to four positions and cuts at once what the search would reach only by
    placing the numbers (the issue 61 notes: a(4), target 39, 18.6 M positions become 2.9 M).
    """
    bn, xc = st[5], reach[1]
    t = min(target, 2 * k - 1)
    if t < k or bn[k] == 0:
        return _bucket(st, k, cand, row)
    good, full = _game(st, reach, k, t, None, 0)
    if full:
        return _bucket(st, k, cand, row)
    found = 0
    while good:                             # the roots of sum k are cells 0..bn[k] - 1, in bk's order
        cand[row, found] = xc[lowest_bit(good)]
        good &= good - np.uint64(1)
        found += 1
    return found


@njit(cache=True)
def _live_ones(st, reach, k, target, p, ones):
    """Which tail roots of a group can go on: k goes on p (sum k - 1) with the last one on one of the
    cells of `ones` (a mask of directions from p), so the roots' boards differ only by the +1 of the
    one on its neighbours. One game plays them all (_game with `amb`, _play with `lifted`): a cell
    next to some one's cell may take its sum or one more, and each path keeps the roots it is a play
    of (a cell taken at its sum rules out the ones next to it, at one more those not next to it, and
    a one's own cell rules out its root); the game's cells are the union of the roots' (each root's
    are there, and a cell that takes nothing in a root changes nothing). Returns the mask of the
    roots from which t is reached, exactly as each root's own _viable would find it, for one call
    instead of one a root (`ones` when the cells passed 64)."""
    amb = reach[7]
    k1 = k + 1
    t = min(target, 2 * k1 - 1, k1 + GROUP_AHEAD)
    if t < k1:
        return ones
    _put(st, p, k, 1, False)
    for d in range(8):
        if ones >> d & 1:
            e = p + OFF[d]
            amb[e] |= 256 << d
            for j in range(8):
                amb[e + OFF[j]] |= 1 << d
    live, full = _game(st, reach, k1, t, amb, ones)
    for d in range(8):
        if ones >> d & 1:
            for j in range(8):
                amb[p + OFF[d] + OFF[j]] = 0
            amb[p + OFF[d]] = 0
    _put(st, p, k, -1, False)
    return ones if full else np.int64(live)


@njit(cache=True, inline="always")
def _game(st, reach, k, t, amb, ones):
    """_viable's game over k..t: its cells collected, then played. With `amb` (not None) it is the
    game of a group of roots (_live_ones): a cell marked there may take its sum or one more, and the
    answer is the mask of `ones` whose roots reach t; numba compiles the two cases apart, so the
    game of every tail board pays nothing for it. Returns (the mask of the first cells, in xc, or of
    the roots from which t is reached; whether the cells passed 64: then no answer), with `slot`
    cleared again."""
    _, sm, _, _, bk, bn = st
    slot, xc, xv, xa, xlo, xs, bym, _, xe, es = reach
    n = 0
    full = False
    for d in range(k if amb is None else k - 1, t + 1):
        for i in range(bn[d]):
            c = bk[d, i]
            if amb is not None:
                if d < k and amb[c] & 255 == 0:     # a root only with a one's +1
                    continue
            if n >= 64:
                full = True
                break
            slot[c] = n + 1
            xc[n] = c
            xlo[n] = max(d, k)
            n += 1
    head = 0
    while head < n and not full:
        c = xc[head]
        lo = xlo[head]
        head += 1
        near = 0                            # its neighbours of sum 1..t - lo: one test each, no branch
        for j in range(8):                  # (a branch each cost 10 % of the search)
            s = sm[c + OFF[j]] if amb is None else max(sm[c + OFF[j]], min(amb[c + OFF[j]] & 255, 1))
            near |= int(np.uint32(s - 1) < np.uint32(t - lo)) << j
        while near:
            j = lowest_bit(np.uint64(near))
            near &= near - 1
            q = c + OFF[j]
            s = sm[q] if amb is None else max(sm[q], min(amb[q] & 255, 1))
            e = slot[q] - 1
            if e < 0 or lo + s < xlo[e]:
                if n >= 64:
                    full = True
                    break
                if e < 0:
                    slot[q] = n + 1
                else:
                    xlo[e] = lo + s         # a shorter path: its neighbours again, from a copy
                xc[n] = q
                xlo[n] = lo + s
                n += 1
    if full:
        for i in range(n):
            slot[xc[i]] = 0
        return np.uint64(0), True
    m = 0                                   # the distinct cells, their sums and neighbour masks
    for i in range(n):
        c = xc[i]
        if slot[c] == i + 1:                # not a later copy
            xc[m] = c
            slot[c] = m + 1
            m += 1
    for i in range(m):
        xv[i] = sm[xc[i]]
        a = np.uint64(0)
        for j in range(8):
            e = slot[xc[i] + OFF[j]]
            if e > 0:
                a |= np.uint64(1) << np.uint64(e - 1)
        xa[i] = a
    for i in range(m):
        slot[xc[i]] = 0
    bym[:t + 1] = 0
    for i in range(m):
        bym[xv[i]] |= np.uint64(1) << np.uint64(i)
    if amb is None:
        return _play(xv, xa, xs, bym, k, t, None, xe, es, 0), False
    lifted = np.uint64(0)
    for i in range(m):
        xe[i] = amb[xc[i]]
        if xe[i] & 255:
            lifted |= np.uint64(1) << np.uint64(i)
    return _play(xv, xa, xs, bym, k, t, lifted, xe, es, ones), False


@njit(cache=True, inline="always")
def _shift(xv, xa, bym, i, m, t):
    """Add m to the sums of cell i's neighbours, keeping the masks by sum. A sum past t goes to
    bym[t + 1], which the game never reads, so no neighbour's sum needs a test (a branch)."""
    one = np.uint64(1)
    a = xa[i]
    while a:
        j = lowest_bit(a)
        a &= a - one
        v = xv[j]
        bit = one << np.uint64(j)
        bym[min(v, t + 1)] &= ~bit
        v += m
        bym[min(v, t + 1)] |= bit
        xv[j] = v


@njit(cache=True, inline="always")
def _play(xv, xa, xs, bym, k, t, lifted, xe, es, roots):
    """The mask of the cells of sum k from which k..t can be placed, one at a time, each on a free cell
    whose sum xv equals it (placing m adds m to the cells of its neighbour mask xa). Depth-first,
    each first choice until it reaches t; before m goes on a cell it reads the cells m + 1 would then
    have, and for each of those the cells m + 2 would have after both, so a choice dead within two
    numbers costs no shifts (1.2x, then 4 %). bym[v] is the mask of the cells of sum v (v <= t; the
    caller fills it), xs holds each level's open choices and (at 64 + level) its choice.

    With `lifted` (not None), the game of a group of roots (_live_ones): a cell of `lifted` takes its
    sum or one more, so the cells that may take v are bym[v] | bym[v - 1] & lifted (what the look
    ahead reads: more cells, never fewer); xe[i] has bit d when cell i is next to root d's one, bit
    8 + d when it is that one's cell; es[L] holds the roots (of `roots`) that the path to level L is
    a play of, and the answer is the mask of the roots from which t is reached (each path until the
    roots it could still serve have all been reached)."""
    one = np.uint64(1)
    used = np.uint64(0)
    good = np.uint64(0)
    live = np.uint64(0)
    L = 0
    if lifted is None:
        xs[0] = bym[k]
    else:
        xs[0] = bym[k] | (bym[k - 1] & lifted)
        es[0] = np.uint64(roots)
    while True:
        if lifted is not None:
            if es[L] & ~live == 0:          # every root this path serves is reached
                xs[L] = 0
        if xs[L] == 0:
            if L == 0:
                break
            L -= 1
            c = np.int64(xs[64 + L])
            used &= ~(one << np.uint64(c))
            _shift(xv, xa, bym, c, -(k + L), t)
            continue
        i = lowest_bit(xs[L])
        xs[L] &= xs[L] - one
        bit = one << np.uint64(i)
        m = k + L
        serves = np.uint64(0)
        if lifted is not None:              # the roots in which i takes m: at its sum, those whose
            near = xe[i]                    # one is not next to it; at one more, those whose one is
            serves = es[L] & ~live & ~(near >> np.uint64(8)) & (~near if xv[i] == m else near)
            if serves == 0:
                continue
        nxt = np.uint64(0)
        if m < t:                           # m + 1's cells once m is on i: those of sum m + 1 not next
            a = xa[i]                       # to i, and those of sum 1 next to it
            if lifted is None:
                at1 = bym[1]
                nxt = ((bym[m + 1] & ~a) | (at1 & a)) & ~(used | bit)
            else:
                at1 = bym[1] | (bym[0] & lifted)
                nxt = (((bym[m + 1] | (bym[m] & lifted)) & ~a) | (at1 & a)) & ~(used | bit)
            if nxt == 0:
                continue
            if m + 1 < t:                   # and m + 2's cells once m + 1 is on one of those
                if lifted is None:
                    after = (bym[m + 2] & ~a) | (bym[2] & a)
                else:
                    after = ((bym[m + 2] | (bym[m + 1] & lifted)) & ~a) | ((bym[2] | (bym[1] & lifted)) & a)
                ones = at1 & ~a
                rest = nxt
                while rest:
                    j = lowest_bit(rest)
                    rest &= rest - one
                    aj = xa[j]
                    if ((after & ~aj) | (ones & aj)) & ~(used | bit | (one << np.uint64(j))):
                        break
                else:                       # no cell of m + 1 leaves m + 2 one: i is dead
                    continue
        if m + 1 >= t and lifted is not None:
            if m >= t:                      # t placed on i
                live |= serves
                continue
            rest = nxt                      # t on a cell of nxt, in the roots it serves after i
            while rest:
                j = lowest_bit(rest)
                rest &= rest - one
                near = xe[j]
                v = xv[j] + (m if xa[i] >> np.uint64(j) & one else 0)
                live |= serves & ~(near >> np.uint64(8)) & (~near if v == t else near)
            continue
        if m + 1 >= t:                      # t is reached: undo back to level 0
            good |= one << (xs[64] if L > 0 else np.uint64(i))
            while L > 0:
                L -= 1
                c = np.int64(xs[64 + L])
                used &= ~(one << np.uint64(c))
                _shift(xv, xa, bym, c, -(k + L), t)
            continue
        xs[64 + L] = np.uint64(i)
        used |= bit
        _shift(xv, xa, bym, i, m, t)
        L += 1
        xs[L] = nxt
        if lifted is not None:
            es[L] = serves
    return good if lifted is None else live
