"""A146971 by the recursion modulo many primes at once, joined by the Chinese remainder theorem.

Why: exactly, a step of the recursion sums n-digit integers, so a(n) costs about n^6 and a(231..500)
about 37 CPU hours. Modulo a prime a step is n^4 machine products. The recursion runs once for a
batch of primes, one lane per prime on the last axis of every table, so that numpy's and Python's
overhead per sum is shared by the whole batch and the compiled dot below streams contiguous lanes.
Residues lie below 2^26, so a product stays below 2^52 and a dot adds a row of up to 2^11 of them
before it reduces. The primes' product exceeds C(n^2, n), which bounds a(n) (a(n) counts some
n-cell sets of the n x n board), so the least non-negative solution of the congruences is a(n).
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from typing import Any

import numba
import numpy as np

BITS = 26
GROUP = 8               # lanes come in whole groups of 8: 64 bytes, one cache line
BATCH = 40              # lanes per recursion: 200 primes reach a(500) in five batches of 1.2 GB
TILE = 16               # rows of one table kept in cache by _diagonal
ROW = 2 ** 11           # products of residues below 2^26 added before a reduction stays below 2^63


@numba.njit(cache=True, nogil=True)
def _dot_runs(a: np.ndarray, b: np.ndarray, m: np.ndarray) -> np.ndarray:     # pragma: no cover - compiled
    """(L, lanes) arrays; reduced after every ROW products."""
    lanes = m.shape[0]
    out = np.zeros(lanes, np.int64)
    for i in range(a.shape[0]):
        for k in range(lanes):
            out[k] += a[i, k] * b[i, k]
        if i % ROW == ROW - 1:
            for k in range(lanes):
                out[k] %= m[k]
    for k in range(lanes):
        out[k] %= m[k]
    return out


@numba.njit(cache=True, nogil=True)
def _diagonal(a: np.ndarray, k: np.ndarray, s: int, wanted: np.ndarray, m: np.ndarray) -> np.ndarray:
    """out[h] = sum over p < h, q < s - h, p = q modulo 2, of a[p, q] k[h - p, s - h - q], for the
    wanted h. The sum for h splits into one run over q per pair of rows (p of a, r = h - p of k);
    TILE rows of a stay in cache while every row of k passes them, so that k is read from memory
    once per TILE rows rather than once per row. Reduced after each run (q < s <= ROW)."""
    lanes = m.shape[0]
    out = np.zeros((s + 1, lanes), np.int64)
    top = 0
    for h in range(s + 1):
        if wanted[h]:
            top = h
    for p0 in range(1, top, TILE):
        for r in range(1, top - p0 + 1):
            for p in range(p0, min(p0 + TILE, top - r + 1)):
                h = p + r
                if not wanted[h]:
                    continue
                acc = out[h]
                for q in range(2 - p % 2, s - h, 2):
                    x, y = a[p, q], k[r, s - h - q]
                    for j in range(lanes):
                        acc[j] += x[j] * y[j]
                for j in range(lanes):
                    acc[j] %= m[j]
    return out


def convs(a: np.ndarray, k: np.ndarray, points: list[tuple[int, int]], m: np.ndarray) -> np.ndarray:
    """recursion._Ring.convs for points on one antidiagonal h + w = s, on whole C-contiguous
    tables (the lanes contiguous): one row of residues per point."""
    if not points:
        return np.zeros((0, m.shape[0]), np.int64)
    s = sum(points[0])
    hs = np.array([h for h, _ in points])
    assert all(h + w == s for h, w in points)
    wanted = np.zeros(s + 1, np.bool_)
    wanted[hs] = True
    return _diagonal(a, k, s, wanted, m)[hs]


def dot(a: np.ndarray, b: np.ndarray, m: np.ndarray) -> np.ndarray:
    """sum(a * b) modulo m, lane by lane, over the first axis of (L, lanes) arrays."""
    return _dot_runs(a, b, m)


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


def primes_below(limit: int) -> Iterator[int]:
    """The primes below `limit`, largest first."""
    return (p for p in range(limit - 1, 1, -1) if _is_prime(p))


@functools.cache
def primes_for(n: int) -> tuple[int, ...]:
    """The largest primes below 2^26 whose product exceeds C(n^2, n) >= a(n)."""
    bound, product, chosen = math.comb(n * n, n), 1, []
    for p in primes_below(2 ** BITS):
        if product > bound:
            break
        chosen.append(p)
        product *= p
    return tuple(chosen)


def join(residues: list[list[int]], primes: tuple[int, ...]) -> list[int]:
    """Chinese remainder theorem, term by term: residues[j][k] is term k modulo primes[j]."""
    values, modulus = [0] * len(residues[0]), 1
    for row, p in zip(residues, primes):
        inverse = pow(modulus, -1, p)
        values = [v + modulus * ((r - v) * inverse % p) for v, r in zip(values, row)]
        modulus *= p
    return values


def description(capacity: int) -> str:
    primes = primes_for(capacity)
    return (f"modulo the {len(primes)} largest primes below 2^{BITS} (their product exceeds C({capacity}^2, "
            f"{capacity}) >= a(n)), joined by the Chinese remainder theorem")


def check_primes(count: int, capacity: int) -> tuple[int, ...]:
    """`count` primes below 2^26 that primes_for(capacity) does not use: a second computation's moduli."""
    used = len(primes_for(capacity))
    return tuple(p for _, p in zip(range(used + count), primes_below(2 ** BITS)))[used:]


class Residues:
    """a(1..n) modulo `primes` (by default those for `capacity`), batches of BATCH lanes each in a
    recursion of its own (one thread each), kept between calls: a larger n extends them."""

    def __init__(self, capacity: int, primes: tuple[int, ...] | None = None):
        from .recursion import recursion

        self.primes = primes or primes_for(capacity)
        self.parts = [(batch, recursion(capacity, batch)) for batch in _batches(self.primes)]

    def residues(self, n: int, threads: int = 1) -> list[list[int]]:
        """[[a(1..n) modulo p] for each prime p], in the order of self.primes."""
        from ...search import tasks

        def lanes(part: tuple[tuple[int, ...], Callable[[int], Any]]) -> list[list[int]]:
            batch, extend = part
            t = extend(n).T
            return [[int(t[k, k, j]) for k in range(1, n + 1)] for j in range(len(batch))]

        with tasks.fan_out(threads) as each:
            return [row for rows in each(lanes, self.parts) for row in rows]

    def terms(self, n: int, threads: int = 1) -> list[int]:
        """a(1..n), exactly."""
        return join(self.residues(n, threads), self.primes)


def terms(n: int, threads: int = 1) -> list[int]:
    """a(1..n) by residues, from a recursion of its own."""
    return Residues(n).terms(n, threads)


def _batches(primes: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [primes[i:i + BATCH] for i in range(0, len(primes), BATCH)]


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels."""
    terms(4)
