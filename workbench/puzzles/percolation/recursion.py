"""Exact count of minimal percolating sets (OEIS A146971) by a recursion over rectangles.

Why it works (derivation and proofs in docs/notes/percolation.md). A set of (h + w) / 2 cells whose
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

N_MAX = 500


@dataclass
class Tables:
    """T[h, w] tight sets, Uc[h, w] the corner refinement, SS[h, w] the refinement summed along
    the bottom side, for 1 <= h, w <= n: exact integers, or residues modulo `modulus` (one prime),
    or with a last axis of one lane per prime (a tuple of moduli)."""
    T: np.ndarray
    Uc: np.ndarray
    SS: np.ndarray
    modulus: int | tuple[int, ...] | None


class _Ring:
    """Every table has a last axis of lanes: one lane of exact integers (numpy object arrays), or
    int64 residues, one lane per prime, each below 2^26 (lanes.py: a product of two stays below
    2^52, so a compiled dot adds a row of them before it reduces)."""

    def __init__(self, moduli: tuple[int, ...] | None):
        self.m, self.lanes = None, 1
        if moduli is not None:
            from . import lanes
            if not all(1 < q < 2 ** lanes.BITS for q in moduli):
                raise ValueError(f"the moduli lie between 2 and 2^{lanes.BITS}")
            padded = moduli + moduli[-1:] * (-len(moduli) % lanes.GROUP)    # whole groups of lanes
            self.m, self.lanes = np.array(padded, dtype=np.int64), len(padded)
            self._dot, self._convs = lanes.dot, lanes.convs

    def zeros(self, *shape: int) -> np.ndarray:
        if self.m is None:
            a = np.empty((*shape, 1), dtype=object)
            a.fill(0)
            return a
        return np.zeros((*shape, self.lanes), dtype=np.int64)

    def red(self, v: Any) -> Any:
        return v if self.m is None else v % self.m

    def dot(self, a: np.ndarray, b: np.ndarray) -> Any:
        """sum(a * b) over every axis but the lanes."""
        if not a.size:
            return self.zeros()
        if self.m is None:
            return (a * b).sum(axis=tuple(range(a.ndim - 1)))
        return self._dot(a, b, self.m)

    def convs(self, a: np.ndarray, k: np.ndarray, points: list[tuple[int, int]]) -> Any:
        """For each (h, w): sum over 1 <= p < h, 1 <= q < w of a[p, q] k[h - p, w - q], for h + w
        even and arrays that vanish where the index sum is odd (an odd half-perimeter holds no tight
        set): only the (even, even) and (odd, odd) entries are multiplied, half of the work."""
        if self.m is not None:
            return self._convs(a, k, points, self.m)
        return [self.dot(a[2:h:2, 2:w:2], k[h - 2:0:-2, w - 2:0:-2])
                + self.dot(a[1:h:2, 1:w:2], k[h - 1:0:-2, w - 1:0:-2]) for h, w in points]


def tables(n: int, modulus: int | tuple[int, ...] | None = None) -> Tables:
    """T, Uc and SS for every rectangle up to n x n."""
    return recursion(n, modulus)(n)


def recursion(capacity: int, modulus: int | tuple[int, ...] | None = None) -> Callable[[int], Tables]:
    """extend(n) for n <= capacity: T, Uc and SS for every rectangle up to n x n, computing only
    what earlier calls have not (a table of a(1..N) costs one run to N). Rectangles are processed
    by half-perimeter s = h + w: a value of half-perimeter s needs kernels at extensions
    x + y <= s - 2 only.

    Each sum over centres D is a convolution of T (weighted by powers of D's height p and width q,
    the number of places for a one-wide neighbour) with a kernel of neighbour weights. The kernels
    that are products of one-dimensional parts are summed one axis at a time (XF, XV2, Y: O(n)
    per entry); what remains is four two-dimensional sums per rectangle (against pi and PP) and one
    per entry of C = Uc * Uc, so the whole run costs O(n^4)."""
    ring = _Ring((modulus,) if isinstance(modulus, int) else modulus)
    red, dot, zeros = ring.red, ring.dot, ring.zeros
    size = capacity + 3
    done, kdone, cdone = (np.zeros((size, size), dtype=bool) for _ in range(3))
    T, Uc, SS = zeros(size, size), zeros(size, size), zeros(size, size)
    f = zeros(size)            # f[x] = -Uc(x-1, 1): one neighbour, a column x - 1 long, x >= 2
    V = [zeros(size), zeros(size), zeros(size)]   # two opposite directions spanning x: a neighbours
    V[0][0] = 1
    pi = zeros(size, size)     # one corner neighbour covering u rows and l columns (three shapes)
    PP = zeros(size, size)     # two opposite corner neighbours
    Tri = zeros(size, size)    # one wide neighbour over a one-wide centre, both sides extended
    Kq1 = zeros(size, size)    # Tri on either side of a one-wide centre, the fourth direction free
    C = zeros(size, size)      # C = Uc * Uc (two-dimensional convolution)
    XF = [zeros(size, size) for _ in range(2)]    # XF[a][p, w] = sum_q T(p, q) q^a f(w - q)
    Y = [zeros(size, size) for _ in range(3)]     # Y[a][p, w] = sum_b p^b sum_q T(p, q) q^a V_b(w - q)
    S1 = zeros(size, size)     # T q + p XF[1]: centres with a one-wide neighbour, summed over q
    Z = zeros(size, size)      # T with every combination of single neighbours already attached

    def rev(v: np.ndarray, x: int) -> np.ndarray:
        """v[x-1], ..., v[1]: the partners of indices 1..x-1 in a convolution to x."""
        return v[x - 1:0:-1]

    convs = ring.convs

    def kernels(x: int, y: int) -> None:
        """The neighbour weights at extensions (x, y), from U values of half-perimeter <= x + y."""
        if y == 0:
            if x >= 2:
                f[x] = red(-Uc[x - 1, 1])
            V[1][x] = red(2 * f[x])
            V[2][x] = dot(f[1:x], rev(f, x))
        if x >= 1 and y >= 1:
            pi[x, y] = red(-(Uc[x, y] + (Uc[x - 1, y + 1] if x >= 2 else 0) + (Uc[x + 1, y - 1] if y >= 2 else 0)))
        if x >= 2 and y >= 2:
            Tri[x, y] = red(-(SS[x - 1, y + 1] - 2 * Uc[x - 1, y + 1]))
        Kq1[x, y] = red(2 * (Tri[x, y] + dot(Tri[1:x, y], rev(f, x))))

    def centres(h: int, w: int, z_pi: Any, t_pp: Any) -> Any:
        """sum over centres D strictly inside h x w of T(D) N(D in R) (given the two convolutions)."""
        total = 4 * z_pi + 2 * t_pp
        total += Y[0][h, w] + dot(V[1][h - 1::-1], Y[1][1:h + 1, w]) + dot(V[2][h - 1::-1], Y[2][1:h + 1, w])
        total += dot(T[1:h + 1, 1], Kq1[h - 1::-1, w - 1]) + dot(T[1, 1:w + 1], Kq1[w - 1::-1, h - 1])
        return total

    def pairs(h: int, w: int) -> Any:
        """Lossless pairs spanning h x w: diagonal corners, and one empty row either way."""
        total = 2 * C[h, w]
        for hh, ww in ((h, w), (w, h)):       # one empty row; then one empty column (transposed)
            if hh < 3:
                continue
            if ww == 1:
                total += dot(Uc[1:hh - 1, 1], Uc[hh - 2:0:-1, 1])
            else:   # corner contacts (C less its one-wide ends), and a one-wide piece under a wide one
                total += 2 * (C[hh - 1, ww + 1] - 2 * dot(Uc[1:hh - 1, 1], Uc[hh - 2:0:-1, ww]))
                total += 2 * dot(Uc[1:hh - 1, 1], SS[hh - 2:0:-1, ww])
        return total

    def corner(h: int, w: int, t_pi: Any) -> Any:
        """U at a corner: centres D that hold the corner cell (D = R included)."""
        return (t_pi + T[h, w] + h * XF[0][h, w]
                + dot(rev(f, h), red(T[1:h, w] * w + np.arange(1, h)[:, None] * XF[1][1:h, w])))

    def side(h: int, w: int, s1_pi: Any) -> Any:
        """U summed over the bottom row: centres D on the bottom side, weighted by their width."""
        return (2 * s1_pi + Y[1][h, w] + dot(rev(f, h), Y[2][1:h, w])
                + dot(T[1:h + 1, 1], Tri[h - 1::-1, w - 1]))

    def extend(n: int) -> Tables:
        if n > capacity:
            raise ValueError(f"this recursion holds rectangles up to {capacity} x {capacity}")
        for s in range(2, 2 * n + 1, 2):
            stage(s, n)
        if isinstance(modulus, tuple):
            lanes = len(modulus)
            return Tables(T[..., :lanes], Uc[..., :lanes], SS[..., :lanes], modulus)
        return Tables(T[..., 0], Uc[..., 0], SS[..., 0], modulus)     # one lane: plain tables

    def stage(s: int, n: int) -> None:
        """Everything of half-perimeter s inside n x n (kernels: s - 2) not computed before. Every
        convolution of the stage reads entries of smaller half-perimeter only, so each kind is
        computed for the whole stage at once (the compiled residue ring keeps its tables in cache)."""
        extensions = [(x, s - 2 - x) for x in range(max(0, s - 1 - n), min(s - 2, n - 1) + 1)  # x, y < n
                      if not kdone[x, s - 2 - x]]
        for x, y in extensions:
            kernels(x, y)
        for (x, y), value in zip(extensions, convs(pi, pi, extensions)):
            PP[x, y] = red(value)
            kdone[x, y] = True
        contacts = [(x, s - x) for x in range(max(1, s - n - 1), min(n + 1, s - 1) + 1) if not cdone[x, s - x]]
        for (x, y), value in zip(contacts, convs(Uc, Uc, contacts)):
            C[x, y] = red(value)
            cdone[x, y] = True
        shapes = [(h, s - h) for h in range(max(1, s - n), min(n, s - 1) + 1) if not done[h, s - h]]
        z_pi, t_pp, t_pi, s1_pi = (convs(a, k, shapes) for a, k in ((Z, pi), (T, PP), (T, pi), (S1, pi)))
        for p, w in shapes:          # the one-axis sums over q < w (all known)
            for a in range(3):
                weighted = red(T[p, 1:w] * (np.arange(1, w) ** a)[:, None])
                xf = dot(weighted, rev(f, w))            # sum_q T(p, q) q^a f(w - q)
                xv2 = dot(weighted, rev(V[2], w))        # sum_q T(p, q) q^a V2(w - q)
                if a < 2:
                    XF[a][p, w] = xf
                Y[a][p, w] = red(2 * p * xf + p * p * xv2)
        for i, (h, w) in enumerate(shapes):
            T[h, w] = red(int(h == w == 1) - centres(h, w, z_pi[i], t_pp[i]) - pairs(h, w))
        for p, w in shapes:
            for a in range(3):
                Y[a][p, w] = red(Y[a][p, w] + T[p, w] * w ** a)
            S1[p, w] = red(T[p, w] * w + p * XF[1][p, w])
        for p, w in shapes:
            Z[p, w] = red(T[p, w] + p * XF[0][p, w] + dot(rev(f, p), S1[1:p, w]))
        for i, (h, w) in enumerate(shapes):
            Uc[h, w] = red(corner(h, w, t_pi[i]))
        for i, (h, w) in enumerate(shapes):
            SS[h, w] = red(side(h, w, s1_pi[i]))
            done[h, w] = True

    return extend


def terms(n: int) -> list[int]:
    """a(1..n) in exact integers."""
    t = tables(n).T
    return [int(t[k, k]) for k in range(1, n + 1)]


def growth_fit(counts: list[int], start: int = 20) -> tuple[float, float, float]:
    """Least-squares fit of the ratio a(n+1)/a(n) = alpha n + beta + gamma / n over n >= start
    (counts[k] = a(k + 1)); a conjecture about the growth, not a proof."""
    ns = np.arange(start, len(counts))
    ratios = np.array([counts[k] / counts[k - 1] for k in ns])     # a(n+1)/a(n) with n = k
    basis = np.stack([ns, np.ones_like(ns), 1.0 / ns], axis=1).astype(float)
    alpha, beta, gamma = np.linalg.lstsq(basis, ratios, rcond=None)[0]
    return float(alpha), float(beta), float(gamma)


def growth_plot(counts: list[int], path: str) -> None:
    """log10 a(n) and a(n+1)/a(n) against n, with the fitted ratio."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = np.arange(1, len(counts) + 1)
    logs = [math.log10(c) for c in counts]
    ratios = [counts[k] / counts[k - 1] for k in range(1, len(counts))]
    alpha, beta, gamma = growth_fit(counts)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(n, logs, ".", ms=3)
    left.set(xlabel="n", ylabel="log10 a(n)", title=f"A146971, a(1..{len(counts)}) by the recursion")
    right.plot(n[:-1], ratios, ".", ms=3, label="a(n+1) / a(n)")
    m = n[19:-1].astype(float)
    right.plot(m, alpha * m + beta + gamma / m, "-", lw=1,
               label=f"fit {alpha:.4f} n + {beta:.3f} + {gamma:.2f}/n (n >= 20)")
    right.set(xlabel="n", ylabel="a(n+1) / a(n)", title="growth ratio (the fit is a conjecture)")
    right.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
