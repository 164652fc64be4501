"""Beam search for stepping-stones records (OEIS A337663), compiled with numba.

Why a beam: good boards are long sequences of forced-looking placements, and a depth-first search
spends its budget deep in one subtree. A beam keeps the `width` most promising boards after each
number k and extends all of them by k + 1, so it compares boards at equal depth and keeps diversity.

- State: the list of placed cells (ones and numbers 2..k) on one grid, 2 at the centre.
- Moves for k: an empty cell with neighbour sum s <= k, plus k - s new ones on empty neighbours of it
  (lazily placed ones; total ones <= n). A new one may not touch a number >= 2 already placed, since it
  would have changed that number's sum. With s = 0 the move starts a new group (k new ones).
- Score: how many empty cells carry neighbour sums just above k (the numbers that come next can be
  placed there), weighted by nearness, plus a value for ones kept in hand; a little noise breaks ties.
- Duplicates (same cells, also up to the 8 symmetries about the 2) are removed by hashing.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ...search.bits import popcount
from ...search.compiled import transform
from ...search.symmetry import at_origin

G = 128                         # grid side; cell p = row * G + col, the 2 sits at the centre
C0 = G // 2
EDGE = 3                        # moves closer than this to the border are dropped
MAXS = 2048                     # neighbour sums above this are clipped (never useful)
DIRS = np.array([-G - 1, -G, -G + 1, -1, 1, G - 1, G, G + 1], dtype=np.int64)


@njit(cache=True, inline="always")
def _mix(x):
    """A 64-bit mixer (wrapping int64 arithmetic) for Zobrist-style keys."""
    x = (x ^ (x >> 31)) * 0x5851F42D4C957F2D
    x = (x ^ (x >> 29)) * 0x2545F4914F6CDD1D
    return x ^ (x >> 32)


@njit(cache=True)
def _keys(p, v, out):
    """The hash key of value v at cell p under each of the 8 symmetries about the centre."""
    dr = p // G - C0
    dc = p % G - C0
    for o in range(8):
        a, b = transform(o, dr, dc)
        out[o] = _mix(((a + C0) * G + (b + C0)) * 4096 + v)


@njit(cache=True, inline="always")
def _put(val, sm, nadj, cnt, p, v, sign):
    """Place (sign 1) or remove (sign -1) value v at p, keeping sums and the per-sum counts of
    empty cells (cnt) up to date."""
    if sign > 0:
        if sm[p] > 0:
            cnt[min(sm[p], MAXS - 1)] -= 1
        val[p] = v
    for j in range(8):
        q = p + DIRS[j]
        if val[q] == 0 and sm[q] > 0:
            cnt[min(sm[q], MAXS - 1)] -= 1
        sm[q] += sign * v
        if v >= 2:
            nadj[q] += sign
        if val[q] == 0 and sm[q] > 0:
            cnt[min(sm[q], MAXS - 1)] += 1
    if sign < 0:
        val[p] = 0
        if sm[p] > 0:
            cnt[min(sm[p], MAXS - 1)] += 1


@njit(cache=True)
def _score(cnt, k, rem, weights, par):
    """Promise of a board just after k was placed. par = (value of a one in hand, cap on cells
    counted per sum, growth of the value of a one with k (late ones extend runs), value of a near
    sum reachable with one or two lazily added ones, then the value of an empty cell with sum 1,
    2, ...: a number placed next to such a "fuel" cell makes a near sum)."""
    wones, cap, wgrow, wlazy = par[0], par[1], par[2], par[3]
    s = wones * (1.0 + wgrow * k / 100.0) * rem
    for j in range(1, min(par.shape[0] - 4, k) + 1):
        s += par[3 + j] * cnt[j]
    for i in range(weights.shape[0]):
        j = k + 1 + i
        if j >= MAXS:
            break
        c = min(cnt[j], cap)
        s += weights[i] * c
        if c == 0 and rem > 0 and (cnt[j - 1] > 0 or (rem > 1 and cnt[j - 2] > 0)):
            s += wlazy * weights[i]
    return s


@njit(cache=True)
def _expand(k, n, boards, nbeam, moves, scoring, children):
    """All children (boards with k placed) of the first `nbeam` boards = (cells, vals, npl, hs) of
    the beam (with k - 1 placed), written to children = (parent, cell, mask, score, hash).
    moves = (dmax, fresh_max) bound the new ones a move may add; scoring = (weights, par, noise,
    seed) as in _score. Returns the number of children written, or -1 when the buffers are too small."""
    cells, vals, npl, hs = boards
    dmax, fresh_max = moves
    weights, par, noise, seed = scoring
    ch_par, ch_pos, ch_mask, ch_score, ch_hash = children
    np.random.seed(seed)
    val = np.zeros(G * G, dtype=np.int64)
    sm = np.zeros(G * G, dtype=np.int64)
    nadj = np.zeros(G * G, dtype=np.int64)
    cnt = np.zeros(MAXS, dtype=np.int64)
    key = np.empty(8, dtype=np.int64)
    h = np.empty(8, dtype=np.int64)
    qs = np.empty(8, dtype=np.int64)
    cap_ch = ch_par.shape[0]
    nch = 0
    for b in range(nbeam):
        r0, r1, c0, c1 = G, -1, G, -1
        ones = 0
        for i in range(npl[b]):
            p = cells[b, i]
            _put(val, sm, nadj, cnt, p, vals[b, i], 1)
            ones += vals[b, i] == 1
            r, c = p // G, p % G
            r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
        rem = n - ones
        margin = 2 if (k <= fresh_max and rem >= k) else 1
        if npl[b] == 0:                       # the empty board: only the centre (start of group A)
            r0 = r1 = c0 = c1 = C0
            margin = 0
        for r in range(max(EDGE, r0 - margin), min(G - EDGE, r1 + margin + 1)):
            for c in range(max(EDGE, c0 - margin), min(G - EDGE, c1 + margin + 1)):
                p = r * G + c
                if val[p] != 0:
                    continue
                d = k - sm[p]
                if d < 0 or d > rem or d > dmax or (d == k and npl[b] > 0 and k > fresh_max):
                    continue
                elig = 0
                if d > 0:
                    for j in range(8):
                        q = p + DIRS[j]
                        if val[q] == 0 and nadj[q] == 0:
                            elig |= 1 << j
                m = 0
                while True:                   # subsets m of elig with d bits (m = 0 when d = 0)
                    if popcount(m) == d and (m & ~elig) == 0:
                        if nch >= cap_ch:
                            for i in range(npl[b]):       # leave the grid clean before giving up
                                _put(val, sm, nadj, cnt, cells[b, i], vals[b, i], -1)
                            return -1
                        nq = 0
                        for j in range(8):
                            if m >> j & 1:
                                qs[nq] = p + DIRS[j]
                                _put(val, sm, nadj, cnt, qs[nq], 1, 1)
                                nq += 1
                        _put(val, sm, nadj, cnt, p, k, 1)
                        ch_score[nch] = _score(cnt, k, rem - d, weights, par) + noise * np.random.random()
                        _put(val, sm, nadj, cnt, p, k, -1)
                        for i in range(nq - 1, -1, -1):
                            _put(val, sm, nadj, cnt, qs[i], 1, -1)
                        for o in range(8):
                            h[o] = hs[b, o]
                        _keys(p, k, key)
                        for o in range(8):
                            h[o] ^= key[o]
                        for i in range(nq):
                            _keys(qs[i], 1, key)
                            for o in range(8):
                                h[o] ^= key[o]
                        hm = h[0]
                        for o in range(1, 8):
                            hm = min(hm, h[o])
                        ch_par[nch] = b
                        ch_pos[nch] = p
                        ch_mask[nch] = m
                        ch_hash[nch] = hm
                        nch += 1
                    m += 1
                    if m > elig or d == 0:
                        break
        for i in range(npl[b] - 1, -1, -1):
            _put(val, sm, nadj, cnt, cells[b, i], vals[b, i], -1)
    return nch


@njit(cache=True)
def _select(k, width, nch, children, boards, nxt):
    """Keep the `width` best distinct children of `boards` and write them to `nxt` as the next beam
    (both (cells, vals, npl, hs)). Returns its size."""
    ch_par, ch_pos, ch_mask, ch_score, ch_hash = children
    cells, vals, npl, hs = boards
    ncells, nvals, nnpl, nhs = nxt
    order = np.argsort(-ch_score[:nch])
    size = 1
    while size < 4 * min(width, nch) + 16:
        size *= 2
    table = np.zeros(size, dtype=np.int64)
    used = np.zeros(size, dtype=np.bool_)
    key = np.empty(8, dtype=np.int64)
    out = 0
    for t in range(nch):
        if out >= width:
            break
        c = order[t]
        hv = ch_hash[c]
        slot = hv & (size - 1)
        dup = False
        while used[slot]:
            if table[slot] == hv:
                dup = True
                break
            slot = (slot + 1) & (size - 1)
        if dup:
            continue
        b = ch_par[c]
        used[slot] = True
        table[slot] = hv
        m = npl[b]
        ncells[out, :m] = cells[b, :m]
        nvals[out, :m] = vals[b, :m]
        nhs[out, :] = hs[b, :]
        for j in range(8):
            if ch_mask[c] >> j & 1:
                q = ch_pos[c] + DIRS[j]
                ncells[out, m] = q
                nvals[out, m] = 1
                m += 1
                _keys(q, 1, key)
                for o in range(8):
                    nhs[out, o] ^= key[o]
        ncells[out, m] = ch_pos[c]
        nvals[out, m] = k
        m += 1
        _keys(ch_pos[c], k, key)
        for o in range(8):
            nhs[out, o] ^= key[o]
        nnpl[out] = m
        out += 1
    return out


def default_weights(horizon: int = 12) -> np.ndarray:
    """Near sums count most: the next number needs a cell now, later ones can still be made."""
    return np.array([1.0 / (1 + 0.25 * i) for i in range(horizon)])


@dataclass(frozen=True, eq=False)
class Scoring:
    """How a beam ranks its boards (_score): the weights of near sums, the value of a one in hand
    (`wones`, growing with k by `wgrow`), the cap on cells counted per sum, the value of a near sum
    reachable with lazily added ones (`wlazy`), the values of "fuel" cells of sum 1, 2, ...; and
    the noise that breaks ties (plus `early` for the numbers up to `early_k`)."""

    weights: np.ndarray = field(default_factory=default_weights)
    wones: float = 3.0
    fuel: tuple[float, ...] = (0.3, 0.3, 0.3, 0.3)
    wlazy: float = 0.0
    cap: int = 1
    wgrow: float = 0.0
    noise: float = 0.5
    early: float = 0.0
    early_k: int = 12


PLAIN = Scoring()


class Beam:
    """One beam run, stepped one number at a time from Python (so time limits are honoured)."""

    def __init__(self, n: int, width: int, seed: int = 0, scoring: Scoring = PLAIN, dmax: int = 4,
                 fresh_max: int = 0, start: list[list[int]] | None = None) -> None:
        """dmax: the most new ones a move may add; fresh_max: the largest number that may start a new
        group; `start`: a board to continue from (its numbers and the ones they touch), else the
        empty one."""
        self.n, self.width, self.seed = n, width, seed
        self.dmax, self.fresh_max = dmax, fresh_max
        self.weights = np.asarray(scoring.weights, dtype=np.float64)
        self.par = np.array([scoring.wones, scoring.cap, scoring.wgrow, scoring.wlazy, *scoring.fuel],
                            dtype=np.float64)
        self.noise, self.early, self.early_k = float(scoring.noise), float(scoring.early), int(scoring.early_k)
        self.maxp = 12 * n + 64                 # cells per board: records stay below 10 n + 20
        self.cells = np.zeros((width, self.maxp), dtype=np.int32)
        self.vals = np.zeros((width, self.maxp), dtype=np.int16)
        self.npl = np.zeros(width, dtype=np.int64)
        self.hs = np.zeros((width, 8), dtype=np.int64)
        self.next = (np.zeros_like(self.cells), np.zeros_like(self.vals), np.zeros_like(self.npl),
                     np.zeros_like(self.hs))
        self.size = 1                          # one board: the empty one or `start`
        self.k = 1                             # the largest number on the boards of the beam
        if start:
            self._load(start)
        self.chcap = max(1024, width * 40)
        self._alloc()

    def _load(self, board: list[list[int]]) -> None:
        """Put a board on the grid with its 2 at the centre; its hashes are computed afresh."""
        r2, c2 = next((r, c) for r, c, v in board if v == 2)
        key = np.empty(8, dtype=np.int64)
        for i, (r, c, v) in enumerate(sorted(board, key=lambda t: t[2])):
            p = (r - r2 + C0) * G + (c - c2 + C0)
            if not (EDGE <= p // G < G - EDGE and EDGE <= p % G < G - EDGE):
                raise ValueError("board too large for the grid")
            self.cells[0, i], self.vals[0, i] = p, v
            _keys(p, v, key)
            self.hs[0] ^= key
        self.npl[0] = len(board)
        self.k = max(v for _, _, v in board)

    def _alloc(self) -> None:
        self.ch = (np.zeros(self.chcap, dtype=np.int64), np.zeros(self.chcap, dtype=np.int64),
                   np.zeros(self.chcap, dtype=np.int64), np.zeros(self.chcap, dtype=np.float64),
                   np.zeros(self.chcap, dtype=np.int64))

    def step(self) -> bool:
        """Place k + 1 on the beam's boards; False (and the beam unchanged) when none can."""
        k = self.k + 1
        if self.n < 2 or self.npl[:self.size].max() + 9 > self.maxp:
            return False
        while True:
            noise = self.noise + (self.early if k <= self.early_k else 0.0)
            nch = _expand(k, self.n, (self.cells, self.vals, self.npl, self.hs), self.size,
                          (self.dmax, self.fresh_max), (self.weights, self.par, noise, self.seed * 1000003 + k),
                          self.ch)
            if nch >= 0:
                break
            self.chcap *= 2
            self._alloc()
        if nch == 0:
            return False
        nc, nv, nn, nh = self.next
        size = _select(k, self.width, nch, self.ch, (self.cells, self.vals, self.npl, self.hs), self.next)
        self.next = (self.cells, self.vals, self.npl, self.hs)
        self.cells, self.vals, self.npl, self.hs = nc, nv, nn, nh
        self.size, self.k = size, k
        return True

    def board(self) -> list[list[int]]:
        """The first board of the beam as [row, col, value] triples, top-left cell at (0, 0)."""
        m = int(self.npl[0])
        rows = [[int(p) // G, int(p) % G, int(v)] for p, v in zip(self.cells[0, :m], self.vals[0, :m], strict=True)]
        return at_origin(rows) if rows else [[0, 0, 1]]


def prefix(board: list[list[int]], k: int) -> list[list[int]]:
    """The part of a board that exists just after k was placed: numbers 2..k and the ones they
    touch (other ones are placed lazily again)."""
    nums = [(r, c) for r, c, v in board if 2 <= v <= k]
    return [[r, c, v] for r, c, v in board
            if 2 <= v <= k or (v == 1 and any(max(abs(r - a), abs(c - b)) == 1 for a, b in nums))]
