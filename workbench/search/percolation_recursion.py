"""Exact count of minimal percolating sets (OEIS A146971) by a recursion over rectangles.

Why it works (derivation and proofs in docs/percolation.md). A set of (h + w) / 2 cells whose
closure is the h x w rectangle is *tight*; a(n) = T(n, n). A *split* of a tight set cuts it into
two parts that each close to a rectangle; the two rectangles then form a lossless pair (diagonal
corners, or one empty row or column with exactly one shared column or row). The splits of a set
never cross, so a set with a chosen subset S of its splits is a tree of rectangles, each holding a
tight set of its own, and  sum over S of (-1)^|S| = [one cell]. Counting these trees as nodes
minus edges, and rooting each at a centre rectangle D, gives

    T(R) = - sum_{D < R} T(D) N(D in R) - sum_{lossless pairs A, B spanning R} U_A U_B,

where N sums, over the neighbours that extend D to R (at most one per direction), the product of
-U(Q, c) with c the cell of Q that touches D, and U(Q, c) counts the tight sets of Q that have no
split covering c: the same sum restricted to centres D that hold c. Only corner cells (Uc) and
U summed along one side (SS) are ever needed. The sums over the position of D are convolutions of
T with kernels built from U, so all rectangles up to n x n cost O(n^4) operations.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..solvers.base import Incumbent, Options, Report, Result, Status

N_MAX = 400


@dataclass
class Tables:
    """T[h, w] tight sets, Uc[h, w] the corner refinement, SS[h, w] the refinement summed along
    the bottom side, for 1 <= h, w <= n (exact integers, or residues modulo `modulus`)."""
    T: np.ndarray
    Uc: np.ndarray
    SS: np.ndarray
    modulus: int | None


class _Ring:
    """Exact integers in numpy object arrays, or int64 residues modulo a prime below 2^31 (every
    product is reduced before it is summed, so nothing overflows)."""

    def __init__(self, modulus: int | None):
        self.m = modulus

    def zeros(self, *shape: int) -> np.ndarray:
        if self.m is None:
            a = np.empty(shape, dtype=object)
            a.fill(0)
            return a
        return np.zeros(shape, dtype=np.int64)

    def red(self, v: Any) -> Any:
        return v if self.m is None else v % self.m

    def dot(self, a: np.ndarray, b: np.ndarray) -> Any:
        """sum(a * b) over all entries."""
        if self.m is None:
            return (a * b).sum() if a.size else 0
        return int(((a * b) % self.m).sum() % self.m) if a.size else 0


def tables(n: int, modulus: int | None = None) -> Tables:
    """T, Uc and SS for every rectangle up to n x n, processed by half-perimeter h + w: a value
    of half-perimeter s needs kernels at extensions x + y <= s - 2 only."""
    ring = _Ring(modulus)
    red, dot, zeros = ring.red, ring.dot, ring.zeros
    size = n + 2
    T, Uc, SS = zeros(size, size), zeros(size, size), zeros(size, size)
    W = [[zeros(size, size) for _ in range(3)] for _ in range(3)]   # W[a][b][p, q] = T q^a p^b
    f = zeros(size)            # f[x] = -Uc(x-1, 1): one neighbour, a column x - 1 long, x >= 2
    G = [zeros(size), f]       # G[0] = delta (no neighbour), G[1] = f
    G[0][0] = 1
    V = [G[0], zeros(size), zeros(size)]   # two opposite directions spanning x: a neighbours
    pi = zeros(size, size)     # one corner neighbour covering u rows and l columns (three shapes)
    Pv, Ph, Pvh, PP = (zeros(size, size) for _ in range(4))
    Tri = zeros(size, size)    # one wide neighbour over a one-wide centre, both sides extended
    Kq1 = zeros(size, size)
    K = [[zeros(size, size) for _ in range(3)] for _ in range(3)]    # centre kernels by q^a p^b

    def rev(v: np.ndarray, x: int) -> np.ndarray:
        """v[x-1], ..., v[1]: the partner of index 1..x-1 in a convolution to x."""
        return v[x - 1:0:-1]

    def kernels(x: int, y: int) -> None:
        if y == 0:
            if x >= 2:
                f[x] = red(-Uc[x - 1, 1])
            V[1][x] = red(2 * f[x])
            V[2][x] = dot(f[1:x], rev(f, x))
        if x >= 1 and y >= 1:
            pi[x, y] = red(-(Uc[x, y] + (Uc[x - 1, y + 1] if x >= 2 else 0) + (Uc[x + 1, y - 1] if y >= 2 else 0)))
        Pv[x, y] = dot(pi[1:x, y], rev(f, x))
        Ph[x, y] = dot(pi[x, 1:y], rev(f, y))
        Pvh[x, y] = dot(Ph[1:x, y], rev(f, x))
        PP[x, y] = dot(pi[1:x, 1:y], pi[x - 1:0:-1, y - 1:0:-1])
        if x >= 2 and y >= 2:
            Tri[x, y] = red(-(SS[x - 1, y + 1] - 2 * Uc[x - 1, y + 1]))
        Kq1[x, y] = red(2 * (Tri[x, y] + dot(Tri[1:x, y], rev(f, x))))
        extra = {(0, 0): 4 * pi[x, y] + 2 * PP[x, y], (1, 0): 4 * Pv[x, y], (0, 1): 4 * Ph[x, y],
                 (1, 1): 4 * Pvh[x, y]}
        for a in range(3):
            for b in range(3):
                K[a][b][x, y] = red(V[a][x] * V[b][y] + extra.get((a, b), 0))

    def conv(a: np.ndarray, k: np.ndarray, h: int, w: int) -> Any:
        """sum over 1 <= p <= h, 1 <= q <= w of a[p, q] k[h - p, w - q]."""
        return dot(a[1:h + 1, 1:w + 1], k[h - 1::-1, w - 1::-1] if w > 0 else k[h - 1::-1, :0])

    def centres(h: int, w: int) -> Any:
        """sum over centres D strictly inside h x w of T(D) N(D in R)."""
        total = sum(conv(W[a][b], K[a][b], h, w) for a in range(3) for b in range(3))
        total += dot(T[1:h + 1, 1], Kq1[h - 1::-1, w - 1]) + dot(T[1, 1:w + 1], Kq1[w - 1::-1, h - 1])
        return total

    def pairs(h: int, w: int) -> Any:
        """Lossless pairs spanning h x w: diagonal corners, and one empty row either way."""
        total = 2 * dot(Uc[1:h, 1:w], Uc[h - 1:0:-1, w - 1:0:-1])
        for hh, ww in ((h, w), (w, h)):       # one empty row; then one empty column (transposed)
            if ww == 1:
                total += dot(Uc[1:hh - 1, 1], Uc[hh - 2:0:-1, 1])
            else:
                total += 2 * dot(Uc[1:hh - 1, 2:ww], Uc[hh - 2:0:-1, ww - 1:1:-1])
                total += 2 * dot(Uc[1:hh - 1, 1], SS[hh - 2:0:-1, ww])
        return total

    def corner(h: int, w: int) -> Any:
        """U at a corner: centres D that hold the corner cell (D = R included)."""
        total = conv(W[0][0], pi, h, w)
        for a in range(2):
            for b in range(2):
                total += conv(W[a][b], red(np.multiply.outer(G[a], G[b])), h, w)
        return total

    def side(h: int, w: int) -> Any:
        """U summed over the bottom row: centres D on the bottom side, weighted by their width."""
        total = 2 * conv(W[1][0], pi, h, w) + 2 * conv(W[1][1], Ph, h, w)
        for a in range(2):
            for b in range(3):
                total += conv(W[a + 1][b], red(np.multiply.outer(G[a], V[b])), h, w)
        return total + dot(T[1:h + 1, 1], Tri[h - 1::-1, w - 1])

    for s in range(2, 2 * n + 1, 2):
        for x in range(min(s - 2, n), max(0, s - 2 - n) - 1, -1):    # (s - 2, 0) first: 1-D parts
            kernels(x, s - 2 - x)
        shapes = [(h, s - h) for h in range(max(1, s - n), min(n, s - 1) + 1)]
        for h, w in shapes:
            T[h, w] = red(int(h == w == 1) - centres(h, w) - pairs(h, w))
        for h, w in shapes:
            for a in range(3):
                for b in range(3):
                    W[a][b][h, w] = red(int(T[h, w]) * w ** a * h ** b)
        for h, w in shapes:
            Uc[h, w] = red(corner(h, w))
        for h, w in shapes:
            SS[h, w] = red(side(h, w))
    return Tables(T, Uc, SS, modulus)


_done: dict[str, Any] = {}      # the largest run of this process: tables, size, seconds


def checkpoint(n: int) -> int:
    """The size actually computed for a(n): n itself up to 25, else n rounded up to a multiple of
    25, so that a table of a(1..N) costs about twice its last run instead of N runs."""
    return n if n <= 25 else min(N_MAX, -(-n // 25) * 25)


def count(n: int) -> tuple[int, int, float]:
    """a(n), the size m of the run that computed it (all rectangles up to m x m) and that run's
    seconds; a run of this process that already reached n is reused."""
    if _done.get("size", 0) < n:
        started = time.perf_counter()
        size = checkpoint(n)
        _done.update(tables=tables(size), size=size, seconds=time.perf_counter() - started)
    return int(_done["tables"].T[n, n]), _done["size"], _done["seconds"]


def terms(n: int) -> list[int]:
    """a(1..n) in exact integers."""
    t = tables(n).T
    return [int(t[k, k]) for k in range(1, n + 1)]


# -- the same recursion modulo primes, joined by the Chinese remainder theorem ---------------
def _is_prime(p: int) -> bool:
    """Deterministic Miller-Rabin below 4.7e9 (bases 2, 7, 61)."""
    if p < 2 or p % 2 == 0:
        return p == 2
    d, r = p - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in (2, 7, 61):
        if a % p == 0:
            continue
        x = pow(a, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(r - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


def _primes_down_from(limit: int):
    """The primes below `limit`, largest first."""
    return (p for p in range(limit - 1, 1, -1) if _is_prime(p))


def count_by_residues(n: int) -> int:
    """a(n) from residues modulo primes below 2^31, joined by the Chinese remainder theorem. The
    primes' product exceeds C(n^2, n), an upper bound on a(n) (a(n) counts some n-cell sets), so
    the least non-negative solution is a(n) itself."""
    bound = math.comb(n * n, n)
    primes: list[int] = []
    product = 1
    for p in _primes_down_from(2 ** 31):
        if product > bound:
            break
        primes.append(p)
        product *= p
    value, modulus = 0, 1
    for p in primes:
        r = int(tables(n, p).T[n, n])
        # value + modulus * k = r (mod p)
        k = (r - value) * pow(modulus, -1, p) % p
        value, modulus = value + modulus * k, modulus * p
    return value


def solve(n: int | None, options: Options, report: Report) -> Result:
    """The `search` backend for percolation: counts of A146971 by the recursion (default), the rest
    (--counter transfer, --permutation, one set, example sets) by the transfer-matrix module. That
    module is compiled by numba only when needed, its compile time booked as build time."""
    assert n is not None
    params = options.params
    show = int(params.get("show", 0) or 0)
    if options.count and not params.get("permutation") and params.get("counter", "recursion") == "recursion":
        if not 1 <= n <= N_MAX:
            return Result(Status.ERROR, message=f"the recursion handles 1 <= n <= {N_MAX}")
        started = time.perf_counter()
        examples = _transfer(lambda m: m.example_sets(n, show, False, int(options.seed or 0)))[0] \
            if show and n <= 12 else []
        build = time.perf_counter() - started
        total, size, seconds = count(n)
        report(Incumbent(None, None, None, count=total))
        return Result(Status.OPTIMAL, count=total, solution=examples, build_seconds=build,
                      message=f"exact count by the recursion over rectangles (all rectangles up to "
                              f"{size} x {size} in {seconds:.2f} s)")
    result, build = _transfer(lambda m: m.solve(n, options, report))
    result.build_seconds += build
    return result


def _transfer(call):
    """call(the transfer-matrix module), after compiling it; returns the answer and the seconds
    the compilation (or the load from numba's cache) took."""
    from . import percolation as transfer

    started = time.perf_counter()
    transfer.warm_up()
    build = time.perf_counter() - started
    return call(transfer), build
